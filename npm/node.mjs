// sha1dc-wasm for Node as an ES module: the same instance as the CommonJS
// entry, so a program that mixes import and require loads the module once.
import api from './node.cjs';

export const { init, initSync, sha1dc, sha1dcMany, createHasher, createFilter, hashStream, backend, parseChecksumLine, formatChecksumLine } = api;
