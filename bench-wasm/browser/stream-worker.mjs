// stream.mjs's worker: each way of taking a File's bytes, timed alone (see stream.mjs).
import { init, createHasher, hashStream } from '../../pkg/index.mjs';
import * as glue from '../../pkg/wasm/sha1dc_wasm.js';

const CHUNK = 2 << 20;
const MiB = 1 << 20;

/** The File's stream drained into one CHUNK buffer at a time; `use(view)` sees each. */
async function drain(file, use) {
  const reader = file.stream().getReader({ mode: 'byob' });
  let buffer = new ArrayBuffer(CHUNK);
  for (;;) {
    const { value, done } = await reader.read(new Uint8Array(buffer));
    if (done) break;
    use(value);
    buffer = value.buffer;
  }
}

let sink = 0;
const parts = {
  'read (File stream, BYOB)': (file) => drain(file, (v) => { sink += v[0]; }),
  'read + copy into wasm memory': (file) => {
    const calls = new glue.RawCalls();
    const at = calls.input(CHUNK);
    const memory = glue.wasmMemory();
    return drain(file, (v) => new Uint8Array(memory.buffer, at, v.length).set(v));
  },
  'hash from memory (createHasher, 2 MiB updates)': (file) => {
    const chunk = new Uint8Array(CHUNK).fill(7);
    const h = createHasher();
    for (let done = 0; done < file.size; done += CHUNK) h.update(chunk.subarray(0, Math.min(CHUNK, file.size - done)));
    h.digest();
  },
  'hashStream(file), one worker': (file) => hashStream(file, { worker: false }),
  'hashStream(file), two workers': (file) => hashStream(file, { worker: true }),
};

let file = null;
self.onmessage = async ({ data }) => {
  try {
    if (data.file) {
      file = data.file;
      await init();
      postMessage({ type: 'ready', size: file.size });
      return;
    }
    // One round: every part once, starting from part `round` (the order rotates).
    const names = Object.keys(parts);
    const rates = {};
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + data.round) % names.length];
      const t0 = performance.now();
      await parts[name](file);
      rates[name] = file.size / MiB / ((performance.now() - t0) / 1000);
    }
    postMessage({ type: 'round', rates, sink });
  } catch (err) {
    postMessage({ type: 'error', message: String(err && err.stack || err) });
  }
};
