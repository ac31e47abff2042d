// The collision checker page: wires file picking to the worker pool (pool.js) and the results
// to the page (render.js, groups.js). Plain ES modules, no dependencies. This module owns the
// page's state: the files on the page and which pool job each is waiting for.

import { init } from './pkg/index.mjs';
import { WorkerPool } from './pool.js';
import {
  showBackend, showLoadFailed, createRow, showQueued, showHashing, setProgressText, showProgress,
  showResult, showStopped, showSummary, showMatch, announcer,
} from './render.js';
import { collisionGroups, GroupsView } from './groups.js';
import {
  tally, summaryText, addedText, resultAnnouncement, stoppedAnnouncement, CANCELLING, CANCELLED, MODULE_DID_NOT_LOAD,
  expectedStatusText, folderRefusedText, folderErrorText,
} from './format.js';
import { parseExpected, compareExpected, statusOf } from './expected.js';
import { exportText, exportJson, exportName } from './export.js';
import { TimeLeft } from './remaining.js';
import { filesFromDrop } from './folders.js';
import { takeGit } from './git.js'; // repositories, packs and bundles: git.js

const POOL_SIZE = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 4));
/**
 * A large file on one worker, without the package's filter worker beside it, where the machine
 * has two logical CPUs or fewer: the browser's reading of the file takes part of one, and one
 * worker then ran faster than two (docs/performance.md). `?workers=1` or `?workers=2` in the
 * address chooses, to compare.
 */
const WORKERS = new URLSearchParams(location.search).get('workers');
const ONE_WORKER = WORKERS === '1' || (WORKERS !== '2' && (navigator.hardwareConcurrency || 2) <= 2);

const $ = (sel) => document.querySelector(sel);
const ui = {
  backend: $('#backend'),
  dropzone: $('#dropzone'),
  input: $('#files'),
  folder: $('#folder'),
  pickFiles: $('#pick-files'),
  pickFolder: $('#pick-folder'),
  dropNote: $('#drop-note'),
  expected: $('#expected'),
  expectedStatus: $('#expected-status'),
  exportText: $('#export-text'),
  exportJson: $('#export-json'),
  heading: $('#results-heading'),
  summaryLive: $('#summary-live'),
  gitBlob: $('#opt-git-blob'),
  reduced: $('#opt-reduced'),
  gitContent: $('#opt-git-content'),
  cancelAll: $('#cancel-all'),
  clear: $('#clear'),
  onlyProblems: $('#only-problems'),
  noProblems: $('#no-problems'),
  summary: $('#summary'),
  groups: $('#groups'),
  list: $('#results'),
  announcer: $('#announcer'),
  template: $('#file-template'),
};

/**
 * The package's module on this thread too, for the checksum lines of the pasted hashes and of
 * the export (the hashing runs in the workers).
 */
const linesReady = init();
const say = announcer(ui.announcer);
const groups = new GroupsView(ui.groups);
/** The pasted expected hashes, parsed (null when the box is empty). */
let expected = null;

/**
 * Writes the summary to the hidden live region at most once per `minMs`: a burst of changes
 * (eight small files finish within milliseconds) is announced once, then its final state once.
 */
function throttledLive(el, minMs = 1000) {
  let last = -Infinity;
  let timer = 0;
  let pending = '';
  const flush = () => {
    timer = 0;
    last = performance.now();
    if (el.textContent !== pending) el.textContent = pending;
  };
  return (text) => {
    pending = text;
    if (timer) return;
    const wait = last + minMs - performance.now();
    if (wait <= 0) flush();
    else timer = setTimeout(flush, wait);
  };
}
const announceSummary = throttledLive(ui.summaryLive);

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
      showBackend(ui.backend, backend, POOL_SIZE);
    },
    failed(reason) {
      showLoadFailed(ui.backend, reason);
    },
    started(id) {
      const entry = byJob.get(id);
      if (entry) showHashing(entry);
    },
    progress(id, done, total, ms) {
      const entry = byJob.get(id);
      if (!entry) return;
      entry.timeLeft ??= new TimeLeft();
      showProgress(entry, done, total, ms, entry.timeLeft.update(done, total, ms));
    },
    result(id, result, total, ms) {
      const entry = finished(id);
      if (!entry) return;
      Object.assign(entry, { result, total, ms, cmp: compareExpected(expected, entry.name, result) });
      entry.status = statusOf(result, entry.cmp);
      keepFocus(entry, () => showResult(entry, say));
      say(resultAnnouncement(entry.name, entry.status, result.collision), entry.status === 'clean');
      updateSoon();
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
  keepFocus(entry, () => showStopped(entry, message));
  say(stoppedAnnouncement(entry.name, status, message));
  updateSoon();
}

/**
 * Runs `render`, which hides the row's Cancel button; if the keyboard focus was in the row, it
 * moves to the row's name rather than falling back to the page's body.
 */
function keepFocus(entry, render) {
  const had = entry.el.contains(document.activeElement);
  render();
  if (had && (document.activeElement === document.body || !entry.el.contains(document.activeElement) ||
      document.activeElement.hidden || document.activeElement.closest('[hidden]'))) {
    entry.refs.name.focus();
  }
}

/** Files to add: File objects, or { file, path } with the path inside a dropped or picked folder. */
function addFiles(fileList) {
  const files = Array.from(fileList || []).map((f) => (f instanceof Blob ? { file: f, path: f.webkitRelativePath || f.name } : f));
  if (!files.length) return;
  for (const { file, path } of files) {
    const id = nextEntryId++;
    const { el, refs } = createRow(ui.template, id, file, path);
    const entry = {
      id, file, name: path, el, refs, status: 'pending', jobId: 0, options: null, result: null, total: 0, ms: 0, cmp: null, timeLeft: null,
    };
    refs.cancel.addEventListener('click', () => cancel(entry));
    entries.set(id, entry);
    ui.list.append(refs.row);
    enqueue(entry);
  }
  say(addedText(files.length));
  update();
}

/** Hashes a file (again) with the current options; a job it still had is cancelled. */
function enqueue(entry) {
  if (entry.jobId && byJob.delete(entry.jobId)) pool.cancel(entry.jobId); // forgotten first: no "cancelled"
  entry.options = { gitBlob: ui.gitBlob.checked, reducedRound: ui.reduced.checked, oneWorker: ONE_WORKER };
  Object.assign(entry, { result: null, cmp: null, timeLeft: null, status: 'pending' });
  showQueued(entry, Boolean(pool.backend));
  showMatch(entry);
  if (pool.broken) {
    entry.jobId = 0;
    stop(entry, 'error', MODULE_DID_NOT_LOAD);
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
  // The button pressed is now disabled: the next thing to do is to choose files.
  ui.pickFiles.focus();
}

/**
 * How often, at most, update() runs while files still wait for their verdict: it walks every
 * file, and the files of a large folder finish a few every millisecond.
 */
const UPDATE_MS = 100;
let updateTimer = 0;

/** update() after a verdict: at once for the last file waited for, else within UPDATE_MS. */
function updateSoon() {
  if (byJob.size === 0) {
    update();
  } else if (!updateTimer) {
    updateTimer = setTimeout(update, UPDATE_MS);
  }
}

/** The summary and the collision groups, after any change of a file's status. */
function update() {
  clearTimeout(updateTimer);
  updateTimer = 0;
  const focused = document.activeElement;
  const t = tally([...entries.values()].map((e) => e.status));
  showSummary(ui, t, Boolean(expected));
  announceSummary(summaryText(t, Boolean(expected)));
  const done = [...entries.values()].filter((e) => e.result);
  ui.exportText.disabled = ui.exportJson.disabled = done.length === 0;
  // A focused button that became disabled (Cancel all once nothing runs) would drop the focus.
  if (focused instanceof HTMLButtonElement && focused.disabled) ui.heading.focus();
  const hashed = done.map((e) => ({
    id: e.id, name: e.name, anchor: e.refs.row.id, gitBlob: e.options.gitBlob, sha1: e.result.sha1, hex: e.result.hex,
  }));
  groups.show(collisionGroups(hashed));
}

// ---------------------------------------------------------------------------------------------
// Expected hashes and export
// ---------------------------------------------------------------------------------------------

/** Compares every hashed file with the pasted hashes again; a row is redrawn only if it changed. */
async function compareAll() {
  await linesReady;
  const text = ui.expected.value;
  expected = text.trim() ? parseExpected(text) : null;
  ui.expectedStatus.textContent = expectedStatusText(expected ?? { lines: 0 }, !expected);
  for (const entry of entries.values()) {
    if (!entry.result) continue;
    const cmp = compareExpected(expected, entry.name, entry.result);
    const status = statusOf(entry.result, cmp);
    if (status === entry.status && JSON.stringify(cmp) === JSON.stringify(entry.cmp)) continue;
    Object.assign(entry, { cmp, status });
    keepFocus(entry, () => showResult(entry, say));
  }
  update();
}

/** Downloads `text` as a file made in the page (a blob: URL; nothing leaves the machine). */
function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves the hashed files in `kind` ('txt' or 'json'), in the mode the page is set to. */
async function save(kind) {
  await linesReady;
  const gitBlob = ui.gitBlob.checked;
  const files = [...entries.values()].filter((e) => e.result && e.options.gitBlob === gitBlob)
    .map((e) => ({ name: e.name, result: e.result }));
  const [type, text] = kind === 'json'
    ? ['application/json', exportJson(files, { gitBlob })]
    : ['text/plain', exportText(files, { gitBlob })];
  download(exportName(kind, gitBlob), type, text);
}

// ---------------------------------------------------------------------------------------------
// Wiring
// ---------------------------------------------------------------------------------------------

ui.pickFiles.addEventListener('click', () => ui.input.click());
ui.pickFolder.addEventListener('click', () => ui.folder.click());
for (const input of [ui.input, ui.folder]) {
  input.addEventListener('change', () => {
    takeGit({ files: [...input.files] }, { content: ui.gitContent.checked }).then((drop) => addFiles(drop.files));
    input.value = '';
  });
}

let expectedTimer = 0;
ui.expected.addEventListener('input', () => {
  clearTimeout(expectedTimer);
  expectedTimer = setTimeout(compareAll, 150);
});
ui.exportText.addEventListener('click', () => save('txt'));
ui.exportJson.addEventListener('click', () => save('json'));

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
  if (!event.dataTransfer) return;
  ui.dropNote.hidden = true;
  // Folders are walked (asynchronously); the drop's entries must be taken during the event.
  filesFromDrop(event.dataTransfer).then((drop) => takeGit(drop, { content: ui.gitContent.checked })).then(({ files, refused, unreadable }) => {
    addFiles(files);
    const notes = [];
    if (refused.length) notes.push(folderRefusedText(refused));
    for (const path of unreadable) notes.push(folderErrorText(path));
    if (notes.length) {
      ui.dropNote.textContent = notes.join(' ');
      ui.dropNote.hidden = false;
    }
  });
});

ui.gitBlob.addEventListener('change', rehashAll);
ui.reduced.addEventListener('change', rehashAll);
ui.cancelAll.addEventListener('click', () => {
  for (const entry of entries.values()) cancel(entry);
});
ui.clear.addEventListener('click', clearAll);
ui.onlyProblems.addEventListener('change', update);

update();

// Offline use, reload included: a service worker keeps the page's own files (sw.js).
if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker.register('./sw.js').catch(() => {
    // Not fatal: the page works, only not offline after a reload.
  });
}
