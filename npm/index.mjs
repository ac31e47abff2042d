// sha1dc-wasm for browsers, Web Workers, bundlers and other runtimes (the
// "browser" and "default" conditions): the module loads with `await init()`,
// which fetches wasm/sha1dc_wasm_bg.wasm next to this file unless it is given
// the module (URL, Response, bytes or WebAssembly.Module). hashStream's filter
// worker is filter-worker.mjs next to this file (bundlers that understand
// `new Worker(new URL(..., import.meta.url))` bundle it).
import * as glue from './wasm/sha1dc_wasm.js';
import { createWebApi } from './core.mjs';

const startWorker =
  typeof Worker === 'function'
    ? () => new Worker(new URL('./filter-worker.mjs', import.meta.url), { type: 'module', name: 'sha1dc-filter' })
    : null;

export const { init, initSync, sha1dc, sha1dcMany, createHasher, createFilter, hashStream, backend, parseChecksumLine, formatChecksumLine } = createWebApi(
  glue,
  () => undefined,
  startWorker,
);
