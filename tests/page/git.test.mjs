// Repositories, packs and bundles on the checker page (www/git.js), in headless Chromium, side by
// side with the Rust `git-sha1dc --content --json` (cargo build, when missing) on the same
// generated inputs: a work tree holding both SHAttered PDFs committed as blobs (picked as a
// folder: its .git checked as a repository, its files as files), and packs dropped beside a
// plain file: one with a flipped byte (with its .idx), one cut short (without), and a bundle;
// without the content check, the object check alone as `git-sha1dc --json` makes it.
// The page's saved JSON document is git-sha1dc's but for the paths; its table and damage list
// say the same; nothing leaves the machine. Cancel ends a check of a larger pack part way, the
// progress redrawn at least twice a second; a pack is checked offline after one visit; axe-core
// finds no serious violation in a finished check, light and dark.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { DATA, ROOT, launchChromium } from '../shared.mjs';
import { ensureOut, openChecker, reloadOffline, serve, waitAllDone } from './helpers.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const RUST = process.env.GIT_SHA1DC || join(process.env.CARGO_TARGET_DIR || join(ROOT, 'target'), 'debug', 'git-sha1dc');

let server, url, browser, tmp;
const at = (...p) => join(tmp, ...p);
const git = (cwd, ...args) => execFileSync('git', args, {
  cwd,
  encoding: 'utf8',
  env: {
    ...process.env, HOME: tmp, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@example.org',
    GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@example.org', GIT_AUTHOR_DATE: '2017-02-23T00:00:00Z', GIT_COMMITTER_DATE: '2017-02-23T00:00:00Z',
  },
});

/** git-sha1dc --content --json on `paths` (`--json` alone with `{ content: false }` first): its document, parsed. */
function rust(...paths) {
  const content = typeof paths[0] === 'object' ? paths.shift().content : true;
  const r = spawnSync(RUST, [...(content ? ['--content'] : []), '--json', ...paths], { encoding: 'utf8' });
  assert.ok([0, 1, 3].includes(r.status), r.stderr);
  return JSON.parse(r.stdout);
}

/** A document with each file named by its base name only: the page's paths are the drop's. */
const byName = (doc) => ({
  ...doc,
  findings: doc.findings.map((f) => ({ ...f, file: basename(f.file) })),
  damage: doc.damage.map((d) => ({ ...d, file: basename(d.file), message: d.message.replaceAll(tmp, '') })),
});

/** A repository holding both PDFs and a few versions of a text file (deltas), packed. */
function repository(name) {
  const repo = at(name);
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  let text = 'line\n'.repeat(400);
  for (let i = 0; i < 3; i++) {
    text += `change ${i}\n`;
    writeFileSync(join(repo, 'notes.txt'), text);
    if (i === 1) for (const f of ['shattered-1.pdf', 'shattered-2.pdf']) copyFileSync(join(DATA, f), join(repo, f));
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', `commit ${i}`);
  }
  git(repo, 'repack', '-q', '-a', '-d');
  // One more commit, left loose.
  writeFileSync(join(repo, 'notes.txt'), `${text}loose\n`);
  git(repo, 'commit', '-q', '-am', 'loose');
  return repo;
}

/** The page's saved JSON document (the Save button of check `n`), parsed. */
async function saved(page, n) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.git-run').nth(n).locator('button', { hasText: 'Save as JSON' }).click()]);
  const text = readFileSync(await download.path(), 'utf8');
  assert.ok(text.endsWith('}\n') && !text.endsWith('\n\n'), 'one document and a newline, as git-sha1dc prints it');
  return JSON.parse(text);
}

/** Drops `files` ({ name: bytes }) on the drop zone with a real DataTransfer. */
async function drop(page, files) {
  const dt = await page.evaluateHandle(() => new DataTransfer());
  for (const [name, bytes] of Object.entries(files)) {
    const b64 = Buffer.from(bytes).toString('base64');
    await dt.evaluate((dt, { name, b64 }) => dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name)), { name, b64 });
  }
  for (const type of ['dragenter', 'dragover', 'drop']) await page.dispatchEvent('#dropzone', type, { dataTransfer: dt });
  await dt.dispose();
}

const waitChecked = (page, n) => page.waitForFunction((n) => {
  const runs = document.querySelectorAll('.git-run');
  return runs.length >= n && [...runs].every((r) => r.dataset.status !== 'pending');
}, n, { timeout: 60_000 });

/** What the page shows of check `n`: the table's rows and the damage list. */
const shown = (page, n) => page.locator('.git-run').nth(n).evaluate((run) => ({
  status: run.dataset.status,
  rows: [...run.querySelectorAll('tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)),
  damage: [...run.querySelectorAll('.git-damage li')].map((li) => li.textContent),
  objects: Number(run.dataset.objects),
}));

let repo, pack, idx, packs;
before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'sha1dc-page-git-'));
  if (!process.env.GIT_SHA1DC) execFileSync('cargo', ['build', '--quiet', '-p', 'gitverify', '--bin', 'git-sha1dc'], { cwd: ROOT, stdio: 'inherit' });
  repo = repository('work');
  const packDir = join(repo, '.git', 'objects', 'pack');
  const name = readdirSync(packDir).find((n) => n.endsWith('.pack'));
  pack = readFileSync(join(packDir, name));
  idx = readFileSync(join(packDir, name.replace(/\.pack$/, '.idx')));
  const flipped = Buffer.from(pack);
  flipped[Math.floor(flipped.length / 3)] ^= 0x40;
  git(repo, 'bundle', 'create', '-q', at('all.bundle'), '--all');
  packs = {
    'flip.pack': flipped,
    'flip.idx': idx,
    'cut.pack': pack.subarray(0, pack.length - 4000),
    'all.bundle': readFileSync(at('all.bundle')),
    'note.txt': Buffer.from('a plain file beside the packs\n'),
  };
  mkdirSync(at('drop'));
  for (const [n, bytes] of Object.entries(packs)) writeFileSync(at('drop', n), bytes);
  ({ server, url } = await serve());
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('repositories, packs and bundles', () => {
  it('a picked work tree: its objects as git-sha1dc --content --json says, its files as files', async () => {
    const { context, page, seen } = await openChecker(browser, url);
    await page.setInputFiles('#folder', repo);
    await waitChecked(page, 1);
    await waitAllDone(page);
    const expected = rust(repo);
    assert.equal(expected.findings.length, 2, 'the content check flags both PDFs');
    assert.ok(expected.findings.every((f) => f.check === 'content'));
    assert.deepEqual(byName(await saved(page, 0)), byName(expected));
    const view = await shown(page, 0);
    await page.screenshot({ path: join(ensureOut(), 'git-repository.png'), fullPage: true });
    assert.equal(view.status, 'collision');
    assert.equal(view.objects, expected.objects.total);
    assert.deepEqual(view.rows.map((r) => [r[0], r[3], r[4]]), expected.findings.map((f) => [f.id, f.offset.toLocaleString('en-US'), f.dv]));
    // The work tree's files are still hashed as files; the .git folder's are not.
    const files = await page.$$eval('#results .file', (els) => els.map((e) => [e.querySelector('.file-name').textContent, e.dataset.status]));
    assert.deepEqual(files.map(([n]) => n).sort(), ['work/notes.txt', 'work/shattered-1.pdf', 'work/shattered-2.pdf']);
    assert.deepEqual(files.filter(([, s]) => s === 'collision').length, 2);
    assert.deepEqual(seen.foreign, []);
    assert.deepEqual(seen.problems, []);
    await context.close();
  });

  it('without "Blob contents as files": the object check alone, as git-sha1dc --json says', async () => {
    const { context, page } = await openChecker(browser, url);
    await page.uncheck('#opt-git-content');
    await drop(page, { 'all.bundle': packs['all.bundle'], 'flip.pack': packs['flip.pack'], 'flip.idx': packs['flip.idx'] });
    await waitChecked(page, 1);
    const expected = rust({ content: false }, at('drop', 'flip.pack'), at('drop', 'all.bundle'));
    assert.deepEqual(expected.findings, [], 'git hashes the PDFs safely: no object collides');
    assert.ok(expected.damage.length >= 1);
    assert.deepEqual(byName(await saved(page, 0)), byName(expected));
    assert.equal((await shown(page, 0)).status, 'damaged');
    await context.close();
  });

  it('dropped packs and a bundle beside a file: damage and collisions as git-sha1dc reports them', async () => {
    const { context, page, seen } = await openChecker(browser, url);
    await drop(page, packs);
    await page.waitForSelector('#results .file');
    await waitChecked(page, 1);
    await waitAllDone(page);
    const expected = rust(at('drop', 'flip.pack'), at('drop', 'cut.pack'), at('drop', 'all.bundle'));
    assert.ok(expected.damage.length >= 2, 'both damaged packs reported');
    assert.ok(expected.findings.length >= 2, 'the PDFs found in the bundle');
    const doc = await saved(page, 0);
    assert.deepEqual(byName(doc), byName(expected));
    const view = await shown(page, 0);
    await page.screenshot({ path: join(ensureOut(), 'git-packs.png'), fullPage: true });
    assert.equal(view.status, 'collision');
    assert.deepEqual(view.rows.map((r) => r[0]), expected.findings.map((f) => f.id));
    assert.equal(view.damage.length, expected.damage.length);
    for (const [i, d] of expected.damage.entries()) assert.ok(view.damage[i].includes(d.message), `${view.damage[i]} says ${d.message}`);
    // The plain file dropped beside them is hashed; the packs, the index and the bundle make no file rows.
    const names = await page.$$eval('#results .file-name', (els) => els.map((e) => e.textContent));
    assert.deepEqual(names, ['note.txt']);
    assert.deepEqual(seen.foreign, []);
    assert.deepEqual(seen.problems, []);
    await context.close();
  });

  it('Cancel ends a running check and its workers; the progress is redrawn at least twice a second', async () => {
    // 100,000 small blobs, one worker: long enough to cancel part way.
    const bare = at('many.git');
    git(tmp, 'init', '-q', '--bare', bare);
    const blobs = [];
    for (let i = 1; i <= 100_000; i++) {
      const c = `object ${i} of a pack to cancel\n`.repeat(24);
      blobs.push(`blob\nmark :${i}\ndata ${c.length}\n${c}\n`);
    }
    execFileSync('git', ['--git-dir', bare, 'fast-import', '--quiet'], { input: blobs.join('') });
    const packDir = join(bare, 'objects', 'pack');
    const many = readFileSync(join(packDir, readdirSync(packDir).find((n) => n.endsWith('.pack'))));
    const { context, page, seen } = await openChecker(browser, `${url}?git-workers=1`);
    await page.evaluate(() => {
      window.__redraws = [];
      new MutationObserver((records) => {
        if (records.some((r) => r.target.closest?.('.git-run .progress-text') || r.target.parentElement?.closest('.git-run .progress-text'))) {
          window.__redraws.push(performance.now());
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await drop(page, { 'many.pack': many });
    await page.waitForFunction(() => Number(document.querySelector('.git-run')?.dataset.objects) > 0, null, { polling: 'raf' });
    await page.click('.git-run .cancel');
    const view = await shown(page, 0);
    assert.equal(view.status, 'cancelled');
    const run = page.locator('.git-run');
    assert.ok(view.objects > 0 && view.objects < 100_000, `cancelled part way: ${view.objects}`);
    assert.equal(Number(await run.getAttribute('data-total')), 100_000);
    assert.equal(await run.locator('button', { hasText: 'Save as JSON' }).isVisible(), false);
    assert.equal(await run.locator('.cancel').isVisible(), false);
    // Terminated workers leave the browser's targets shortly after.
    const cdp = await browser.newBrowserCDPSession();
    let left;
    for (let i = 0; i < 50; i++) {
      const { targetInfos } = await cdp.send('Target.getTargets');
      left = targetInfos.filter((t) => t.type === 'worker' && t.url.includes('git-worker')).map((t) => t.url);
      if (!left.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await cdp.detach();
    assert.deepEqual(left, [], 'no verifier left running');
    const times = await page.evaluate(() => window.__redraws);
    assert.ok(times.length >= 2, `redrawn ${times.length} times`);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    assert.ok(Math.max(...gaps) < 500, `the progress was redrawn every ${gaps.map(Math.round).join(', ')} ms`);
    assert.deepEqual(seen.foreign, []);
    assert.deepEqual(seen.problems, []);
    await context.close();
  });

  it('checks a pack offline, after one visit (the service worker keeps the verifier)', async () => {
    const { context, page, seen } = await openChecker(browser, url);
    try {
      await reloadOffline(context, page);
      await drop(page, { 'flip.pack': packs['flip.pack'], 'flip.idx': packs['flip.idx'] });
      await waitChecked(page, 1);
      assert.deepEqual(byName(await saved(page, 0)), byName(rust(at('drop', 'flip.pack'))));
    } finally {
      await context.setOffline(false);
    }
    assert.deepEqual(seen.foreign, []);
    await context.close();
  });

  for (const scheme of ['light', 'dark']) {
    it(`axe-core: no serious or critical violations in a finished check, ${scheme}`, async () => {
      const { context, page } = await openChecker(browser, url, { colorScheme: scheme, bypassCSP: true });
      await drop(page, packs);
      await waitChecked(page, 1);
      await page.evaluate(AXE);
      const r = await page.evaluate(() => window.axe.run('#git-checks', { resultTypes: ['violations'] }));
      const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary}`).join(' | ')}`), []);
      await context.close();
    });
  }
});
