// sha1dc-wasm with the WebAssembly module inlined (base64) in the JavaScript, for bundlers that
// do not copy a `.wasm` referenced by `new URL(..., import.meta.url)`: esbuild, Rollup without
// plugins, and any bundle that runs in Node (nothing beside the bundle to read). Chosen through
// the package's `exports` conditions; the module is compiled and instantiated on import, so
// `init()` resolves at once (where a runtime refuses to compile synchronously, `init()` does it).
import * as glue from './wasm/sha1dc_wasm_inline.js';
import { WASM_BASE64 } from './wasm/sha1dc_wasm_base64.mjs';
import { createApi } from './core.mjs';

let bytes = null;
function wasmBytes() {
  if (bytes === null) {
    const bin = atob(WASM_BASE64);
    bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  }
  return bytes;
}

function moduleArg(input) {
  if (input === undefined) return { module_or_path: wasmBytes() };
  if (input !== null && Object.getPrototypeOf(input) === Object.prototype && 'module_or_path' in input) return input;
  return { module_or_path: input };
}

const api = createApi(
  glue,
  async (input) => {
    await glue.default(moduleArg(input));
  },
  (module) => {
    glue.initSync({ module });
  },
);

try {
  api.initSync(wasmBytes());
} catch {
  // A runtime that limits synchronous compilation (a browser's main thread with a large
  // module): init() compiles it asynchronously.
}
bytes = null;

export const { init, initSync, sha1dc, sha1dcMany, createHasher, hashStream, backend } = api;
