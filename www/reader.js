// Reader worker, started by worker.js (a nested module worker): reads a File into buffers the
// hashing worker lends it and hands each filled one back, so that draining the File's stream
// (which costs about a third of the hashing time) runs on its own thread, beside the hash.
//
// Messages from worker.js:
//   { type: 'read', id, file, buffers }  start; `buffers` (ArrayBuffers) are transferred
//   { type: 'give', id, buffer }         a buffer back, hashed, to fill again
//   { type: 'cancel', id }               stop
// Replies: { type: 'chunk', id, buffer, length } (transferred), { type: 'done', id },
//          { type: 'error', id, name, message }. A buffer the stream holds at a cancel is lost.

const jobs = new Map();

async function read(job) {
  const { id, file } = job;
  let reader;
  try {
    reader = file.stream().getReader({ mode: 'byob' });
  } catch (err) {
    postMessage({ type: 'error', id, name: 'NotSupportedError', message: String(err && err.message || err) });
    return;
  }
  job.reader = reader;
  try {
    let got = 0;
    while (got < file.size && !job.cancelled) {
      const buffer = job.free.pop() ?? await new Promise((resolve) => { job.wake = resolve; });
      if (job.cancelled) break;
      const { value, done } = await reader.read(new Uint8Array(buffer));
      if (done || !value) break;
      got += value.byteLength;
      postMessage({ type: 'chunk', id, buffer: value.buffer, length: value.byteLength }, [value.buffer]);
    }
    if (!job.cancelled) postMessage({ type: 'done', id });
  } catch (err) {
    if (!job.cancelled) postMessage({ type: 'error', id, name: err && err.name, message: String(err && err.message || err) });
  } finally {
    jobs.delete(id);
  }
}

self.onmessage = ({ data }) => {
  const job = jobs.get(data.id);
  if (data.type === 'read') {
    const fresh = { id: data.id, file: data.file, free: data.buffers, wake: null, cancelled: false, reader: null };
    jobs.set(data.id, fresh);
    read(fresh);
  } else if (data.type === 'give' && job) {
    if (job.wake) {
      const wake = job.wake;
      job.wake = null;
      wake(data.buffer);
    } else {
      job.free.push(data.buffer);
    }
  } else if (data.type === 'cancel' && job) {
    job.cancelled = true;
    job.reader?.cancel().catch(() => {});
    if (job.wake) job.wake(null);
  }
};
