// sha1dc-wasm for Deno (the "deno" condition): inline.mjs's API, loaded on import, whose
// hashStream starts its filter worker on filter-worker.mjs next to this file.
import { inlineApi } from './inline-api.mjs';

const startWorker = () => new Worker(new URL('./filter-worker.mjs', import.meta.url), { type: 'module', name: 'sha1dc-filter' });

export const { init, initSync, sha1dc, sha1dcMany, createHasher, createFilter, hashStream, backend, parseChecksumLine, formatChecksumLine } = inlineApi(startWorker);
