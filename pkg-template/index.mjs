// sha1dc-wasm for browsers, Web Workers, bundlers and other runtimes (the
// "browser" and "default" conditions): the module loads with `await init()`,
// which fetches wasm/sha1dc_wasm_bg.wasm next to this file unless it is given
// the module (URL, Response, bytes or WebAssembly.Module).
import * as glue from './wasm/sha1dc_wasm.js';
import { createApi } from './core.mjs';

function moduleArg(input) {
  if (input === undefined) return undefined;
  // Already in wasm-bindgen's own form.
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

export const { init, initSync, sha1dc, sha1dcMany, createHasher, hashStream, backend } = api;
