// The checker page's folders, expected-hash comparison, export, offline reload and
// accessibility, in headless Chromium. Each test opens a fresh page (a fresh context where
// the service worker or the colour scheme matters).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, DATA, launchChromium, sha1 } from '../shared.mjs';
import {
  WWW, serve, rows, waitAllDone, dropFiles, manifest, expectedDetection, openChecker, pasteExpected,
  ensureOut, reloadOffline,
} from './helpers.mjs';
import { BATCH_FILE_MAX } from '../../www/pool.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server, browser, url, origin, tmp;

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'sha1dc-page-'));
  const started = await serve();
  server = started.server;
  url = started.url;
  origin = new URL(url).origin;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** A fresh context and page on the checker, module loaded. */
const open = (options) => openChecker(browser, url, options);

/**
 * Drops what Chromium's DataTransfer holds for a dropped folder: `files` lists the folder
 * itself as a File (4096 bytes on Linux, unreadable), and `items` give FileSystemEntry objects
 * to walk. `tree` is { name: bytes | subtree }. The entries are plain objects with the methods
 * the page uses (a real drop of a folder cannot be scripted), read in batches of 2 like
 * readEntries' own batches.
 */
async function dropTree(page, tree) {
  const encode = (t) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Buffer.isBuffer(v) || v instanceof Uint8Array ? { b64: Buffer.from(v).toString('base64') } : encode(v)]));
  await page.evaluate((tree) => {
    const decode = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const entry = (name, node, path) => {
      const fullPath = `${path}/${name}`;
      if (node.b64 !== undefined) {
        const file = new File([decode(node.b64)], name);
        return { isFile: true, isDirectory: false, name, fullPath, file: (ok) => setTimeout(() => ok(file)) };
      }
      const kids = Object.entries(node).map(([n, v]) => entry(n, v, fullPath));
      return {
        isFile: false, isDirectory: true, name, fullPath,
        createReader() {
          let at = 0;
          return { readEntries: (ok) => setTimeout(() => { ok(kids.slice(at, at + 2)); at += 2; }) };
        },
      };
    };
    const tops = Object.entries(tree).map(([n, v]) => entry(n, v, ''));
    const dt = {
      types: ['Files'],
      files: tops.map((e) => (e.isDirectory ? new File([new Uint8Array(4096)], e.name) : null)).filter(Boolean),
      items: tops.map((e) => ({ kind: 'file', webkitGetAsEntry: () => e, getAsFile: () => null })),
    };
    for (const type of ['dragenter', 'dragover', 'drop']) {
      const ev = new DragEvent(type, { bubbles: true, cancelable: true });
      Object.defineProperty(ev, 'dataTransfer', { value: dt });
      document.querySelector('#dropzone').dispatchEvent(ev);
    }
  }, encode(tree));
}

/**
 * A tree { batch: { clean: { f000.bin... } } } of `n` small random files (0 to 20 KiB, the edges
 * of a block among them), and `want`: for each path in the page, what its row must say.
 */
function smallTree(n) {
  const want = new Map();
  const tree = { batch: { clean: {}, colliding: {} } };
  let seed = 7;
  const next = (m) => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed % m;
  };
  for (let i = 0; i < n; i++) {
    const bytes = randomBytes(i % 20 === 0 ? [0, 1, 55, 64, 65][i / 20 % 5] : next(20 * 1024 + 1));
    const name = `f${String(i).padStart(3, '0')}.bin`;
    tree.batch.clean[name] = bytes;
    want.set(`batch/clean/${name}`, { status: 'clean', sha1: sha1(bytes), output: sha1(bytes) });
  }
  return { tree, want };
}

describe('folders', () => {
  it('a dropped folder is walked: every file checked, with its path, never the folder as a file', async () => {
    const { context, page, seen } = await open();
    const a = randomBytes(3000);
    const b = randomBytes(70_000);
    const c = readFileSync(join(DATA, 'shattered-1.pdf'));
    const d = randomBytes(10);
    const e = randomBytes(0);
    await dropTree(page, { downloads: { 'a.bin': a, sub: { 'b.bin': b, 'shattered-1.pdf': c, deeper: { 'd.txt': d } }, 'e.empty': e } });
    await page.waitForFunction(() => document.querySelectorAll('#results .file').length === 5, null, { timeout: 10_000 });
    await waitAllDone(page);
    const got = Object.fromEntries((await rows(page)).map((r) => [r.file, r]));
    assert.deepEqual(Object.keys(got).sort(), ['downloads/a.bin', 'downloads/e.empty', 'downloads/sub/b.bin', 'downloads/sub/deeper/d.txt', 'downloads/sub/shattered-1.pdf']);
    assert.equal(got['downloads/a.bin'].sha1, sha1(a));
    assert.equal(got['downloads/sub/b.bin'].sha1, sha1(b));
    assert.equal(got['downloads/sub/deeper/d.txt'].sha1, sha1(d));
    assert.equal(got['downloads/e.empty'].sha1, sha1(e));
    assert.equal(got['downloads/sub/shattered-1.pdf'].status, 'collision');
    assert.ok(Object.values(got).every((r) => r.status !== 'error'), 'no row for the folder itself, no error');
    assert.match(await page.locator('#results .file').first().locator('.file-name').textContent(), /^downloads\/a\.bin$/);
    assert.deepEqual(seen.problems, []);
    await context.close();
  });

  it('a dropped folder of many small files is hashed in batches: every row against known digests, SHAttered flagged', async () => {
    const { context, page, seen } = await open();
    const { tree, want } = smallTree(240);
    for (const name of ['shattered-1.pdf', 'shattered-2.pdf', 'sha-mbles-1.bin']) {
      tree.batch.colliding[name] = readFileSync(join(DATA, name));
      const row = manifest(name);
      const det = expectedDetection(row);
      want.set(`batch/colliding/${name}`, { status: 'collision', sha1: row.sha1_plain_hex, output: row.sha1dc_output_hex, block: String(det.block), offset: String(det.offset), dv: det.dv });
    }
    // Larger than a batch takes: streamed, as before.
    const large = randomBytes(BATCH_FILE_MAX + 4096);
    tree.batch['large.bin'] = large;
    want.set('batch/large.bin', { status: 'clean', sha1: sha1(large), output: sha1(large) });
    // A file the worker cannot read, in a batch: its row says so, the others go on.
    tree.batch.clean['unreadable.bin'] = randomBytes(100);
    const poolSize = await page.evaluate(() => Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 4)));
    for (let i = 0; i < 100 && page.workers().length < poolSize; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(page.workers().length, poolSize, 'every hashing worker is up');
    for (const worker of page.workers()) {
      await worker.evaluate(() => {
        const read = Blob.prototype.arrayBuffer;
        Blob.prototype.arrayBuffer = function () {
          return this.name === 'unreadable.bin' ? Promise.reject(new DOMException('gone', 'NotReadableError')) : read.call(this);
        };
      });
    }
    await dropTree(page, tree);
    await page.waitForFunction((n) => document.querySelectorAll('#results .file').length === n, want.size + 1, { timeout: 20_000 });
    await waitAllDone(page, 120_000);
    const got = await rows(page);
    assert.equal(got.length, want.size + 1);
    for (const row of got) {
      if (row.file === 'batch/clean/unreadable.bin') {
        assert.equal(row.status, 'error');
        assert.match(await page.locator('#results .file[data-file="batch/clean/unreadable.bin"] .progress-text').textContent(), /could not be read/);
        continue;
      }
      const w = want.get(row.file);
      assert.ok(w, `unexpected row ${row.file}`);
      const { status, sha1: s1, output, block, offset, dv } = row;
      assert.deepEqual({ status, sha1: s1, output, ...(block === undefined ? {} : { block, offset, dv }) }, w, row.file);
    }
    assert.match(await page.textContent('#summary'), /3 collisions/);
    const first = page.locator('#results .file[data-file="batch/colliding/shattered-1.pdf"]');
    assert.match(await first.locator('.explain').textContent(), /block #4.*byte 256.*II\(52,0\)/s);
    // The small files went through sha1dcMany in batches, the large one was streamed.
    const stats = (await Promise.all(page.workers().map((w) => w.evaluate(() => self.sha1dcStats ?? null)))).filter(Boolean);
    const sum = (key) => stats.reduce((n, x) => n + x[key], 0);
    assert.equal(sum('batchedFiles'), want.size - 1, JSON.stringify(stats));
    assert.equal(sum('streamedFiles'), 1, JSON.stringify(stats));
    assert.ok(sum('batches') <= want.size / 8, `${sum('batches')} batches for ${want.size} files`);
    assert.deepEqual(seen.problems, []);
    await context.close();
  });

  it('a picked folder (webkitdirectory): every file, with its relative path', async () => {
    const dir = join(tmp, 'picked');
    mkdirSync(join(dir, 'inner'), { recursive: true });
    const x = randomBytes(5000);
    const y = randomBytes(100);
    writeFileSync(join(dir, 'x.bin'), x);
    writeFileSync(join(dir, 'inner', 'y.bin'), y);
    const { context, page } = await open();
    assert.equal(await page.getAttribute('#folder', 'webkitdirectory'), '');
    await page.setInputFiles('#folder', dir);
    await waitAllDone(page);
    const got = Object.fromEntries((await rows(page)).map((r) => [r.file, r.sha1]));
    assert.deepEqual(got, { 'picked/x.bin': sha1(x), 'picked/inner/y.bin': sha1(y) });
    await context.close();
  });

  it('says so where the browser gives no access to a dropped folder', async () => {
    const { context, page } = await open();
    // A browser without webkitGetAsEntry: only the unreadable folder File.
    await page.evaluate(() => {
      const dt = { types: ['Files'], files: [new File([new Uint8Array(4096)], 'photos')], items: [{ kind: 'file', getAsFile: () => null }] };
      // Reading it fails the way a folder's File does.
      const refuse = () => Promise.reject(new DOMException('folder', 'NotReadableError'));
      Object.defineProperty(dt.files[0], 'slice', { value: () => ({ arrayBuffer: refuse, text: refuse }) });
      Object.defineProperty(dt.files[0], 'arrayBuffer', { value: refuse });
      const ev = new DragEvent('drop', { bubbles: true, cancelable: true });
      Object.defineProperty(ev, 'dataTransfer', { value: dt });
      document.querySelector('#dropzone').dispatchEvent(ev);
    });
    await page.waitForSelector('#drop-note:not([hidden])', { timeout: 5000 });
    assert.match(await page.textContent('#drop-note'), /folder.*Choose a folder/i);
    await context.close();
  });
});

describe('accessibility', () => {
  it('keyboard focus stays on the page after Cancel, Cancel all and Clear list', async () => {
    const { context, page } = await open();
    // Files big enough to be cancelled while hashed (on two workers, on a busy machine); the
    // workers' cancel is acknowledged.
    const big = Buffer.alloc(256 * 1024 * 1024, 7);
    const path = join(tmp, 'big.bin');
    writeFileSync(path, big);
    await page.setInputFiles('#files', [path]);
    await page.waitForFunction(() => Number(document.querySelector('#results .file')?.dataset.progress) > 0, null, { timeout: 20_000, polling: 10 });
    await page.focus('#results .file button.cancel');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#results .file').dataset.status === 'cancelled', null, { timeout: 10_000 });
    const afterCancel = await page.evaluate(() => ({ tag: document.activeElement.tagName, id: document.activeElement.id, inRow: !!document.activeElement.closest('.file') }));
    assert.notEqual(afterCancel.tag, 'BODY', 'focus is not lost after Cancel');
    assert.ok(afterCancel.inRow, `focus stays on the cancelled file's row: ${JSON.stringify(afterCancel)}`);

    // Cancel all must be pressed while the file is still hashing: on a busy machine the test
    // may only get to focus it once the file is done (the button disabled again); add it again then.
    for (let attempt = 1; ; attempt++) {
      await page.setInputFiles('#files', [path]);
      await page.waitForFunction(() => !document.querySelector('#cancel-all').disabled, null, { timeout: 20_000 });
      await page.focus('#cancel-all');
      if (await page.evaluate(() => document.activeElement.id === 'cancel-all')) break;
      assert.ok(attempt < 5, 'the file was done before Cancel all could be focused, five times');
    }
    await page.keyboard.press('Enter');
    await waitAllDone(page);
    await page.waitForFunction(() => document.querySelector('#cancel-all').disabled);
    assert.notEqual(await page.evaluate(() => document.activeElement.tagName), 'BODY', 'focus is not lost after Cancel all');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'results-heading');

    await page.focus('#clear');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#results .file').count(), 0);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'pick-files', 'after Clear list, focus goes to the file chooser');
    await context.close();
  });

  it('announces the summary at most once per second, and once at the end', async () => {
    const { context, page } = await open();
    await page.evaluate(() => {
      window.__live = [];
      const t0 = performance.now();
      const live = [...document.querySelectorAll('[aria-live]')].filter((el) => el.id !== 'announcer' && el.id !== 'groups');
      for (const el of live) {
        new MutationObserver(() => window.__live.push({ id: el.id, t: performance.now() - t0, text: el.textContent })).observe(el, { childList: true, characterData: true, subtree: true });
      }
    });
    await dropFiles(page, Array.from({ length: 8 }, (_, i) => ({ name: `f${i}.bin`, bytes: randomBytes(20_000 + i) })));
    await waitAllDone(page);
    await page.waitForTimeout(1500);
    const live = await page.evaluate(() => window.__live);
    assert.ok(live.length >= 1, 'the summary is announced');
    for (let i = 1; i < live.length; i++) assert.ok(live[i].t - live[i - 1].t >= 950, `announcements ${JSON.stringify(live)}`);
    assert.match(live.at(-1).text, /^8 files · 0 collisions · 8 clean$/);
    assert.ok(live.length <= 3, `${live.length} announcements for 8 files`);
    // The visible summary is up to date at once.
    assert.match(await page.textContent('#summary'), /^8 files · 0 collisions · 8 clean$/);
    await context.close();
  });

  it('the file chooser is exposed once to assistive technology, each control named', async () => {
    const { context, page } = await open();
    const tree = await page.locator('body').ariaSnapshot();
    // Before: the label read as text "Choose files…", then the file input again.
    const choosers = tree.split('\n').filter((l) => /Choose files…/.test(l));
    assert.deepEqual(choosers.map((l) => l.trim()), ['- button "Choose files…"'], tree);
    const folders = tree.split('\n').filter((l) => /Choose a folder…/.test(l));
    assert.deepEqual(folders.map((l) => l.trim()), ['- button "Choose a folder…"'], tree);
    // Every control has an accessible name.
    assert.doesNotMatch(tree, /- (button|checkbox|textbox)\s*(\[|$)/m);
    await context.close();
  });

  for (const scheme of ['light', 'dark']) {
    it(`axe-core: no serious or critical violations, ${scheme}, empty and with results`, async () => {
      const { context, page } = await open({ colorScheme: scheme, bypassCSP: true });
      const audit = async (what) => {
        await page.evaluate(AXE);
        const r = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
        const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary}`).join(' | ')}`), [], `${scheme}, ${what}`);
      };
      await audit('empty page');
      const cleanBytes = randomBytes(1000);
      await dropFiles(page, [
        { name: 'clean.bin', bytes: cleanBytes },
        { name: 'other.bin', bytes: randomBytes(1000) },
        { name: 'shattered-1.pdf', bytes: readFileSync(join(DATA, 'shattered-1.pdf')) },
        { name: 'shattered-2.pdf', bytes: readFileSync(join(DATA, 'shattered-2.pdf')) },
      ]);
      await waitAllDone(page);
      // Match, mismatch (with the expected value beside the file's) and collision badges, and
      // the expected-hash box open.
      await pasteExpected(page, sha1(cleanBytes));
      await page.waitForSelector('#results .file[data-status="mismatch"] .expected-value');
      // A cancelled file, an error and a git blob row too: every badge.
      await page.evaluate(() => {
        const tpl = document.querySelector('#results .row');
        for (const status of ['cancelled', 'error', 'clean']) {
          const row = tpl.cloneNode(true);
          const card = row.querySelector('.file');
          row.id = `extra-${status}`;
          row.classList.toggle('problem', status === 'error');
          card.dataset.status = status;
          card.querySelector('.verdict').textContent = status;
          card.querySelector('.file-name').id = `extra-${status}-name`;
          row.setAttribute('aria-labelledby', `extra-${status}-name`);
          card.querySelector('.mode').hidden = status !== 'clean';
          for (const b of card.querySelectorAll('button')) b.remove();
          document.querySelector('#results').append(row);
        }
      });
      await audit('results');
      // Only the problems; then the note that there are none.
      await page.check('#only-problems');
      await audit('only problems');
      await page.evaluate(() => {
        const note = document.querySelector('#no-problems');
        note.hidden = false;
        note.textContent = 'No collisions, mismatches or errors.';
      });
      await audit('no problems');
      await context.close();
    });
  }
});

describe('offline', () => {
  it('reloads and checks files with the network off, right after one visit', async () => {
    const { context, page, seen } = await open();
    // The service worker has cached the page's files and the package's; nothing is loaded
    // again online before the network goes (the first visit's modules came before it ran).
    try {
      await reloadOffline(context, page);
      const bytes = randomBytes(5000);
      await dropFiles(page, [{ name: 'offline.bin', bytes }, { name: 'shattered-2.pdf', bytes: readFileSync(join(DATA, 'shattered-2.pdf')) }]);
      await waitAllDone(page);
      const got = await rows(page);
      assert.equal(got[0].sha1, sha1(bytes));
      assert.equal(got[1].output, manifest('shattered-2.pdf').sha1dc_output_hex);
    } finally {
      await context.setOffline(false);
    }
    // What the service worker asked for: the page's own files only.
    assert.deepEqual(seen.foreign, []);
    await context.close();
  });
});

describe('expected hashes', () => {
  it('shows Match beside the verdict, a mismatch as its own verdict; a collision is never a plain match', async () => {
    const { context, page } = await open();
    const a = randomBytes(3000);
    const b = randomBytes(4000);
    const shattered = readFileSync(join(DATA, 'shattered-1.pdf'));
    await dropFiles(page, [{ name: 'a.bin', bytes: a }, { name: 'b.bin', bytes: b }, { name: 'shattered-1.pdf', bytes: shattered }]);
    await waitAllDone(page);
    // Per file: [status, comparison, the pill beside the verdict ('' when hidden)].
    const states = () => page.$$eval('#results .file', (els) => Object.fromEntries(els.map((el) => {
      const pill = el.querySelector('.match');
      return [el.dataset.file, [el.dataset.status, el.dataset.match ?? null, pill.hidden ? '' : pill.textContent]];
    })));
    // A checksum file: sha1sum lines, a sha1dcsum line with its *coll* marker, the plain SHA-1 of
    // the forged PDF (the one its twin shares).
    await pasteExpected(page, `${sha1(a)}  ./a.bin\n${'0'.repeat(40)} *b.bin\n${manifest('shattered-1.pdf').sha1_plain_hex}  shattered-1.pdf\n`);
    assert.deepEqual(await states(), {
      'a.bin': ['clean', 'match', 'Match'],
      'b.bin': ['mismatch', 'mismatch', ''],
      'shattered-1.pdf': ['collision', 'collision', 'Collision: the expected SHA-1, but forged'],
    });
    assert.match(await page.textContent('#expected-status'), /^3 hashes with a file name\.$/);
    // A hash alone is compared with every file; a file that comes later is compared when done.
    await pasteExpected(page, sha1(b).toUpperCase());
    assert.deepEqual(await states(), {
      'a.bin': ['mismatch', 'mismatch', ''],
      'b.bin': ['clean', 'match', 'Match'],
      'shattered-1.pdf': ['collision', 'collision', 'Collision: no match'],
    });
    await dropFiles(page, [{ name: 'later.bin', bytes: b }]);
    await waitAllDone(page);
    assert.deepEqual((await states())['later.bin'], ['clean', 'match', 'Match']);
    // A list with names leaves the others "Not in the list"; nonsense says so; empty clears.
    await pasteExpected(page, `SHA1 (a.bin) = ${sha1(a)}`);
    assert.deepEqual((await states())['b.bin'], ['clean', 'unlisted', 'Not in the list']);
    await pasteExpected(page, 'not a hash');
    assert.match(await page.textContent('#expected-status'), /No SHA-1 found/);
    await pasteExpected(page, '');
    assert.ok(Object.values(await states()).every(([status, m]) => m === null && status !== 'mismatch'));
    await context.close();
  });
});

let rustBuilt = null;
/** The Rust sha1dcsum, built on first use (at once when the native tests built it). */
function rustSha1dcsum() {
  if (rustBuilt === null) {
    execFileSync('cargo', ['build', '--quiet', '--bin', 'sha1dcsum'], { cwd: ROOT, stdio: 'inherit' });
    rustBuilt = join(process.env.CARGO_TARGET_DIR || join(ROOT, 'target'), 'debug', 'sha1dcsum');
  }
  return rustBuilt;
}

/** Clicks a Save button; the file it downloads: { name, text }. */
async function save(page, button) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  assert.match(download.url(), /^blob:/, 'made in the page');
  return { name: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') };
}

/** Writes `files` ({ name, bytes }) into a fresh folder of tmp named `name`; its path. */
function writeFolder(name, files) {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  for (const f of files) writeFileSync(join(dir, f.name), f.bytes);
  return dir;
}

describe('export', () => {
  it('saves sha1dcsum text and --json fields, made in the page, equal to sha1dcsum on the same files', async () => {
    const { context, page, seen } = await open({ acceptDownloads: true });
    const dir = join(tmp, 'export');
    mkdirSync(dir, { recursive: true });
    const files = [
      { name: 'clean.bin', bytes: randomBytes(2000) },
      { name: 'shattered-2.pdf', bytes: readFileSync(join(DATA, 'shattered-2.pdf')) },
      { name: 'sha-mbles-1.bin', bytes: readFileSync(join(DATA, 'sha-mbles-1.bin')) },
    ];
    for (const f of files) writeFileSync(join(dir, f.name), f.bytes);
    assert.ok(await page.isDisabled('#export-text'), 'nothing to save yet');
    await dropFiles(page, files);
    await waitAllDone(page);
    const text = await save(page, '#export-text');
    const json = await save(page, '#export-json');
    assert.equal(text.name, 'sha1dc-results.txt');
    assert.equal(json.name, 'sha1dc-results.json');
    const want = files.map((f) => (f.name === 'clean.bin'
      ? `${sha1(f.bytes)}  clean.bin\n`
      : `${manifest(f.name).sha1dc_output_hex} *coll* ${f.name}\n`)).join('');
    assert.equal(text.text, want);
    const list = JSON.parse(json.text);
    assert.deepEqual(list.map((o) => Object.keys(o)), files.map(() => ['file', 'sha1', 'output', 'collision']));
    assert.deepEqual(list[1].collision, { offset: 256, block: 4, dv: 'II(52,0)', count: 1 });
    const rust = rustSha1dcsum();
    const names = files.map((f) => f.name);
    const r = spawnSync(rust, names, { cwd: dir, encoding: 'utf8' });
    assert.equal(text.text, r.stdout, 'the text export is what sha1dcsum prints');
    const lines = spawnSync(rust, ['--json', ...names], { cwd: dir, encoding: 'utf8' }).stdout.trim().split('\n');
    assert.deepEqual(list, lines.map((l) => JSON.parse(l)), 'the JSON export has sha1dcsum --json fields and values');
    assert.deepEqual(seen.foreign, []);
    await context.close();
  });

  it('escapes names with a newline, carriage return or backslash exactly as GNU sha1sum does', async () => {
    const { context, page } = await open({ acceptDownloads: true });
    const files = ['plain.bin', 'two\nlines.bin', 'back\\slash.bin', 'carriage\rreturn.bin', 'all\\of\nthem\r.bin']
      .map((name) => ({ name, bytes: randomBytes(500) }));
    const dir = writeFolder('escape', files);
    await dropFiles(page, files);
    await waitAllDone(page);
    assert.deepEqual((await rows(page)).map((r) => r.file), files.map((f) => f.name), 'the names arrive as they are');
    const text = (await save(page, '#export-text')).text;
    const names = files.map((f) => f.name);
    const gnu = spawnSync('sha1sum', names, { cwd: dir, encoding: 'utf8' });
    assert.equal(gnu.status, 0, gnu.stderr);
    assert.equal(text, gnu.stdout, 'the text export is what GNU sha1sum prints');
    assert.equal(text.split('\n').filter((l) => l.startsWith('\\')).length, 4, 'four escaped lines');
    assert.equal(text, spawnSync(rustSha1dcsum(), names, { cwd: dir, encoding: 'utf8' }).stdout, 'and what sha1dcsum prints');
    // GNU reads it back, and so does the page.
    writeFileSync(join(dir, 'list.sha1'), text);
    const check = spawnSync('sha1sum', ['-c', 'list.sha1'], { cwd: dir, encoding: 'utf8' });
    assert.equal(check.status, 0, check.stdout + check.stderr);
    await pasteExpected(page, text);
    assert.deepEqual(await page.$$eval('#results .file', (els) => els.map((el) => el.dataset.match)), files.map(() => 'match'));
    await context.close();
  });

  it('marks git blob ids in the saved files: their names, comment lines, "mode" in JSON; git hash-object agrees', async () => {
    const { context, page } = await open({ acceptDownloads: true });
    const files = [
      { name: 'clean.bin', bytes: randomBytes(3000) },
      { name: 'shattered-1.pdf', bytes: readFileSync(join(DATA, 'shattered-1.pdf')) },
    ];
    const dir = writeFolder('git-export', files);
    await page.check('#opt-git-blob');
    await dropFiles(page, files);
    await waitAllDone(page);
    const text = await save(page, '#export-text');
    const json = await save(page, '#export-json');
    assert.equal(text.name, 'sha1dc-git-blob-ids.txt');
    assert.equal(json.name, 'sha1dc-git-blob-ids.json');
    const lines = text.text.split('\n');
    assert.match(lines[0], /^# git blob ids \(what git hash-object prints\), not SHA-1 checksums of the files:$/);
    assert.match(lines[1], /^# check them with sha1dcsum --git-blob -c or git hash-object, not with sha1sum -c\.$/);
    const ids = files.map((f) => spawnSync('git', ['hash-object', f.name], { cwd: dir, encoding: 'utf8' }).stdout.trim());
    assert.deepEqual(lines.slice(2, -1), files.map((f, i) => `${ids[i]}  ${f.name}`), 'the lines hold what git hash-object prints');
    const list = JSON.parse(json.text);
    assert.deepEqual(list.map((o) => [o.file, o.mode, o.sha1]), files.map((f, i) => [f.name, 'git-blob', ids[i]]));
    // Had the ids gone out unmarked, sha1sum -c would call every file FAILED.
    writeFileSync(join(dir, 'ids.txt'), text.text);
    const gnu = spawnSync('sha1sum', ['-c', 'ids.txt'], { cwd: dir, encoding: 'utf8' });
    assert.match(gnu.stdout, /clean\.bin: FAILED/);
    assert.doesNotMatch(gnu.stderr, /improperly formatted/, 'GNU skips the # lines');
    const rust = rustSha1dcsum();
    const r = spawnSync(rust, ['--git-blob', ...files.map((f) => f.name)], { cwd: dir, encoding: 'utf8' });
    assert.equal(lines.slice(2).join('\n'), r.stdout, 'the lines are what sha1dcsum --git-blob prints');
    const c = spawnSync(rust, ['--git-blob', '-c', 'ids.txt'], { cwd: dir, encoding: 'utf8' });
    assert.match(c.stdout, /^clean\.bin: OK\nshattered-1\.pdf: OK\n$/, c.stdout + c.stderr);
    await context.close();
  });
});

describe('opened from a file (file://)', () => {
  it('says on the page why the WebAssembly module cannot load, and how to serve the page', async () => {
    // The page's own policy applies (no bypassCSP): the note must get past it.
    const opened = async (options = {}) => {
      const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, ...options });
      const page = await context.newPage();
      await page.goto(pathToFileURL(join(WWW, 'index.html')).href);
      await page.waitForSelector('#backend.bad', { timeout: 10_000 });
      return { context, page };
    };
    let { context, page } = await opened();
    const text = await page.textContent('#backend');
    assert.match(text, /^This page was opened as a file \(file:\/\/\), and browsers do not run its scripts from a file/);
    assert.match(text, /scripts\/serve\.sh/);
    assert.match(text, /any static web server/);
    assert.ok(await page.isDisabled('#pick-files'), 'no file chooser that would do nothing');
    assert.ok(await page.isDisabled('#pick-folder'));
    await page.screenshot({ path: join(ensureOut(), 'from-file.png') });
    await context.close();
    ({ context, page } = await opened({ bypassCSP: true })); // for axe-core
    await page.evaluate(AXE);
    const r = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    assert.deepEqual(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), []);
    await context.close();
  });

  it('says so too where a server does not deliver the page\'s module', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.route('**/app.js', (route) => route.fulfill({ status: 404, body: 'not found' }));
    await page.goto(url);
    await page.waitForSelector('#backend.bad', { timeout: 10_000 });
    assert.match(await page.textContent('#backend'), /^The page’s scripts could not be loaded from this address.*scripts\/serve\.sh/);
    await context.close();
  });
});
