// The filter worker of a two-worker hashStream, as a module Web Worker (browsers, Deno): see
// filtering.mjs. A bundled app that starts the worker itself points a worker of its own at
// this module (`import 'sha1dc-wasm/filter-worker'`) and passes hashStream a function that
// starts it (the README shows how).
import { serve } from './filtering.mjs';

serve(
  (msg, transfer) => self.postMessage(msg, transfer),
  (handler) => {
    self.onmessage = (event) => handler(event.data);
  },
);
