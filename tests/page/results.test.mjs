// What the checker page says about each file and about them all, in headless Chromium: a
// checksum mismatch as its own verdict (as visible as a collision: red, the expected and actual
// values side by side, counted in the summary), and "Show only problems".

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DATA, launchChromium, sha1 } from '../shared.mjs';
import { serve, rows, waitAllDone, dropFiles, openChecker, pasteExpected, ensureOut } from './helpers.mjs';

let server, browser, url, out;

before(async () => {
  out = ensureOut();
  const started = await serve();
  server = started.server;
  url = started.url;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** What a row shows: its verdict, the digests' labels and values, the explanation. */
function card(page, name) {
  return page.locator(`#results .file[data-file="${name}"]`).evaluate((el) => ({
    status: el.dataset.status,
    verdict: el.querySelector('.verdict').textContent,
    pill: el.querySelector('.match').hidden ? '' : el.querySelector('.match').textContent,
    rows: [...el.querySelectorAll('.digests dt')].map((dt) => [dt.textContent, dt.nextElementSibling.querySelector('code')?.textContent ?? dt.nextElementSibling.textContent]),
    explain: el.querySelector('.explain').textContent,
    border: getComputedStyle(el).borderLeftColor,
  }));
}

/** The names of the rows a person can see. */
const visible = (page) => page.$$eval('#results .file', (els) => els.filter((el) => el.offsetParent !== null).map((el) => el.dataset.file));

describe('a checksum mismatch', () => {
  it('is a verdict of its own, red like a collision, with the expected and actual values side by side, counted', async () => {
    const { context, page, seen } = await openChecker(browser, url);
    const good = randomBytes(5000);
    const bad = randomBytes(5000);
    await dropFiles(page, [{ name: 'good.iso', bytes: good }, { name: 'bad.iso', bytes: bad },
      { name: 'shattered-1.pdf', bytes: readFileSync(join(DATA, 'shattered-1.pdf')) }]);
    await waitAllDone(page);
    const wrong = sha1(randomBytes(10));
    await pasteExpected(page, `${sha1(good)}  good.iso\n${wrong}  bad.iso\n`);
    const mismatch = await card(page, 'bad.iso');
    assert.equal(mismatch.status, 'mismatch');
    assert.equal(mismatch.verdict, 'Mismatch', 'not a green Clean with a small pill');
    assert.equal(mismatch.pill, '', 'the verdict says it once');
    assert.deepEqual(mismatch.rows, [['SHA-1', sha1(bad)], ['Expected', wrong]], 'the two values, one above the other');
    assert.match(mismatch.explain, /^This is not the file the expected hash describes/);
    assert.doesNotMatch(mismatch.explain, /Checked:|trusted/);
    const collision = await card(page, 'shattered-1.pdf');
    assert.equal(mismatch.border, collision.border, 'as visible as a collision');
    const match = await card(page, 'good.iso');
    assert.deepEqual([match.status, match.verdict, match.pill, match.rows.length], ['clean', 'Clean', 'Match', 1]);
    await page.locator('#results .file[data-file="good.iso"]').screenshot({ path: join(out, 'clean.png') });
    assert.notEqual(match.border, mismatch.border);

    assert.equal(await page.textContent('#summary'), '3 files · 1 collision · 1 mismatch · 1 clean');
    assert.ok(await page.locator('#summary.alarm').count(), 'the summary is in alarm');
    assert.match(await page.textContent('#announcer'), /bad\.iso: mismatch|collision detected/);
    await page.locator('#results .file[data-file="bad.iso"]').screenshot({ path: join(out, 'mismatch.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('#results .file[data-file="bad.iso"]').screenshot({ path: join(out, 'mismatch-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });

    // Fixed in the list: the card goes back to Clean, and the summary with it.
    await pasteExpected(page, `${sha1(good)}  good.iso\n${sha1(bad)}  bad.iso\n`);
    assert.deepEqual(Object.values(await card(page, 'bad.iso')).slice(0, 3), ['clean', 'Clean', 'Match']);
    assert.equal(await page.textContent('#summary'), '3 files · 1 collision · 0 mismatches · 2 clean');
    assert.deepEqual(seen.problems, []);
    await context.close();
  });

  it('in git blob mode says why a sha1sum hash cannot match', async () => {
    const { context, page } = await openChecker(browser, url);
    const bytes = randomBytes(2000);
    await page.check('#opt-git-blob');
    await dropFiles(page, [{ name: 'a.bin', bytes }]);
    await waitAllDone(page);
    await pasteExpected(page, `${sha1(bytes)}  a.bin`);
    const a = await card(page, 'a.bin');
    assert.equal(a.status, 'mismatch');
    assert.deepEqual(a.rows.map(([label]) => label), ['Git blob id', 'Expected']);
    assert.match(a.explain, /set to git blob ids: a SHA-1 from sha1sum never matches one/);
    await context.close();
  });
});

describe('Show only problems', () => {
  it('shows only collisions, mismatches and errors, and says so when there are none', async () => {
    const { context, page } = await openChecker(browser, url);
    // A file the workers cannot read, for an error.
    for (const worker of page.workers()) {
      await worker.evaluate(() => {
        const read = Blob.prototype.arrayBuffer;
        Blob.prototype.arrayBuffer = function () {
          return this.name === 'gone.bin' ? Promise.reject(new DOMException('gone', 'NotReadableError')) : read.call(this);
        };
      });
    }
    const files = ['ok-1.bin', 'ok-2.bin', 'wrong.bin', 'gone.bin'].map((name) => ({ name, bytes: randomBytes(3000) }));
    files.push({ name: 'shattered-2.pdf', bytes: readFileSync(join(DATA, 'shattered-2.pdf')) });
    await dropFiles(page, files);
    await waitAllDone(page);
    await pasteExpected(page, `${sha1(files[0].bytes)}  ok-1.bin\n${'1'.repeat(40)}  wrong.bin\n`);
    assert.deepEqual((await rows(page)).map((r) => r.status), ['clean', 'clean', 'mismatch', 'error', 'collision']);
    assert.deepEqual(await visible(page), files.map((f) => f.name));
    // Each row's frame, which the browser leaves unstyled off screen, keeps no state but whether
    // it is a problem: a verdict changes only the card inside (restyling the frame is what made
    // large folders slow).
    const frames = await page.$$eval('#results > li', (lis) => lis.map((li) => ({
      classes: li.className, data: Object.keys(li.dataset), card: li.firstElementChild.className,
    })));
    assert.deepEqual(frames.map((f) => f.classes), ['row', 'row', 'row problem', 'row problem', 'row problem']);
    assert.ok(frames.every((f) => f.data.length === 0 && f.card === 'file'), JSON.stringify(frames));

    await page.check('#only-problems');
    assert.deepEqual(await visible(page), ['wrong.bin', 'gone.bin', 'shattered-2.pdf']);
    assert.ok(await page.isHidden('#no-problems'));
    await page.screenshot({ path: join(out, 'only-problems.png'), fullPage: true });
    // The filter holds for files that come later.
    await dropFiles(page, [{ name: 'later.bin', bytes: randomBytes(100) }]);
    await waitAllDone(page);
    assert.deepEqual(await visible(page), ['wrong.bin', 'gone.bin', 'shattered-2.pdf']);
    await page.uncheck('#only-problems');
    assert.equal((await visible(page)).length, 6);

    // No problem at all: the list is empty but says why.
    await page.click('#clear');
    await page.check('#only-problems');
    await dropFiles(page, [{ name: 'fine.bin', bytes: randomBytes(100) }]);
    await waitAllDone(page);
    assert.deepEqual(await visible(page), []);
    assert.equal(await page.textContent('#no-problems'), 'No collisions, mismatches or errors.');
    assert.ok(await page.isVisible('#no-problems'));
    await context.close();
  });
});
