// The worker pool: a few module workers (worker.js) that hash files off the main thread, and a
// queue of jobs waiting for a free worker. A free worker takes the next large file alone (it is
// streamed), or the next run of small files together as one batch (read whole and hashed with
// sha1dcMany, several at a time). No DOM: the page learns what happens through the callbacks it
// passes in, each keyed by the job id `submit` returned; a file in a batch is reported on its own,
// as any other.

import { MODULE_DID_NOT_LOAD, WORKER_DID_NOT_LOAD } from './format.js';

/** Files of at most this many bytes go in batches; larger ones are streamed, one per worker. */
export const BATCH_FILE_MAX = 1024 * 1024;
/** A batch holds at most this many bytes of files... */
export const BATCH_BYTES = 4 * 1024 * 1024;
/** ...and at most this many files. */
export const BATCH_FILES = 256;

const batchable = (file) => typeof file?.size === 'number' && file.size <= BATCH_FILE_MAX;
const sameOptions = (a, b) => Boolean(a?.gitBlob) === Boolean(b?.gitBlob) && Boolean(a?.reducedRound) === Boolean(b?.reducedRound);

/**
 * @typedef {{ file: File, options: { gitBlob?: boolean, reducedRound?: boolean } }} Job
 * @typedef {{ name: string, worker: Worker, ready: boolean, jobs: Map<number, Job>, deadlines: Map<number, number> }} WorkerSlot
 *   one worker of the pool; `jobs` the jobs it runs (one large file, or a batch of small ones),
 *   empty while idle; `deadlines` the timers that replace the worker if it does not acknowledge
 *   a cancel
 * @typedef {{
 *   ready?: (backend: string) => void, failed?: (reason: string) => void,
 *   started?: (id: number) => void, progress?: (id: number, done: number, total: number, ms: number) => void,
 *   result?: (id: number, result: object, total: number, ms: number) => void,
 *   cancelled?: (id: number) => void, error?: (id: number, message: string) => void,
 * }} Listener
 */

export class WorkerPool {
  /**
   * @param {{ size: number, url: URL, listener: Listener, cancelGraceMs?: number }} options
   *   cancelGraceMs: how long a worker may take to acknowledge a cancel before it is replaced
   */
  constructor({ size, url, listener, cancelGraceMs = 3000 }) {
    this.size = size;
    this.cancelGraceMs = cancelGraceMs;
    this.url = url;
    this.on = listener;
    /** name of the backend, once a worker has loaded the module */
    this.backend = '';
    /** why the module could not load, if it could not */
    this.broken = '';
    /** @type {WorkerSlot[]} */
    this.slots = [];
    /** @type {Map<number, Job>} jobs waiting for a worker, in order */
    this.queue = new Map();
    this.nextId = 1;
    for (let i = 0; i < size; i++) {
      const slot = { name: `sha1dc-${i}`, worker: null, ready: false, jobs: new Map(), deadlines: new Map() };
      this.slots.push(slot);
      this.startWorker(slot);
    }
  }

  /**
   * Queues a file; returns the job's id. Nothing is reported before the caller has the id: the
   * job starts (or fails) in a microtask at the earliest.
   */
  submit(file, options) {
    const id = this.nextId++;
    if (this.broken) {
      queueMicrotask(() => this.on.error?.(id, MODULE_DID_NOT_LOAD));
      return id;
    }
    this.queue.set(id, { file, options });
    queueMicrotask(() => this.schedule());
    return id;
  }

  /**
   * Stops a job. A queued one is dropped at once ('dropped'); a running one is asked to stop
   * ('asked'), which its worker acknowledges with `cancelled`, or, failing that within
   * cancelGraceMs, the worker is replaced and `cancelled` is reported then (the other files of
   * its batch, if it had one, go back to the head of the queue). Returns false for a job the
   * pool no longer has.
   */
  cancel(id) {
    if (this.queue.delete(id)) {
      this.on.cancelled?.(id);
      return 'dropped';
    }
    const slot = this.slots.find((s) => s.jobs.has(id));
    if (!slot) return false;
    slot.worker.postMessage({ type: 'cancel', id });
    clearTimeout(slot.deadlines.get(id));
    slot.deadlines.set(id, setTimeout(() => {
      if (!slot.jobs.has(id)) return;
      slot.jobs.delete(id);
      const others = [...slot.jobs];
      this.restartWorker(slot);
      this.queue = new Map([...others, ...this.queue]);
      this.on.cancelled?.(id);
      this.schedule();
    }, this.cancelGraceMs));
    return 'asked';
  }

  /** @param {WorkerSlot} slot */
  startWorker(slot) {
    const worker = new Worker(this.url, { type: 'module', name: slot.name });
    slot.worker = worker;
    slot.ready = false;
    for (const timer of slot.deadlines?.values() ?? []) clearTimeout(timer);
    slot.jobs = new Map();
    slot.deadlines = new Map();
    worker.onmessage = (event) => this.onMessage(slot, event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.fail(WORKER_DID_NOT_LOAD);
    };
  }

  /** Last resort for a cancel the worker did not acknowledge: stop it and start a fresh one. */
  restartWorker(slot) {
    slot.worker.terminate();
    this.startWorker(slot);
  }

  fail(reason) {
    if (this.broken) return;
    this.broken = reason;
    this.on.failed?.(reason);
    const waiting = [...this.queue.keys()];
    this.queue.clear();
    for (const id of waiting) this.on.error?.(id, MODULE_DID_NOT_LOAD);
  }

  onMessage(slot, msg) {
    switch (msg.type) {
      case 'ready':
        slot.ready = true;
        if (!this.backend) {
          this.backend = msg.backend;
          this.on.ready?.(this.backend);
        }
        this.schedule();
        return;
      case 'failed':
        this.fail(msg.message);
        return;
      case 'progress':
        if (slot.jobs.has(msg.id)) this.on.progress?.(msg.id, msg.done, msg.total, msg.ms);
        return;
    }
    // The job is over (result, cancelled or error); the worker is free once all of its are.
    if (!slot.jobs.has(msg.id)) return;
    slot.jobs.delete(msg.id);
    clearTimeout(slot.deadlines.get(msg.id));
    slot.deadlines.delete(msg.id);
    if (msg.type === 'result') this.on.result?.(msg.id, msg.result, msg.total, msg.ms);
    else if (msg.type === 'cancelled') this.on.cancelled?.(msg.id);
    else if (msg.type === 'error') this.on.error?.(msg.id, msg.message);
    this.schedule();
  }

  schedule() {
    for (const slot of this.slots) {
      if (!slot.ready || slot.jobs.size) continue;
      const next = this.queue.entries().next();
      if (next.done) break;
      const [id, job] = next.value;
      if (!batchable(job.file)) {
        this.queue.delete(id);
        slot.jobs.set(id, job);
        this.on.started?.(id);
        slot.worker.postMessage({ type: 'hash', id, file: job.file, options: job.options });
        continue;
      }
      // A batch: the small files at the head of the queue with the same options, shared out
      // between the workers when there are few.
      const most = Math.min(BATCH_FILES, Math.ceil(this.queue.size / this.slots.length));
      let bytes = 0;
      for (const [nextId, nextJob] of this.queue) {
        if (slot.jobs.size >= most || !batchable(nextJob.file) || !sameOptions(nextJob.options, job.options)) break;
        if (slot.jobs.size > 0 && bytes + nextJob.file.size > BATCH_BYTES) break;
        bytes += nextJob.file.size;
        slot.jobs.set(nextId, nextJob);
      }
      for (const batchId of slot.jobs.keys()) this.queue.delete(batchId);
      for (const batchId of slot.jobs.keys()) this.on.started?.(batchId);
      slot.worker.postMessage({
        type: 'batch',
        jobs: [...slot.jobs].map(([batchId, { file }]) => ({ id: batchId, file })),
        options: job.options,
      });
    }
  }
}
