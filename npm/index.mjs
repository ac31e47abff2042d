// sha1dc-wasm for browsers, Web Workers, bundlers and other runtimes (the
// "browser" and "default" conditions): the module loads with `await init()`,
// which fetches wasm/sha1dc_wasm_bg.wasm next to this file unless it is given
// the module (URL, Response, bytes or WebAssembly.Module). hashStream's filter
// worker is filter-worker.mjs next to this file (bundlers that understand
// `new Worker(new URL(..., import.meta.url))` bundle it).
import * as glue from './wasm/sha1dc_wasm.js';
import { createWebApi, isNode } from './core.mjs';

const startWorker =
  typeof Worker === 'function'
    ? () => new Worker(new URL('./filter-worker.mjs', import.meta.url), { type: 'module', name: 'sha1dc-filter' })
    : null;

// With no argument, the glue fetches the .wasm beside it; in Node (this entry imported as
// sha1dc-wasm/file) its URL is given, to be read as a file.
const defaultInput = () => (isNode() ? new URL('./wasm/sha1dc_wasm_bg.wasm', import.meta.url) : undefined);

export const { init, initSync, sha1dc, sha1dcMany, createHasher, createFilter, hashStream, backend, parseChecksumLine, formatChecksumLine } = createWebApi(
  glue,
  defaultInput,
  startWorker,
);
