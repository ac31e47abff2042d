// sha1dc-wasm with the WebAssembly module inlined (base64) in the JavaScript, for bundlers that
// do not copy a `.wasm` referenced by `new URL(..., import.meta.url)`: esbuild, Rollup without
// plugins, and any bundle that runs in Node (nothing beside the bundle to read). Chosen through
// the package's `exports` conditions; the module is compiled and instantiated on import, so
// `init()` resolves at once (where a runtime refuses to compile synchronously, `init()` does it).
// No import.meta (a CommonJS bundle cannot have one), so no filter worker of its own: hashStream
// takes a function that starts one (the README shows how).
import { inlineApi } from './inline-api.mjs';

export const { init, initSync, sha1dc, sha1dcMany, createHasher, createFilter, hashStream, backend, parseChecksumLine, formatChecksumLine } = inlineApi(null);
