// The collision checker page: file picking, the worker pool, and rendering of verdicts.
// Plain ES module, no dependencies. All DOM is built with textContent (never innerHTML), so a
// file name cannot inject markup.

const MiB = 1024 * 1024;
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

/** @type {Map<number, Entry>} every file on the page, by entry id, in insertion order */
const entries = new Map();
/** @type {Map<number, Entry>} running or queued jobs, by job id */
const jobs = new Map();
const waiting = [];
let nextEntryId = 1;
let nextJobId = 1;
let engineName = '';
let engineBroken = '';

/**
 * @typedef {{ id: number, file: File, el: HTMLLIElement, status: string, jobId: number,
 *   worker: Slot | null, options: object, result: object | null, refs: object }} Entry
 * @typedef {{ worker: Worker, ready: boolean, jobId: number }} Slot
 */

// ---------------------------------------------------------------------------------------------
// Worker pool
// ---------------------------------------------------------------------------------------------

/** @type {Slot[]} */
const pool = [];

function startPool() {
  for (let i = 0; i < POOL_SIZE; i++) {
    const slot = { worker: null, ready: false, jobId: 0, name: `sha1dc-${i}` };
    startWorker(slot);
    pool.push(slot);
  }
}

function startWorker(slot) {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: slot.name });
  slot.worker = worker;
  slot.ready = false;
  slot.jobId = 0;
  worker.onmessage = (event) => onWorkerMessage(slot, event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    engineFailed('the worker script could not be loaded');
  };
}

/** Last resort for a cancel the worker did not acknowledge: stop it and start a fresh one. */
function restartWorker(slot) {
  slot.worker.terminate();
  jobs.delete(slot.jobId);
  startWorker(slot);
}

function onWorkerMessage(slot, msg) {
  switch (msg.type) {
    case 'ready':
      slot.ready = true;
      if (!engineName) {
        engineName = msg.backend;
        ui.engine.dataset.backend = engineName;
        ui.engine.textContent = '';
        ui.engine.append('Engine: ');
        const strong = document.createElement('strong');
        strong.textContent = engineName;
        ui.engine.append(strong, ` · WebAssembly · ${POOL_SIZE} background worker${POOL_SIZE > 1 ? 's' : ''} · runs locally`);
        ui.engine.classList.add('ok');
      }
      schedule();
      return;
    case 'failed':
      engineFailed(msg.message);
      return;
  }
  const entry = jobs.get(msg.id);
  if (msg.type !== 'progress' && slot.jobId === msg.id) {
    slot.jobId = 0;
    jobs.delete(msg.id);
  }
  if (entry && entry.jobId === msg.id) {
    if (msg.type === 'progress') showProgress(entry, msg.done, msg.total, msg.ms);
    else if (msg.type === 'result') showResult(entry, msg.result, msg.total, msg.ms);
    else if (msg.type === 'cancelled') showStopped(entry, 'cancelled', 'Cancelled');
    else if (msg.type === 'error') showStopped(entry, 'failed', msg.message);
  }
  if (msg.type !== 'progress') schedule();
}

function engineFailed(reason) {
  if (engineBroken) return;
  engineBroken = reason;
  ui.engine.textContent = `The hashing engine failed to load (${reason}). Reload the page to try again.`;
  ui.engine.classList.add('bad');
  for (const entry of waiting.splice(0)) showStopped(entry, 'failed', 'The hashing engine did not load.');
  update();
}

function schedule() {
  for (const slot of pool) {
    if (!slot.ready || slot.jobId) continue;
    const entry = waiting.shift();
    if (!entry) break;
    slot.jobId = entry.jobId;
    entry.worker = slot;
    jobs.set(entry.jobId, entry);
    entry.started = performance.now();
    entry.el.classList.add('running');
    entry.refs.verdict.textContent = 'Hashing';
    setProgressText(entry, 'Hashing…');
    slot.worker.postMessage({ type: 'hash', id: entry.jobId, file: entry.file, options: entry.options });
  }
  update();
}

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

function currentOptions() {
  return { gitBlob: ui.gitBlob.checked, reducedRound: ui.reduced.checked };
}

function addFiles(fileList) {
  const files = Array.from(fileList || []);
  if (!files.length) return;
  for (const file of files) {
    const entry = createEntry(file);
    entries.set(entry.id, entry);
    ui.list.append(entry.el);
    enqueue(entry);
  }
  say(`${files.length} file${files.length > 1 ? 's' : ''} added.`);
  schedule();
}

function createEntry(file) {
  const el = /** @type {HTMLLIElement} */ (ui.template.content.firstElementChild.cloneNode(true));
  const id = nextEntryId++;
  const refs = {
    name: el.querySelector('.file-name'),
    size: el.querySelector('.file-size'),
    verdict: el.querySelector('.verdict'),
    bar: el.querySelector('.bar'),
    text: el.querySelector('.progress-text'),
    cancel: el.querySelector('.cancel'),
    digests: el.querySelector('.digests'),
    explain: el.querySelector('.explain'),
  };
  el.dataset.file = file.name;
  el.id = `file-${id}`;
  refs.name.textContent = file.name || '(unnamed file)';
  refs.name.title = file.name;
  refs.name.id = `file-${id}-name`;
  el.setAttribute('aria-labelledby', refs.name.id);
  refs.size.textContent = formatSize(file.size);
  refs.bar.setAttribute('aria-label', `Progress for ${file.name}`);
  refs.cancel.setAttribute('aria-label', `Cancel ${file.name}`);
  const entry = { id, file, el, refs, status: 'pending', jobId: 0, worker: null, options: {}, result: null };
  refs.cancel.addEventListener('click', () => cancel(entry));
  return entry;
}

function enqueue(entry) {
  if (entry.jobId && entry.worker) {
    entry.worker.worker.postMessage({ type: 'cancel', id: entry.jobId });
  }
  const i = waiting.indexOf(entry);
  if (i >= 0) waiting.splice(i, 1);
  entry.jobId = nextJobId++;
  entry.worker = null;
  entry.options = currentOptions();
  entry.result = null;
  entry.status = 'pending';
  const { el, refs } = entry;
  el.dataset.status = 'pending';
  for (const key of ['sha1', 'output', 'block', 'offset', 'dv', 'error', 'mode']) delete el.dataset[key];
  el.dataset.mode = entry.options.gitBlob ? 'git-blob' : 'sha1';
  el.classList.remove('running');
  refs.verdict.textContent = 'Waiting';
  refs.bar.hidden = false;
  refs.bar.max = Math.max(entry.file.size, 1);
  refs.bar.value = 0;
  refs.cancel.hidden = false;
  refs.digests.textContent = '';
  refs.explain.textContent = '';
  setProgressText(entry, engineName ? 'Queued' : 'Waiting for the engine…');
  if (engineBroken) {
    showStopped(entry, 'failed', 'The hashing engine did not load.');
    return;
  }
  waiting.push(entry);
}

function cancel(entry) {
  if (entry.status !== 'pending') return;
  const i = waiting.indexOf(entry);
  if (i >= 0) {
    waiting.splice(i, 1);
    showStopped(entry, 'cancelled', 'Cancelled');
  } else if (entry.worker) {
    const slot = entry.worker;
    const jobId = entry.jobId;
    slot.worker.postMessage({ type: 'cancel', id: jobId });
    setProgressText(entry, 'Cancelling…');
    setTimeout(() => {
      if (slot.jobId !== jobId) return;
      restartWorker(slot);
      if (entry.jobId === jobId) showStopped(entry, 'cancelled', 'Cancelled');
    }, 3000);
  }
}

function rehashAll() {
  for (const entry of entries.values()) enqueue(entry);
  schedule();
}

function clearAll() {
  for (const entry of entries.values()) {
    if (entry.worker && entry.status === 'pending') entry.worker.worker.postMessage({ type: 'cancel', id: entry.jobId });
    entry.jobId = -1;
  }
  waiting.length = 0;
  entries.clear();
  ui.list.textContent = '';
  say('List cleared.');
  update();
}

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

function setProgressText(entry, text) {
  entry.refs.text.textContent = text;
}

function showProgress(entry, done, total, ms) {
  const { bar } = entry.refs;
  bar.value = done;
  const pct = total ? Math.floor((done / total) * 100) : 100;
  entry.el.dataset.progress = String(done);
  setProgressText(entry, `${pct}% · ${formatRate(done, ms)}`);
}

function showResult(entry, result, total, ms) {
  const { el, refs } = entry;
  const git = entry.options.gitBlob;
  const c = result.collision;
  entry.status = c ? 'collision' : 'clean';
  entry.result = result;
  el.classList.remove('running');
  el.dataset.status = entry.status;
  el.dataset.sha1 = result.sha1;
  el.dataset.output = result.hex;
  el.dataset.progress = String(total);
  el.dataset.ms = ms.toFixed(1);
  if (c) {
    el.dataset.block = String(c.block);
    el.dataset.offset = String(c.offset);
    el.dataset.dv = c.dv;
  }
  refs.bar.value = refs.bar.max;
  refs.bar.hidden = true;
  refs.cancel.hidden = true;
  refs.verdict.textContent = c ? 'Collision' : 'Clean';
  setProgressText(entry, `Hashed ${formatSize(total)} in ${formatMs(ms)}${total >= MiB ? ` · ${formatRate(total, ms)}` : ''}`);
  refs.text.hidden = false;

  const rows = refs.digests;
  rows.textContent = '';
  if (c) {
    addDigest(rows, git ? 'Git blob id (plain SHA-1)' : 'SHA-1', result.sha1, entry,
      'Shared with every file forged to collide with this one.');
    addDigest(rows, git ? 'Safe git blob id' : 'Safe hash', result.hex, entry,
      'Differs from the SHA-1, so this file and its twin can be told apart.');
    const end = c.offset + 63;
    addRow(rows, 'Flagged block', `#${c.block} (bytes ${c.offset.toLocaleString('en-US')}–${end.toLocaleString('en-US')})`);
    addRow(rows, 'Disturbance vector', c.dv).className = 'dv';
    if (c.count > 1) addRow(rows, 'Blocks flagged', String(c.count));
    explainCollision(entry, c, git);
  } else {
    addDigest(rows, git ? 'Git blob id' : 'SHA-1', result.hex, entry);
    const p = document.createElement('p');
    p.textContent = git
      ? 'No collision in the git blob id; this is what git hash-object prints. (Git hashes a "blob <size>" ' +
        'header first, which shifts a collision made for plain SHA-1 out of line: turn the toggle off to check the file itself.)'
      : 'No trace of a collision attack: this SHA-1 can be trusted to stand for this file alone.';
    refs.explain.append(p);
  }
  say(`${entry.file.name}: ${c ? `collision detected at block ${c.block}` : 'clean'}.`);
  update();
}

function explainCollision(entry, c, git) {
  const p = document.createElement('p');
  const strong = document.createElement('strong');
  strong.textContent = 'What this means: ';
  p.append(strong,
    `this file contains a block that was computed to cancel out a difference inside SHA\u20111. ` +
    `At block #${c.block}, starting at byte ${c.offset.toLocaleString('en-US')}, the hash's internal state ` +
    `carried the fingerprint of disturbance vector ${c.dv}, the pattern used to build attacks such as ` +
    `SHAttered and SHA-mbles. Someone made this file so that a different file has exactly the same SHA-1. ` +
    `Do not trust the SHA-1 to identify it; use the safe hash instead.`);
  const parts = [p];
  if (git) {
    const q = document.createElement('p');
    q.textContent = 'The trace was found in the git blob (the "blob <size>" header followed by the file), ' +
      'so this collision was built against git itself: two repositories could hold different files under one blob id.';
    parts.push(q);
  }
  entry.refs.explain.append(...parts);
}

function addRow(dl, label, value) {
  const dt = document.createElement('dt');
  dt.textContent = label;
  const dd = document.createElement('dd');
  dd.textContent = value;
  dl.append(dt, dd);
  return dd;
}

function addDigest(dl, label, hex, entry, note) {
  const dd = addRow(dl, label, '');
  const code = document.createElement('code');
  code.className = 'hex';
  code.textContent = hex;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button small copy';
  button.textContent = 'Copy';
  button.setAttribute('aria-label', `Copy ${label} of ${entry.file.name}`);
  button.addEventListener('click', () => copy(hex, code, button, label));
  dd.append(code, button);
  if (note) {
    const small = document.createElement('span');
    small.className = 'note';
    small.textContent = note;
    dd.append(small);
  }
}

function showStopped(entry, reason, message) {
  const { el, refs } = entry;
  entry.status = 'error';
  el.classList.remove('running');
  el.dataset.status = 'error';
  el.dataset.error = reason;
  refs.verdict.textContent = reason === 'cancelled' ? 'Cancelled' : 'Error';
  refs.cancel.hidden = true;
  refs.bar.hidden = true;
  setProgressText(entry, message);
  say(`${entry.file.name}: ${reason === 'cancelled' ? 'cancelled' : `error, ${message}`}.`);
  update();
}

let groupsSignature = '[]';

/** Files with the same SHA-1 but different safe hashes: different content, forged to collide. */
function renderGroups() {
  const bySha = new Map();
  for (const entry of entries.values()) {
    if (!entry.result) continue;
    const key = `${entry.options.gitBlob ? 'g' : 's'}:${entry.result.sha1}`;
    if (!bySha.has(key)) bySha.set(key, []);
    bySha.get(key).push(entry);
  }
  const colliding = [...bySha].filter(([, list]) => new Set(list.map((e) => e.result.hex)).size > 1);
  // Rebuild only on change: the region is aria-live, and a rebuild is read out again.
  const signature = JSON.stringify(colliding.map(([key, list]) => [key, list.map((e) => [e.id, e.result.hex])]));
  if (signature === groupsSignature) return;
  groupsSignature = signature;
  ui.groups.textContent = '';
  for (const [key, list] of colliding) {
    const box = document.createElement('div');
    box.className = 'group';
    box.setAttribute('role', 'note');
    box.dataset.sha1 = key.slice(2);
    box.dataset.files = JSON.stringify(list.map((e) => e.file.name));
    const title = document.createElement('p');
    title.className = 'group-title';
    title.textContent = list.length === 2 ? 'These two files collide' : `These ${list.length} files collide`;
    const names = document.createElement('ul');
    names.className = 'group-files';
    for (const e of list) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = `#${e.el.id}`;
      a.textContent = e.file.name;
      const hex = document.createElement('code');
      hex.className = 'hex';
      hex.textContent = e.result.hex;
      li.append(a, ' — safe hash ', hex);
      names.append(li);
    }
    const why = document.createElement('p');
    const sha = document.createElement('code');
    sha.className = 'hex';
    sha.textContent = key.slice(2);
    why.append(`They have different content but the same ${key[0] === 'g' ? 'git blob id' : 'SHA-1'}, `, sha,
      '. A system that trusts SHA-1 (a signature, a download checksum, a deduplicating store) cannot tell them apart.');
    box.append(title, names, why);
    ui.groups.append(box);
  }
}

function update() {
  let done = 0, collisions = 0, clean = 0, failed = 0, running = 0;
  for (const entry of entries.values()) {
    if (entry.status === 'collision') { collisions++; done++; }
    else if (entry.status === 'clean') { clean++; done++; }
    else if (entry.status === 'error') failed++;
    else running++;
  }
  const total = entries.size;
  let summary = 'No files yet.';
  if (total) {
    const parts = [`${total} file${total > 1 ? 's' : ''}`];
    if (running) parts.push(`${running} in progress`);
    parts.push(`${collisions} collision${collisions === 1 ? '' : 's'}`, `${clean} clean`);
    if (failed) parts.push(`${failed} not checked`);
    summary = parts.join(' · ');
  }
  // Only on change: the summary is aria-live.
  if (ui.summary.textContent !== summary) ui.summary.textContent = summary;
  ui.summary.dataset.running = String(running);
  ui.summary.classList.toggle('alarm', collisions > 0);
  ui.cancelAll.disabled = running === 0;
  ui.clear.disabled = total === 0;
  renderGroups();
}

let announceTimer = 0;
const pendingAnnouncements = [];
function say(text) {
  // Batch announcements so a screen reader hears one sentence per burst, not dozens.
  pendingAnnouncements.push(text);
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => {
    const p = document.createElement('p');
    p.textContent = pendingAnnouncements.splice(0).join(' ');
    ui.announcer.append(p);
    while (ui.announcer.childElementCount > 3) ui.announcer.firstElementChild.remove();
  }, 250);
}

async function copy(text, code, button, label) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch {
    // Clipboard API refused (no permission or no focus): select the text so the user can copy it.
    const range = document.createRange();
    range.selectNodeContents(code);
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    ok = document.execCommand && document.execCommand('copy');
  }
  button.textContent = ok ? 'Copied' : 'Selected';
  button.classList.toggle('done', ok);
  say(ok ? `${label} copied.` : `${label} selected; press Control+C to copy.`);
  setTimeout(() => { button.textContent = 'Copy'; button.classList.remove('done'); }, 1600);
}

// ---------------------------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------------------------

function formatSize(n) {
  if (n < 1024) return `${n} byte${n === 1 ? '' : 's'}`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024, u = 0;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]}`;
}

function formatRate(bytes, ms) {
  if (!(ms > 0)) return '— MiB/s';
  const r = bytes / MiB / (ms / 1000);
  return `${r.toFixed(r < 10 ? 2 : r < 100 ? 1 : 0)} MiB/s`;
}

function formatMs(ms) {
  if (ms < 1) return '< 1 ms';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
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

startPool();
update();
