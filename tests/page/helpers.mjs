// The page tests' own plumbing: the static server, a page with the module loaded, fixtures, and
// measurements (heap of the page and of its workers over CDP). What every JS test folder needs
// (paths, Chromium, the test data's tables) comes from tests/shared.mjs.

import assert from 'node:assert/strict';
import { mkdirSync, createWriteStream, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, dirname } from 'node:path';
import { once } from 'node:events';
import { startServer } from '../../scripts/static-server.mjs';
import { ROOT, readTsv } from '../shared.mjs';

export const WWW = join(ROOT, 'www');
export const OUT = process.env.PAGE_TEST_OUT || join(ROOT, 'tests', 'page', 'out');
export const MiB = 1024 * 1024;

export function manifest(file) {
  const row = readTsv('MANIFEST.tsv').find((r) => r.file === file);
  if (!row) throw new Error(`${file} is not in MANIFEST.tsv`);
  return row;
}

/** DERIVED.tsv's git blob row for a file ("printf "blob N\0" + FILE"). */
export function gitBlob(file) {
  const row = readTsv('DERIVED.tsv').find((r) => r.input.endsWith(`+ ${file}`) && r.input.startsWith('printf "blob '));
  if (!row) throw new Error(`no git blob row for ${file} in DERIVED.tsv`);
  return row;
}

/** "detected at block 4 (offset 256) DV II(52,0)" in MANIFEST's `what` column. */
export function expectedDetection(row) {
  const m = /detected at block (\d+) \(offset (\d+)\) DV (\S+)/.exec(row.what);
  if (!m) throw new Error(`no detection in the description of ${row.file}`);
  return { block: Number(m[1]), offset: Number(m[2]), dv: m[3] };
}

/**
 * Writes `bytes` of pseudo-random data to `path`: a 1 MiB block from a fixed-seed xorshift
 * generator, repeated with the MiB's index stamped into its first 8 bytes (so no two MiB are
 * equal). Returns the plain SHA-1 computed with node:crypto while writing.
 */
export async function writeLargeFile(path, bytes) {
  mkdirSync(dirname(path), { recursive: true });
  const block = Buffer.alloc(MiB);
  let x = 0x9e3779b97f4a7c15n;
  const mask = (1n << 64n) - 1n;
  for (let i = 0; i < MiB; i += 8) {
    x ^= (x << 13n) & mask;
    x ^= x >> 7n;
    x ^= (x << 17n) & mask;
    block.writeBigUInt64LE(x, i);
  }
  const hash = createHash('sha1');
  const out = createWriteStream(path);
  for (let written = 0, n = 0; written < bytes; n++) {
    const len = Math.min(MiB, bytes - written);
    const chunk = Buffer.from(block.subarray(0, len));
    chunk.writeUInt32LE(n, 0);
    chunk.writeUInt32LE(0x5348a1dc, 4);
    hash.update(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
    written += len;
  }
  out.end();
  await once(out, 'finish');
  return hash.digest('hex');
}

export async function serve() {
  if (!existsSync(join(WWW, 'pkg', 'index.mjs'))) {
    throw new Error('www/pkg is missing: run scripts/test-browser.sh (it builds the package and copies it there)');
  }
  return startServer({ root: WWW });
}

/**
 * Watches a page for anything that would break the page's promises: requests that leave the
 * server's origin (from the page, its workers or service workers) and console errors.
 */
export function watch(context, page, origin) {
  const requests = [];
  const foreign = [];
  const problems = [];
  const onRequest = (req) => {
    const url = req.url();
    requests.push(url);
    // data: URLs never reach the network (the page's empty favicon is one).
    if (!url.startsWith('data:') && new URL(url).origin !== origin) foreign.push(url);
  };
  context.on('request', onRequest);
  // The page's own service worker (sw.js) is expected; any other is not.
  context.on('serviceworker', (sw) => {
    if (new URL(sw.url()).origin !== origin) foreign.push(`service worker ${sw.url()}`);
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('worker', (worker) => {
    worker.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`worker console.error: ${msg.text()}`);
    });
  });
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()} for ${res.url()}`);
  });
  return { requests, foreign, problems };
}

/** A fresh context and page on the checker at `url`, module loaded; `seen` from watch(). */
export async function openChecker(browser, url, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, ...options });
  const page = await context.newPage();
  const seen = watch(context, page, new URL(url).origin);
  await page.goto(url);
  await page.waitForSelector('#backend.ok', { timeout: 15_000 });
  return { context, page, seen };
}

/** Pastes `text` into the expected-hash box (opened if needed) and waits until it is compared. */
export async function pasteExpected(page, text) {
  if (!(await page.isVisible('#expected'))) await page.click('#expected-box summary');
  await page.fill('#expected', text);
  await page.waitForFunction((t) => document.querySelector('#expected').value === t, text);
  // The box is compared 150 ms after the last keystroke.
  await page.waitForTimeout(400);
}

/** Every file row as a plain object of its data-* attributes. */
export function rows(page) {
  return page.$$eval('#results .file', (els) => els.map((el) => ({ ...el.dataset })));
}

export async function waitAllDone(page, timeout = 60_000) {
  await page.waitForFunction(
    () => {
      const els = [...document.querySelectorAll('#results .file')];
      return els.length > 0 && els.every((el) => el.dataset.status !== 'pending');
    },
    null,
    { timeout, polling: 100 },
  );
}

/**
 * Drops files on the drop zone with a real DataTransfer, as a person dragging them would, and
 * waits for their rows (the page reads a drop asynchronously: a wait for every row to be done
 * could otherwise end before the new ones are there).
 */
export async function dropFiles(page, files) {
  const before = await page.locator('#results .file').count();
  const payload = files.map(({ name, bytes }) => ({ name, b64: Buffer.from(bytes).toString('base64') }));
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const { name, b64 } of list) {
      const bin = atob(b64);
      const u8 = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
      dt.items.add(new File([u8], name, { type: 'application/octet-stream' }));
    }
    return dt;
  }, payload);
  for (const type of ['dragenter', 'dragover', 'drop']) {
    await page.dispatchEvent('#dropzone', type, { dataTransfer });
  }
  await dataTransfer.dispose();
  await page.waitForFunction((n) => document.querySelectorAll('#results .file').length >= n, before + files.length);
}

/**
 * Heap of the page and of each of its dedicated workers, in bytes: V8's used heap plus
 * ArrayBuffer backing stores (where file slices and the wasm memory live), from CDP
 * Runtime.getHeapUsage. Workers are reached through the browser session
 * (Target.attachToTarget + sendMessageToTarget), because Playwright's CDP sessions only open
 * on pages; each sample also finds the workers started since (the filter worker of a large
 * file), and leaves out those that ended.
 */
export class HeapProbe {
  static async open(browser, page, pageUrl) {
    const probe = new HeapProbe();
    probe.page = await page.context().newCDPSession(page);
    probe.browser = await browser.newBrowserCDPSession();
    probe.pageUrl = pageUrl;
    /** targetId -> sessionId */
    probe.attached = new Map();
    probe.pending = new Map();
    probe.nextId = 1;
    probe.browser.on('Target.receivedMessageFromTarget', ({ message }) => {
      const msg = JSON.parse(message);
      const wait = msg.id && probe.pending.get(msg.id);
      if (wait) {
        probe.pending.delete(msg.id);
        wait(msg);
      }
    });
    await probe.discover();
    return probe;
  }

  /** The sessions of the page's workers, attached to any started since the last call. */
  async discover() {
    const { targetInfos } = await this.browser.send('Target.getTargets');
    const live = new Set();
    for (const t of targetInfos) {
      if (t.type !== 'worker' || !t.url.startsWith(this.pageUrl)) continue;
      live.add(t.targetId);
      if (this.attached.has(t.targetId)) continue;
      const { sessionId } = await this.browser.send('Target.attachToTarget', { targetId: t.targetId, flatten: false }).catch(() => ({}));
      if (sessionId) this.attached.set(t.targetId, sessionId);
    }
    for (const id of this.attached.keys()) if (!live.has(id)) this.attached.delete(id);
    return [...this.attached.values()];
  }

  get sessions() {
    return [...this.attached.values()];
  }

  /** A CDP call in a worker; null if the worker ended before it answered. */
  async workerCall(sessionId, method, params = {}) {
    const id = this.nextId++;
    const reply = new Promise((resolve) => this.pending.set(id, resolve));
    const sent = await this.browser.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).then(() => true, () => false);
    const msg = sent ? await Promise.race([reply, new Promise((r) => setTimeout(() => r(null), 2000))]) : null;
    this.pending.delete(id);
    if (msg === null) return null;
    if (msg.error) throw new Error(`${method}: ${msg.error.message}`);
    return msg.result;
  }

  static total(u) {
    return u.usedSize + (u.backingStorageSize || 0);
  }

  /** { page, workers: [bytes of each worker], count (the workers sampled) }. */
  async sample() {
    const page = HeapProbe.total(await this.page.send('Runtime.getHeapUsage'));
    const workers = [];
    for (const s of await this.discover()) {
      const usage = await this.workerCall(s, 'Runtime.getHeapUsage');
      if (usage) workers.push(HeapProbe.total(usage));
    }
    return { page, workers };
  }

  /** A full GC in the page and the workers, so a measurement starts from live data only. */
  async collectGarbage() {
    await this.page.send('HeapProfiler.collectGarbage');
    for (const s of await this.discover()) await this.workerCall(s, 'HeapProfiler.collectGarbage');
  }

  async close() {
    for (const s of this.sessions) await this.browser.send('Target.detachFromTarget', { sessionId: s }).catch(() => {});
    await this.browser.detach().catch(() => {});
    await this.page.detach().catch(() => {});
  }
}

export function ensureOut() {
  mkdirSync(OUT, { recursive: true });
  return OUT;
}

/** After one visit, waits for the service worker, takes the network away and reloads: the
 * page must come back from the worker's cache alone. The caller turns the network on again. */
export async function reloadOffline(context, page) {
  await page.evaluate(() => Promise.race([navigator.serviceWorker.ready, new Promise((_, no) => setTimeout(() => no(new Error('no service worker')), 10_000))]));
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('#backend.ok', { timeout: 15_000 });
  assert.ok(await page.evaluate(() => !!navigator.serviceWorker.controller), 'the service worker controls the page');
}
