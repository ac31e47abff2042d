// The filter worker of a two-worker hashStream in Node (worker_threads): see filtering.mjs.
import { parentPort } from 'node:worker_threads';
import { serve } from './filtering.mjs';

serve(
  (msg, transfer) => parentPort.postMessage(msg, transfer),
  (handler) => parentPort.on('message', handler),
);
