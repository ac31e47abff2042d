// bench.mjs's rounds in a browser page (chromium.mjs opens it headless): the package's web entry,
// the peer crates' web build and hash-wasm, measured with rounds.mjs in wall-clock time (a page
// has no CPU clock). node:crypto has no browser form; WebCrypto's digest is asynchronous only.
// The address's query gives the options: ?rounds=7&ms=150&sizes=64,16384,1048576&batch=2000.
// The tables go to the page and to window.benchResult.
import { init, sha1dc, sha1dcMany, backend } from '../../pkg/index.mjs';
import initPeers, { sha1dc_crate, sha1_crate } from '../wasm-peers/pkg-web/sha1dc_wasm_bench_peers.js';
import { createSHA1 } from '../node_modules/hash-wasm/dist/index.esm.js';
import { run, toHex } from '../rounds.mjs';

const q = new URLSearchParams(location.search);
const opt = (name, dflt) => q.get(name) ?? dflt;
const lines = [];
const log = (line) => {
  lines.push(line);
  document.getElementById('out').textContent = lines.join('\n');
};

async function main() {
  await init();
  await initPeers();
  const hashWasm = await createSHA1();
  log(`sha1dc-wasm backend: ${backend()}; ${navigator.userAgent}; ${opt('rounds', 7)} rounds of ~${opt('ms', 150)} ms (wall time) per implementation and size, interleaved`);
  const random = (n) => {
    const d = new Uint8Array(n);
    for (let at = 0; at < n; at += 65536) crypto.getRandomValues(d.subarray(at, Math.min(n, at + 65536)));
    return d;
  };
  // The oracle: hash-wasm's digest is checked against WebCrypto's on the same inputs first.
  const subtle = async (d) => toHex(new Uint8Array(await crypto.subtle.digest('SHA-1', d)));
  for (const n of [0, 1, 64, 1000, 100_000]) {
    const d = random(n);
    if (hashWasm.init().update(d).digest('hex') !== (await subtle(d))) throw new Error(`hash-wasm disagrees with WebCrypto at ${n} bytes`);
  }
  const result = run({
    impls: [
      ['sha1dc-wasm', (d) => sha1dc(d).hex],
      ['sha1dc crate (wasm)', (d) => toHex(sha1dc_crate(d))],
      ['sha1 crate soft (wasm)', (d) => toHex(sha1_crate(d))],
      ['hash-wasm sha1', (d) => hashWasm.init().update(d).digest('hex')],
    ],
    batchImpls: [
      ['sha1dcMany', (ms) => sha1dcMany(ms).map((r) => r.hex)],
      ['sha1dc per message', (ms) => ms.map((m) => sha1dc(m).hex)],
      ['hash-wasm sha1 per message', (ms) => ms.map((m) => hashWasm.init().update(m).digest('hex'))],
    ],
    sizes: opt('sizes', '64,16384,1048576').split(',').filter(Boolean).map(Number),
    batchCount: Number(opt('batch', 2000)),
    rounds: Number(opt('rounds', 7)),
    ms: Number(opt('ms', 150)),
    clock: () => performance.now(),
    log,
    random,
    want: (d) => hashWasm.init().update(d).digest('hex'),
  });
  return { lines, ...result };
}

window.benchResult = main().catch((err) => {
  log(`failed: ${err && err.stack || err}`);
  throw err;
});
