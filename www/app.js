// The collision checker page: wires file picking to the worker pool (pool.js) and the results
// to the page (render.js, groups.js). Plain ES modules, no dependencies. This module owns the
// page's state: the files on the page and which pool job each is waiting for.

import { WorkerPool } from './pool.js';
import {
  showEngine, showEngineFailed, createRow, showQueued, showHashing, setProgressText, showProgress,
  showResult, showStopped, showSummary, announcer,
} from './render.js';
import { collisionGroups, GroupsView } from './groups.js';
import {
  tally, addedText, resultAnnouncement, stoppedAnnouncement, CANCELLING, CANCELLED, ENGINE_DID_NOT_LOAD,
} from './format.js';

const POOL_SIZE = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 4));

const $ = (sel) => document.querySelector(sel);
const ui = {
  engine: $('#engine'),
  dropzone: $('#dropzone'),
  input: $('#files'),
  gitBlob: $('#opt-git-blob'),
  reduced: $('#opt-reduced'),
  cancelAll: $('#cancel-all'),
  clear: $('#clear'),
  summary: $('#summary'),
  groups: $('#groups'),
  list: $('#results'),
  announcer: $('#announcer'),
  template: $('#file-template'),
};

const say = announcer(ui.announcer);
const groups = new GroupsView(ui.groups);

/** @type {Map<number, import('./render.js').Entry>} every file on the page, by entry id, in order */
const entries = new Map();
/** @type {Map<number, import('./render.js').Entry>} the files the pool has a job for, by job id */
const byJob = new Map();
let nextEntryId = 1;

const pool = new WorkerPool({
  size: POOL_SIZE,
  url: new URL('./worker.js', import.meta.url),
  listener: {
    ready(backend) {
      showEngine(ui.engine, backend, POOL_SIZE);
    },
    failed(reason) {
      showEngineFailed(ui.engine, reason);
    },
    started(id) {
      const entry = byJob.get(id);
      if (entry) showHashing(entry);
    },
    progress(id, done, total, ms) {
      const entry = byJob.get(id);
      if (entry) showProgress(entry, done, total, ms);
    },
    result(id, result, total, ms) {
      const entry = finished(id);
      if (!entry) return;
      entry.status = result.collision ? 'collision' : 'clean';
      entry.result = result;
      showResult(entry, total, ms, say);
      say(resultAnnouncement(entry.file.name, result.collision));
      update();
    },
    cancelled(id) {
      const entry = finished(id);
      if (entry) stop(entry, 'cancelled', CANCELLED);
    },
    error(id, message) {
      const entry = finished(id);
      if (entry) stop(entry, 'error', message);
    },
  },
});

/** The file whose job `id` ended, if it is still on the page and still waits for that job. */
function finished(id) {
  const entry = byJob.get(id);
  byJob.delete(id);
  return entry && entry.jobId === id ? entry : null;
}

function stop(entry, status, message) {
  entry.status = status;
  showStopped(entry, message);
  say(stoppedAnnouncement(entry.file.name, status, message));
  update();
}

function addFiles(fileList) {
  const files = Array.from(fileList || []);
  if (!files.length) return;
  for (const file of files) {
    const id = nextEntryId++;
    const { el, refs } = createRow(ui.template, id, file);
    const entry = { id, file, el, refs, status: 'pending', jobId: 0, options: null, result: null };
    refs.cancel.addEventListener('click', () => cancel(entry));
    entries.set(id, entry);
    ui.list.append(el);
    enqueue(entry);
  }
  say(addedText(files.length));
  update();
}

/** Hashes a file (again) with the current options; a job it still had is cancelled. */
function enqueue(entry) {
  if (entry.jobId && byJob.delete(entry.jobId)) pool.cancel(entry.jobId); // forgotten first: no "cancelled"
  entry.options = { gitBlob: ui.gitBlob.checked, reducedRound: ui.reduced.checked };
  entry.result = null;
  entry.status = 'pending';
  showQueued(entry, Boolean(pool.backend));
  if (pool.broken) {
    entry.jobId = 0;
    stop(entry, 'error', ENGINE_DID_NOT_LOAD);
    return;
  }
  entry.jobId = pool.submit(entry.file, entry.options);
  byJob.set(entry.jobId, entry);
}

function cancel(entry) {
  if (entry.status !== 'pending') return;
  if (pool.cancel(entry.jobId) === 'asked') setProgressText(entry, CANCELLING);
}

function rehashAll() {
  for (const entry of entries.values()) enqueue(entry);
  update();
}

function clearAll() {
  const jobs = [...byJob.keys()];
  byJob.clear(); // first, so the cancelled jobs are not reported
  for (const id of jobs) pool.cancel(id);
  entries.clear();
  ui.list.textContent = '';
  say('List cleared.');
  update();
}

/** The summary and the collision groups, after any change of a file's status. */
function update() {
  showSummary(ui, tally([...entries.values()].map((e) => e.status)));
  const hashed = [...entries.values()].filter((e) => e.result).map((e) => ({
    id: e.id, name: e.file.name, anchor: e.el.id, gitBlob: e.options.gitBlob, sha1: e.result.sha1, hex: e.result.hex,
  }));
  groups.show(collisionGroups(hashed));
}

// ---------------------------------------------------------------------------------------------
// Wiring
// ---------------------------------------------------------------------------------------------

ui.input.addEventListener('change', () => {
  addFiles(ui.input.files);
  ui.input.value = '';
});

let dragDepth = 0;
function hasFiles(event) {
  return event.dataTransfer && Array.from(event.dataTransfer.types || []).includes('Files');
}
// Accept drops anywhere on the page, so a near miss does not navigate away to the file.
document.addEventListener('dragenter', (event) => {
  if (!hasFiles(event)) return;
  event.preventDefault();
  dragDepth++;
  ui.dropzone.classList.add('over');
});
document.addEventListener('dragover', (event) => {
  if (!hasFiles(event)) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = 'copy';
});
document.addEventListener('dragleave', () => {
  dragDepth = Math.max(0, dragDepth - 1);
  if (!dragDepth) ui.dropzone.classList.remove('over');
});
document.addEventListener('drop', (event) => {
  event.preventDefault();
  dragDepth = 0;
  ui.dropzone.classList.remove('over');
  if (event.dataTransfer) addFiles(event.dataTransfer.files);
});

ui.gitBlob.addEventListener('change', rehashAll);
ui.reduced.addEventListener('change', rehashAll);
ui.cancelAll.addEventListener('click', () => {
  for (const entry of entries.values()) cancel(entry);
});
ui.clear.addEventListener('click', clearAll);

update();
