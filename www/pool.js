// The worker pool: a few module workers (worker.js) that hash files off the main thread, one job
// each at a time, and a queue of jobs waiting for a free worker. No DOM: the page learns what
// happens through the callbacks it passes in, each keyed by the job id `submit` returned.

import { ENGINE_DID_NOT_LOAD, WORKER_DID_NOT_LOAD } from './format.js';


/**
 * @typedef {{ file: File, options: { gitBlob?: boolean, reducedRound?: boolean } }} Job
 * @typedef {{ name: string, worker: Worker, ready: boolean, job: number, deadline: number }} WorkerSlot
 *   one worker of the pool; `job` is the id of the job it runs, 0 while idle; `deadline` the
 *   timer that replaces the worker if it does not acknowledge a cancel
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
    /** name of the engine, once a worker has loaded it */
    this.backend = '';
    /** why the engine could not load, if it could not */
    this.broken = '';
    /** @type {WorkerSlot[]} */
    this.slots = [];
    /** @type {Map<number, Job>} jobs waiting for a worker, in order */
    this.queue = new Map();
    this.nextId = 1;
    for (let i = 0; i < size; i++) {
      const slot = { name: `sha1dc-${i}`, worker: null, ready: false, job: 0, deadline: 0 };
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
      queueMicrotask(() => this.on.error?.(id, ENGINE_DID_NOT_LOAD));
      return id;
    }
    this.queue.set(id, { file, options });
    queueMicrotask(() => this.schedule());
    return id;
  }

  /**
   * Stops a job. A queued one is dropped at once ('dropped'); a running one is asked to stop
   * ('asked'), which its worker acknowledges with `cancelled`, or, failing that within
   * cancelGraceMs, the worker is replaced and `cancelled` is reported then. Returns false for
   * a job the pool no longer has.
   */
  cancel(id) {
    if (this.queue.delete(id)) {
      this.on.cancelled?.(id);
      return 'dropped';
    }
    const slot = this.slots.find((s) => s.job === id);
    if (!slot) return false;
    slot.worker.postMessage({ type: 'cancel', id });
    clearTimeout(slot.deadline);
    slot.deadline = setTimeout(() => {
      if (slot.job !== id) return;
      this.restartWorker(slot);
      this.on.cancelled?.(id);
      this.schedule();
    }, this.cancelGraceMs);
    return 'asked';
  }

  /** @param {WorkerSlot} slot */
  startWorker(slot) {
    const worker = new Worker(this.url, { type: 'module', name: slot.name });
    slot.worker = worker;
    slot.ready = false;
    slot.job = 0;
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
    for (const id of waiting) this.on.error?.(id, ENGINE_DID_NOT_LOAD);
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
        if (slot.job === msg.id) this.on.progress?.(msg.id, msg.done, msg.total, msg.ms);
        return;
    }
    // The job is over (result, cancelled or error): the worker is free.
    if (slot.job !== msg.id) return;
    slot.job = 0;
    clearTimeout(slot.deadline);
    if (msg.type === 'result') this.on.result?.(msg.id, msg.result, msg.total, msg.ms);
    else if (msg.type === 'cancelled') this.on.cancelled?.(msg.id);
    else if (msg.type === 'error') this.on.error?.(msg.id, msg.message);
    this.schedule();
  }

  schedule() {
    for (const slot of this.slots) {
      if (!slot.ready || slot.job) continue;
      const next = this.queue.entries().next();
      if (next.done) break;
      const [id, { file, options }] = next.value;
      this.queue.delete(id);
      slot.job = id;
      this.on.started?.(id);
      slot.worker.postMessage({ type: 'hash', id, file, options });
    }
  }
}
