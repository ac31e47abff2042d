// Where a large file's time goes in a browser (chromium.mjs --file PATH opens this page): once a
// file is picked, a module worker (stream-worker.mjs) runs each part alone and together, one
// round per window.streamRound(r) call (the order rotates with r): the File's stream drained, the
// same with each chunk copied into wasm memory, hashing from memory alone, and the package's
// hashStream on the File with one worker and with two. Each round resolves with MiB/s per part.
let worker = null;
let pending = null;
const ask = (msg) => new Promise((resolve, reject) => {
  pending = { resolve, reject };
  worker.postMessage(msg);
});

window.streamReady = new Promise((resolve) => {
  document.getElementById('file').addEventListener('change', (event) => {
    worker = new Worker(new URL('./stream-worker.mjs', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => {
      if (data.type === 'error') pending.reject(new Error(data.message));
      else pending.resolve(data);
    };
    worker.onerror = (e) => pending?.reject(new Error(e.message));
    resolve(ask({ file: event.target.files[0] }));
  });
});
window.streamRound = (round) => ask({ round }).then((data) => data.rates);
