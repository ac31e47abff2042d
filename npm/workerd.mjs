// sha1dc-wasm for Cloudflare Workers (the "workerd" condition, which wrangler reads): workerd
// compiles no WebAssembly from bytes at run time (the inlined entry's way), but it hands an
// imported .wasm file over compiled, as a WebAssembly.Module, which loads synchronously on import.
import wasm from './wasm/sha1dc_wasm_bg.wasm';
import * as glue from './wasm/sha1dc_wasm_inline.js';
import { createApi } from './core.mjs';

glue.initSync({ module: wasm });

export const { init, initSync, sha1dc, sha1dcMany, createHasher, createFilter, hashStream, backend, parseChecksumLine, formatChecksumLine } = createApi(glue, null, null);
