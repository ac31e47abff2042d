'use strict';
// sha1dc-wasm for Node (CommonJS, and the ESM entry node.mjs re-exports it):
// the module is compiled and instantiated synchronously on require, from
// wasm/sha1dc_wasm_bg.wasm; init() resolves at once. hashStream's filter
// worker is a worker_threads Worker on filter-worker-node.mjs.
const { join } = require('node:path');
const glue = require('./wasm/sha1dc_wasm_node.cjs');
const { createApi } = require('./core.cjs');

// None of the program's Node options: the worker needs none, and some (--input-type) fail it.
const startWorker = () => {
  const { Worker } = require('node:worker_threads');
  return new Worker(join(__dirname, 'filter-worker-node.mjs'), { name: 'sha1dc-filter', execArgv: [] });
};

module.exports = createApi(glue, null, null, startWorker);
