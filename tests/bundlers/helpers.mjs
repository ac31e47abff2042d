// Shared by the bundler tests (beyond tests/shared.mjs): files written into a project, a static
// server, one headless Chromium for the whole file, a page that reports its result.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../shared.mjs';

export const here = fileURLToPath(new URL('.', import.meta.url));
export const ABC = 'a9993e364706816aba3e25717850c26c9cd0d89d';

/** Writes { relative path: text } under `dir`. */
export function writeFiles(dir, files) {
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  }
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json' };

/** Serves `dir` on 127.0.0.1 (a free port); records every path asked for. */
export function serve(dir) {
  const requests = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests.push(path);
    const file = normalize(join(dir, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(normalize(dir)) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}/`, requests, close: () => new Promise((r) => server.close(r)) }),
    ),
  );
}

let browser = null;
export async function chromium() {
  if (browser === null) {
    browser = await launchChromium();
  }
  return browser;
}
export async function closeChromium() {
  if (browser) await browser.close();
  browser = null;
}

/**
 * Serves `dir`, opens its index.html in headless Chromium and waits for `window.__result`;
 * returns { result, errors (console errors, page errors, failed requests), requests }.
 */
export async function runPage(dir) {
  const server = await serve(dir);
  const page = await (await chromium()).newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()}`));
  page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()}: ${r.url()}`));
  try {
    await page.goto(server.url);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 30_000 });
    const result = await page.evaluate(() => window.__result);
    return { result, errors, requests: [...server.requests] };
  } finally {
    await page.close();
    await server.close();
  }
}

/**
 * The page's script: loads the package the bundler chose, hashes, reports on window.__result.
 * A 16 MiB Blob (a collision first) goes through hashStream on two workers: the package's own
 * filter worker (worker: true, which rejects if it does not start) where the bundler bundled it,
 * or the worker `factory` (code of a function) starts.
 */
export const browserEntry = (factory = 'true') => `
import { init, sha1dc, createHasher, hashStream, backend } from 'sha1dc-wasm';
const started = [];
const RealWorker = self.Worker;
self.Worker = class extends RealWorker {
  constructor(url, options) {
    super(url, options);
    started.push(String(url));
  }
};
init()
  .then(async () => {
    const shattered = new Uint8Array(await (await fetch('./shattered-1.prefix320.bin')).arrayBuffer());
    const large = new Uint8Array((16 << 20) + 320);
    large.set(shattered);
    const twoWorkers = await hashStream(new Blob([large]), { worker: ${factory} });
    window.__result = {
      abc: sha1dc('abc').hex,
      hex: createHasher().update('ab').update('c').digest('hex'),
      stream: (await hashStream(new Blob(['a', 'bc']))).hex,
      dv: sha1dc(shattered).collision.dv,
      backend: backend(),
      twoWorkers: { same: JSON.stringify(twoWorkers) === JSON.stringify(sha1dc(large)), block: twoWorkers.collision.block, started: started.length },
    };
  })
  .catch((e) => {
    window.__result = { error: String((e && e.stack) || e) };
  });
`;
export const BROWSER_ENTRY = browserEntry();
export const BROWSER_WANT = { abc: ABC, hex: ABC, stream: ABC, dv: 'II(52,0)', backend: 'simd128', twoWorkers: { same: true, block: 4, started: 1 } };
