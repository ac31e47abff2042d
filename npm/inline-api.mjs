// The API with the WebAssembly module inlined (base64), for inline.mjs and deno.mjs: compiled
// and instantiated on import where the runtime allows it, else by init().
import * as glue from './wasm/sha1dc_wasm_inline.js';
import { WASM_BASE64 } from './wasm/sha1dc_wasm_base64.mjs';
import { createWebApi } from './core.mjs';

let bytes = null;
function wasmBytes() {
  if (bytes === null) {
    const bin = atob(WASM_BASE64);
    bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  }
  return bytes;
}

/** The API, loaded; `startWorker` as for createApi (core.mjs). */
export function inlineApi(startWorker) {
  const api = createWebApi(glue, wasmBytes, startWorker);
  try {
    api.initSync(wasmBytes());
  } catch {
    // A runtime that limits synchronous compilation (a browser's main thread with a large
    // module): init() compiles it asynchronously.
  }
  bytes = null;
  return api;
}
