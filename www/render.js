// Rendering of the checker page: the backend line, the file rows, the summary and the
// screen-reader announcements. All DOM is built with textContent (never innerHTML), so a file
// name cannot inject markup. The texts come from format.js; the state lives in app.js.

import {
  formatSize, progressText, hashedText, verdictText, backendText, loadFailedText, summaryText,
  copiedAnnouncement, digestLabels, PLAIN_NOTE, SAFE_NOTE, blockText, cleanExplanation, MEANING,
  collisionExplanation, GIT_COLLISION_NOTE, QUEUED, WAITING_FOR_MODULE, HASHING, matchText,
  mismatchExplanation, EXPECTED_LABEL, expectedValueText, GIT_BLOB_MODE, GIT_BLOB_MODE_TITLE,
  problemCount, isProblem, noProblemsText, burstAnnouncement,
} from './format.js';

/**
 * A file on the page and its row: the list item (`refs.row`), and in it the card (`el`) whose
 * data attributes and classes say the file's state.
 * @typedef {{ id: number, file: File, name: string, el: HTMLDivElement, refs: Refs, status: Status,
 *   jobId: number, options: { gitBlob: boolean, reducedRound: boolean }, result: object | null,
 *   total: number, ms: number, cmp: import('./expected.js').Comparison | null,
 *   timeLeft: import('./remaining.js').TimeLeft | null }} Entry
 *   `total` and `ms`: the bytes hashed and the time taken, once there is a result
 * @typedef {'pending' | 'clean' | 'collision' | 'mismatch' | 'cancelled' | 'error'} Status
 * @typedef {{ row: HTMLLIElement, name: HTMLElement, size: HTMLElement, mode: HTMLElement, verdict: HTMLElement,
 *   match: HTMLElement, bar: HTMLProgressElement, text: HTMLElement, cancel: HTMLButtonElement,
 *   digests: HTMLDListElement, explain: HTMLElement }} Refs
 */

// ---------------------------------------------------------------------------------------------
// The backend line
// ---------------------------------------------------------------------------------------------

export function showBackend(el, backend, workers) {
  el.dataset.backend = backend;
  el.textContent = '';
  const strong = document.createElement('strong');
  strong.textContent = backend;
  el.append('Backend: ', strong, backendText(workers));
  el.classList.add('ok');
}

export function showLoadFailed(el, reason) {
  el.textContent = loadFailedText(reason);
  el.classList.add('bad');
}

// ---------------------------------------------------------------------------------------------
// File rows
// ---------------------------------------------------------------------------------------------

/**
 * A new row for a file (`name`: its path inside a folder, or its name), cloned from the page's
 * template. The list item is only a frame that the browser may leave unstyled while it is off
 * screen (`content-visibility`); what changes as the file is hashed is the card inside it, so
 * that a folder's thousands of verdicts do not each restyle a frame.
 */
export function createRow(template, id, file, name = file.name) {
  const row = /** @type {HTMLLIElement} */ (template.content.firstElementChild.cloneNode(true));
  const el = /** @type {HTMLDivElement} */ (row.querySelector('.file'));
  const refs = {
    row,
    name: el.querySelector('.file-name'),
    size: el.querySelector('.file-size'),
    mode: el.querySelector('.mode'),
    verdict: el.querySelector('.verdict'),
    bar: el.querySelector('.bar'),
    text: el.querySelector('.progress-text'),
    cancel: el.querySelector('.cancel'),
    digests: el.querySelector('.digests'),
    explain: el.querySelector('.explain'),
    match: el.querySelector('.match'),
  };
  el.dataset.file = name;
  row.id = `file-${id}`;
  refs.name.textContent = name || '(unnamed file)';
  refs.name.title = name;
  refs.name.id = `file-${id}-name`;
  row.setAttribute('aria-labelledby', refs.name.id);
  refs.size.textContent = formatSize(file.size);
  refs.bar.setAttribute('aria-label', `Progress for ${name}`);
  refs.cancel.setAttribute('aria-label', `Cancel ${name}`);
  refs.mode.textContent = GIT_BLOB_MODE;
  refs.mode.title = GIT_BLOB_MODE_TITLE;
  return { el, refs };
}

/**
 * The card's status; the row is marked only when it becomes or stops being a problem (what
 * "Show only problems" keeps), so that a file found clean leaves its frame as it was.
 */
function setStatus(entry) {
  entry.el.dataset.status = entry.status;
  const problem = isProblem(entry.status);
  if (entry.refs.row.classList.contains('problem') !== problem) entry.refs.row.classList.toggle('problem', problem);
}

/**
 * The comparison with the expected hash beside the verdict (entry.cmp, from compareExpected);
 * none when nothing was pasted, or when the verdict itself says Mismatch.
 */
export function showMatch(entry) {
  const { el, refs, cmp } = entry;
  if (cmp) el.dataset.match = cmp.match;
  else delete el.dataset.match;
  refs.match.hidden = !cmp || entry.status === 'mismatch';
  refs.match.textContent = cmp ? matchText(cmp) : '';
}

/** Back to a fresh, queued row (a new file, or a file hashed again with other options). */
export function showQueued(entry, moduleReady) {
  const { el, refs } = entry;
  setStatus(entry);
  for (const key of ['sha1', 'output', 'block', 'offset', 'dv', 'error', 'mode']) delete el.dataset[key];
  el.dataset.mode = entry.options.gitBlob ? 'git-blob' : 'sha1';
  refs.mode.hidden = !entry.options.gitBlob;
  el.classList.remove('running');
  refs.verdict.textContent = verdictText('pending');
  refs.bar.hidden = false;
  refs.bar.max = Math.max(entry.file.size, 1);
  refs.bar.value = 0;
  refs.cancel.hidden = false;
  refs.digests.textContent = '';
  refs.explain.textContent = '';
  setProgressText(entry, moduleReady ? QUEUED : WAITING_FOR_MODULE);
}

/** A worker has taken the file. */
export function showHashing(entry) {
  entry.el.classList.add('running');
  entry.refs.verdict.textContent = verdictText('running');
  setProgressText(entry, HASHING);
}

export function setProgressText(entry, text) {
  entry.refs.text.textContent = text;
}

export function showProgress(entry, done, total, ms, secondsLeft) {
  entry.refs.bar.value = done;
  entry.el.dataset.progress = String(done);
  setProgressText(entry, progressText(done, total, ms, secondsLeft));
}

/**
 * The verdict, the digests with copy buttons, the expected hash beside them when it differs,
 * and what it means; again whenever the status or the comparison changes.
 */
export function showResult(entry, say) {
  const { el, refs, result } = entry;
  const c = result.collision;
  el.classList.remove('running');
  setStatus(entry);
  el.dataset.sha1 = result.sha1;
  el.dataset.output = result.hex;
  el.dataset.progress = String(entry.total);
  el.dataset.ms = entry.ms.toFixed(1);
  if (c) {
    el.dataset.block = String(c.block);
    el.dataset.offset = String(c.offset);
    el.dataset.dv = c.dv;
  }
  refs.bar.value = refs.bar.max;
  refs.bar.hidden = true;
  refs.cancel.hidden = true;
  refs.verdict.textContent = verdictText(entry.status);
  setProgressText(entry, hashedText(entry.total, entry.ms));
  refs.text.hidden = false;
  showDigests(entry, say);
  showExplanation(entry);
  showMatch(entry);
}

function showDigests(entry, say) {
  const { refs, result, cmp } = entry;
  const c = result.collision;
  const rows = refs.digests;
  rows.textContent = '';
  const labels = digestLabels(entry.options.gitBlob, Boolean(c));
  if (c) {
    addDigest(rows, labels.plain, result.sha1, entry, say, PLAIN_NOTE);
    addDigest(rows, labels.safe, result.hex, entry, say, SAFE_NOTE);
  } else {
    addDigest(rows, labels.safe, result.hex, entry, say);
  }
  // Side by side with the file's own, where they differ.
  if (cmp && !cmp.equal && cmp.expected.length) {
    const dd = addRow(rows, EXPECTED_LABEL, '');
    const value = expectedValueText(cmp.expected);
    dd.append(cmp.expected.length === 1 ? hexCode(value) : value);
    dd.className = 'expected-value';
  }
  if (c) {
    addRow(rows, 'Flagged block', blockText(c));
    addRow(rows, 'Disturbance vector', c.dv).className = 'dv';
    if (c.count > 1) addRow(rows, 'Blocks flagged', String(c.count));
  }
}

function showExplanation(entry) {
  const { refs, result } = entry;
  const git = entry.options.gitBlob;
  refs.explain.textContent = '';
  if (entry.status === 'collision') {
    const p = document.createElement('p');
    const strong = document.createElement('strong');
    strong.textContent = MEANING;
    p.append(strong, collisionExplanation(result.collision));
    refs.explain.append(p);
    if (git) refs.explain.append(paragraph(GIT_COLLISION_NOTE));
  } else if (entry.status === 'mismatch') {
    refs.explain.append(paragraph(mismatchExplanation(git)));
  } else {
    refs.explain.append(paragraph(cleanExplanation(git)));
  }
}

/** A file that will not get a verdict: cancelled, or failed with `message`. */
export function showStopped(entry, message) {
  const { el, refs } = entry;
  el.classList.remove('running');
  setStatus(entry);
  if (entry.status === 'error') el.dataset.error = 'failed';
  else delete el.dataset.error;
  refs.verdict.textContent = verdictText(entry.status);
  refs.cancel.hidden = true;
  refs.bar.hidden = true;
  setProgressText(entry, message);
}

function paragraph(text) {
  const p = document.createElement('p');
  p.textContent = text;
  return p;
}

function addRow(dl, label, value) {
  const dt = document.createElement('dt');
  dt.textContent = label;
  const dd = document.createElement('dd');
  dd.textContent = value;
  dl.append(dt, dd);
  return dd;
}

/** A digest as the page shows one: monospace, in a <code class="hex">. */
export function hexCode(hex) {
  const code = document.createElement('code');
  code.className = 'hex';
  code.textContent = hex;
  return code;
}

function addDigest(dl, label, hex, entry, say, note) {
  const dd = addRow(dl, label, '');
  const code = hexCode(hex);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button small copy';
  button.textContent = 'Copy';
  button.setAttribute('aria-label', `Copy ${label} of ${entry.name}`);
  button.addEventListener('click', () => copy(hex, code, button, label, say));
  dd.append(code, button);
  if (note) {
    const small = document.createElement('span');
    small.className = 'note';
    small.textContent = note;
    dd.append(small);
  }
}

async function copy(text, code, button, label, say) {
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
  say(copiedAnnouncement(label, ok));
  setTimeout(() => { button.textContent = 'Copy'; button.classList.remove('done'); }, 1600);
}

// ---------------------------------------------------------------------------------------------
// Summary and announcements
// ---------------------------------------------------------------------------------------------

/**
 * The summary line, the problems filter and the buttons that depend on them, from a tally() of
 * the statuses; `compared`: expected hashes are pasted.
 */
export function showSummary(ui, t, compared) {
  const summary = summaryText(t, compared);
  // Only on change: the summary is aria-live.
  if (ui.summary.textContent !== summary) ui.summary.textContent = summary;
  ui.summary.dataset.running = String(t.running);
  ui.summary.classList.toggle('alarm', t.collisions + t.mismatches > 0);
  ui.cancelAll.disabled = t.running === 0;
  ui.clear.disabled = t.total === 0;
  const only = ui.onlyProblems.checked;
  ui.list.classList.toggle('problems-only', only);
  ui.noProblems.hidden = !(only && t.total > 0 && problemCount(t) === 0);
  if (!ui.noProblems.hidden) ui.noProblems.textContent = noProblemsText(t);
}

/**
 * Returns say(text, routine) for an aria-live element. Announcements are batched so a screen
 * reader hears one sentence per burst, not dozens; a long burst keeps what is not routine and
 * counts the rest (burstAnnouncement).
 */
export function announcer(el) {
  let timer = 0;
  /** @type {{ text: string, routine: boolean }[]} */
  const pending = [];
  return function say(text, routine = false) {
    pending.push({ text, routine });
    clearTimeout(timer);
    timer = setTimeout(() => {
      el.append(paragraph(burstAnnouncement(pending.splice(0))));
      while (el.childElementCount > 3) el.firstElementChild.remove();
    }, 250);
  };
}
