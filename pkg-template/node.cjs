'use strict';
// sha1dc-wasm for Node (CommonJS, and the ESM entry node.mjs re-exports it):
// the module is compiled and instantiated synchronously on require, from
// wasm/sha1dc_wasm_bg.wasm; init() resolves at once.
const glue = require('./wasm/sha1dc_wasm_node.cjs');
const { createApi } = require('./core.cjs');

module.exports = createApi(glue, null, null);
