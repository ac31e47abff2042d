// Repositories, packs and bundles dropped on the checker page: every object checked by
// git-sha1dc's verifier (the package's sha1dc-wasm/git, in WebAssembly) on workers, each an
// instance of its own (git-worker.js), sharing the work as `git-sha1dc -j N` does. The page shows
// the progress (objects and bytes, time left), a table of the collisions found, the damage in
// plain words, a Cancel button, and saves git-sha1dc's JSON document (with the content check:
// `git-sha1dc --content --json`). Everything else dropped is checked as files, as before.
// app.js hands every drop to takeGit(); the rest of this module is its own.

import { formatNumber, formatSize, plural, timeLeftText } from './format.js';
import { TimeLeft } from './remaining.js';

/** Verifying workers: one per core, at most four (`?git-workers=N` in the address to compare). */
const WORKERS = Math.max(1, Math.min(Number(new URLSearchParams(globalThis.location?.search).get('git-workers')) ||
  globalThis.navigator?.hardwareConcurrency || 2, 4));
/**
 * The verifying workers' memory for a pack's bytes together (git-worker.js), in bytes: the
 * entries each reads ahead of its walk, in a few large reads, and a cache of blocks for the
 * reads left (entries beyond that, bases made again).
 */
const READ_AHEAD_BYTES = 256 << 20;
const CACHE_BYTES = 16 << 20;
/** How often the progress is redrawn while a check runs, in milliseconds. */
const TICK_MS = 250;

// ---------------------------------------------------------------------------------------------
// What a drop holds
// ---------------------------------------------------------------------------------------------

const dirOf = (path) => path.slice(0, Math.max(0, path.lastIndexOf('/')));
const baseOf = (path) => path.slice(path.lastIndexOf('/') + 1);

/**
 * Splits dropped files ({ file, path }) into what git-sha1dc verifies and the rest. A git
 * directory (a work tree's `.git`, a dropped `.git` folder, a bare repository) is a dropped or
 * picked folder, or one inside it, with a `HEAD` file and files under `objects/`; all its files
 * go to the verifier, named by the folder. A `.pack` outside one whose first bytes say PACK goes with its `.idx` (when dropped
 * beside it); a `.bundle` whose first line says it is a git bundle. `head(item)` resolves to an
 * item's first bytes as text (only `.pack` and `.bundle` files are asked).
 * Resolves to { paths, entries: [path, Blob][], rest: items }.
 */
export async function partition(items, head) {
  const all = new Set(items.map((i) => i.path));
  const gitDirs = items
    .filter((i) => baseOf(i.path) === 'HEAD')
    .map((i) => dirOf(i.path))
    .filter((d) => d && items.some((i) => i.path.startsWith(`${d}/objects/`)));
  const inGitDir = (p) => gitDirs.some((d) => p.startsWith(`${d}/`));
  const paths = [...gitDirs];
  const taken = new Set(items.filter((i) => inGitDir(i.path)).map((i) => i.path));
  for (const item of items) {
    if (taken.has(item.path)) continue;
    const p = item.path;
    if (/\.pack$/.test(p) && (await head(item)).startsWith('PACK')) {
      paths.push(p);
      taken.add(p);
      const idx = p.replace(/\.pack$/, '.idx');
      if (all.has(idx)) taken.add(idx);
    } else if (/\.bundle$/.test(p) && /^# v[23] git bundle\n/.test(await head(item))) {
      paths.push(p);
      taken.add(p);
    }
  }
  return {
    paths,
    entries: items.filter((i) => taken.has(i.path)).map((i) => [i.path, i.file]),
    rest: items.filter((i) => !taken.has(i.path)),
  };
}

const firstBytes = async ({ file }) => new TextDecoder('latin1').decode(await file.slice(0, 16).arrayBuffer());

/**
 * Takes a drop's files (File objects or { file, path }, as filesFromDrop gives them), starts a
 * check of the repositories, packs and bundles among them (with the content check unless
 * `content` is false: `git-sha1dc` with or without `--content`), and resolves to the drop with
 * only the files left to hash one by one.
 */
export async function takeGit(drop, { content = true } = {}) {
  const items = Array.from(drop.files || []).map((f) => (f instanceof Blob ? { file: f, path: f.webkitRelativePath || f.name } : f));
  const { paths, entries, rest } = await partition(items, firstBytes);
  if (paths.length) new GitCheck(paths, entries, content).start();
  return { ...drop, files: rest };
}

// ---------------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------------

/** Which check found a collision, in words. */
export function checkText(check) {
  return check === 'content' ? 'content (the blob as a file)' : 'object (as git hashes it)';
}

/** A damage object of git-sha1dc's JSON, in a sentence. */
export function damageText(d) {
  const where = [d.offset === null ? null : `the entry at byte ${formatNumber(d.offset)}`, d.id ? `object ${d.id}` : null].filter(Boolean).join(', ');
  return `${d.file.replace(/^\//, '')}${where ? `, ${where}` : ''}: ${d.message}.`;
}

/** The verdict of a finished check (with the content check unless `content` is false), and a sentence on what it means. */
export function verdictOf(report, { content = true } = {}) {
  const { findings, damage } = report;
  const objectHits = findings.filter((f) => f.check === 'object').length;
  if (findings.length) {
    const why = objectHits
      ? 'Objects marked "object" were made to collide as git hashes them: git with collision detection refuses them, and another object may share their id.'
      : 'The blobs listed are, as files, halves of a SHA-1 collision (such as the SHAttered PDFs): git stores them safely under their own ids, but the files themselves are collision material.';
    const also = damage.length ? ` Parts of it are also damaged: ${plural(damage.length, 'problem')} below; what they hide was not checked.` : '';
    return { status: 'collision', title: `${plural(findings.length, 'collision')} found`, why: why + also };
  }
  if (damage.length) {
    return {
      status: 'damaged',
      title: 'Damaged',
      why: `No collision in what could be read, but ${plural(damage.length, 'problem')} kept parts from being checked: a damaged or cut-short pack, an index that is not the pack's, or a delta that cannot be rebuilt. Git would refuse these too.`,
    };
  }
  return {
    status: 'clean',
    title: 'Clean',
    why: content
      ? 'No object carries the trace of a known SHA-1 collision attack, neither as git hashes it nor, for blobs, as a file.'
      : 'No object carries the trace of a known SHA-1 collision attack as git hashes it (blobs were not checked as files).',
  };
}

/** "12,345 of 849,014 objects · 120 MiB · 8 s · about 30 s left". */
export function gitProgressText(p, ms, secondsLeft) {
  const of = p.total ? ` of ${formatNumber(p.total)}` : '';
  const left = secondsLeft === null ? '' : ` · ${timeLeftText(secondsLeft)}`;
  return `${formatNumber(p.objects)}${of} objects · ${formatSize(p.bytes)} · ${Math.floor(ms / 1000)} s${left}`;
}

// ---------------------------------------------------------------------------------------------
// A check on the page
// ---------------------------------------------------------------------------------------------

let compiled = null;
/** The verifier's module, compiled once; each worker instantiates it. */
function compile() {
  compiled ??= (async () => {
    const response = await fetch(new URL('./pkg/wasm/gitverify_bg.wasm', import.meta.url));
    return WebAssembly.compile(await response.arrayBuffer());
  })();
  return compiled;
}

const el = (tag, props = {}, ...children) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
};

/** The section above the file list that holds the checks. */
function container() {
  let box = document.querySelector('#git-checks');
  if (!box) {
    box = el('section', { id: 'git-checks', className: 'git-checks' });
    box.setAttribute('aria-label', 'Repositories, packs and bundles');
    const results = document.querySelector('section.results');
    results.parentNode.insertBefore(box, results);
  }
  return box;
}

class GitCheck {
  constructor(paths, entries, content) {
    this.paths = paths;
    this.entries = entries;
    this.content = content;
    this.args = [...(content ? ['--content'] : []), '--', ...paths];
    this.progress = { objects: 0, total: 0, bytes: 0 };
    this.findings = [];
    this.damage = [];
    this.workers = [];
    this.reporter = null;
    this.running = 0;
    this.timeLeft = new TimeLeft();
    this.render();
  }

  render() {
    const r = (this.refs = {});
    r.verdict = el('span', { className: 'verdict', textContent: 'Checking' });
    r.bar = el('progress', { className: 'bar', max: 1, value: 0 });
    r.text = el('span', { className: 'progress-text' });
    r.cancel = el('button', { type: 'button', className: 'button small cancel', textContent: 'Cancel' });
    r.cancel.addEventListener('click', () => this.stop('cancelled', 'Cancelled: the objects checked so far are counted above; the rest were not checked.'));
    r.save = el('button', { type: 'button', className: 'button small', textContent: 'Save as JSON', hidden: true });
    r.save.addEventListener('click', () => this.save());
    r.why = el('p', { className: 'git-why' });
    r.notes = el('ul', { className: 'git-notes' });
    r.rows = el('tbody');
    r.table = el('table', { className: 'git-findings', hidden: true },
      el('caption', { textContent: 'Collisions found' }),
      el('thead', {}, el('tr', {}, ...['Object', 'Kind', 'Size', 'Block offset', 'Disturbance vector', 'Found by', 'File']
        .map((h) => el('th', { scope: 'col', textContent: h })))),
      r.rows);
    r.damage = el('ul', { className: 'git-damage', hidden: true });
    r.damageHead = el('h4', { textContent: 'Damage', hidden: true });
    const names = this.paths.map((p) => p.replace(/\/$/, '')).join(', ');
    this.root = el('article', { className: 'git-run' },
      el('div', { className: 'file-head' }, el('h3', { className: 'file-name', textContent: names }),
        el('span', { className: 'mode', textContent: 'git objects' }), r.verdict),
      el('div', { className: 'progress-row' }, r.bar, r.text, r.cancel, r.save),
      r.why, r.notes, r.table, r.damageHead, r.damage);
    this.root.dataset.status = 'pending';
    container().append(this.root);
  }

  async start() {
    this.t0 = performance.now();
    this.tick = setInterval(() => this.show(), TICK_MS);
    this.show();
    try {
      const module = await compile();
      const start = { kind: 'start', module, args: this.args, entries: this.entries };
      const url = new URL('./git-worker.js', import.meta.url);
      this.reporter = new Worker(url, { type: 'module' });
      this.reporter.onmessage = ({ data }) => this.fromReporter(data);
      this.reporter.onerror = (e) => this.fail(e.message);
      this.reporter.postMessage({ ...start, role: 'report' });
      for (let part = 0; part < WORKERS; part++) {
        const w = new Worker(url, { type: 'module' });
        w.onmessage = ({ data }) => this.fromVerifier(data);
        w.onerror = (e) => this.fail(e.message);
        w.postMessage({ ...start, role: 'verify', part, parts: WORKERS, cacheBytes: CACHE_BYTES / WORKERS, gather: READ_AHEAD_BYTES / WORKERS });
        this.workers.push(w);
      }
      this.running = WORKERS;
    } catch (e) {
      this.fail(String((e && e.message) || e));
    }
  }

  fromVerifier(e) {
    if (this.root.dataset.status !== 'pending') return;
    if (e.kind === 'error') return this.fail(e.message);
    if (e.kind === 'end') {
      if (--this.running === 0) this.reporter.postMessage({ kind: 'finish' });
      return;
    }
    this.reporter.postMessage({ kind: 'event', event: e });
    if (e.kind === 'source') this.progress.total += e.objects;
    else if (e.kind === 'verified') {
      this.progress.objects += e.objects;
      this.progress.bytes += e.bytes;
    } else if (e.kind === 'finding') this.addFinding(e);
    else if (e.kind === 'damage') this.addDamage(e);
  }

  fromReporter(e) {
    if (this.root.dataset.status !== 'pending') return;
    if (e.kind === 'error') return this.fail(e.message);
    if (e.kind === 'planned') {
      for (const note of e.notes) this.refs.notes.append(el('li', { textContent: note.replace(/^git-sha1dc: /, '') }));
    } else if (e.kind === 'document') {
      this.done(e);
    }
  }

  addFinding(f) {
    const r = this.refs;
    r.table.hidden = false;
    r.rows.append(el('tr', {},
      el('td', {}, el('code', { textContent: f.id })),
      el('td', { textContent: f.type }),
      el('td', { textContent: formatNumber(f.size) }),
      el('td', { textContent: formatNumber(f.offset) }),
      el('td', { textContent: f.dv }),
      el('td', { textContent: checkText(f.check) }),
      el('td', { textContent: f.file.replace(/^\//, '') + (f.pack_offset === null ? '' : ` @ ${formatNumber(f.pack_offset)}`) })));
  }

  addDamage(d) {
    this.refs.damage.hidden = this.refs.damageHead.hidden = false;
    this.refs.damage.append(el('li', { textContent: damageText(d) }));
  }

  /** Redraws the progress: objects and bytes, elapsed time, time left. */
  show() {
    const p = this.progress;
    const ms = performance.now() - this.t0;
    const left = p.total ? this.timeLeft.update(p.objects, p.total, ms) : null;
    if (p.total) {
      this.refs.bar.max = p.total;
      this.refs.bar.value = p.objects;
    } else {
      this.refs.bar.removeAttribute('value');
    }
    this.refs.text.textContent = gitProgressText(p, ms, this.root.dataset.status === 'pending' ? left : null);
    Object.assign(this.root.dataset, { objects: p.objects, total: p.total, bytes: p.bytes });
  }

  /** The run's JSON document: the table and the damage are redrawn from it, in its order. */
  done({ json, summary, exitCode }) {
    const report = JSON.parse(json);
    this.json = json;
    this.progress.objects = report.objects.total;
    const v = verdictOf(report, { content: this.content });
    this.finish(v.status);
    const r = this.refs;
    r.rows.textContent = '';
    r.damage.textContent = '';
    report.findings.forEach((f) => this.addFinding(f));
    report.damage.forEach((d) => this.addDamage(d));
    r.verdict.textContent = v.title;
    const counts = summary.replace(/^git-sha1dc: /, '');
    r.why.textContent = `${v.why} ${counts.charAt(0).toUpperCase()}${counts.slice(1)}.`;
    r.save.hidden = false;
    this.root.dataset.exit = exitCode;
  }

  finish(status) {
    clearInterval(this.tick);
    this.show();
    this.root.dataset.status = status;
    this.refs.cancel.hidden = true;
    for (const w of [...this.workers, this.reporter]) w?.terminate();
    this.workers = [];
    this.reporter = null;
  }

  stop(status, message) {
    if (this.root.dataset.status !== 'pending') return;
    this.finish(status);
    this.refs.verdict.textContent = status === 'cancelled' ? 'Cancelled' : 'Error';
    this.refs.why.textContent = message;
  }

  fail(message) {
    this.stop('error', `The check stopped: ${message}`);
  }

  save() {
    // What `git-sha1dc [--content] --json` prints, newline included.
    const url = URL.createObjectURL(new Blob([`${this.json}\n`], { type: 'application/json' }));
    const a = el('a', { href: url, download: 'git-sha1dc.json', hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
