// bench.mjs's rounds in headless Chromium: serves the repository's root on 127.0.0.1, opens
// browser/index.html in /usr/bin/chromium (playwright-core, never a browser download; the flags
// TOOLCHAIN.md gives) and prints the page's tables. Same options as bench.mjs:
//
//   node chromium.mjs [--rounds 7] [--ms 150] [--sizes 64,16384,1048576] [--batch 2000] [--json out.json]
//   node chromium.mjs --file PATH [--rounds 3]
//
// With --file, browser/stream.html instead: where one large file's time goes in a worker (the
// File read, the copy into wasm memory, hashing from memory, hashStream on one worker and on
// two), interleaved round by round with the package's hashStream in Node on the same file
// (one worker, 1 MiB chunks from the page cache).
//
// After `npm run bench` (or build.sh) built the package, the peers' web build and installed
// hash-wasm and playwright-core. CHROMIUM names another browser binary; V8 flags go through
// --js-flags "...".
import { createServer } from 'node:http';
import { createReadStream, readFileSync, statSync, writeFileSync } from 'node:fs';
import { median } from './rounds.mjs';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const root = fileURLToPath(new URL('..', import.meta.url));
const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' };

const server = createServer((req, res) => {
  const path = normalize(join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
  let ok = path.startsWith(root);
  try {
    ok &&= statSync(path).isFile();
  } catch {
    ok = false;
  }
  if (!ok) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
  createReadStream(path).pipe(res);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
const cpuField = (key) => cpuinfo.match(new RegExp(`^${key}\\s*: (.*)$`, 'm'))?.[1] ?? '?';
console.log(`CPU: ${cpuField('vendor_id')} family ${cpuField('cpu family')} model ${cpuField('model')} (${cpuField('model name')})`);

const jsFlags = opt('js-flags', null);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run',
    ...(jsFlags ? [`--js-flags=${jsFlags}`] : []),
  ],
});
try {
  const page = await browser.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error') console.error(`page: ${msg.text()}`);
  });
  const { port } = server.address();
  const file = opt('file', null);
  const report = file ? await streamRounds(page, port, file) : await benchRounds(page, port);
  const jsonOut = opt('json', null);
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ chromium: browser.version(), ...report }, null, 2));
} finally {
  await browser.close();
  server.close();
}

/** browser/index.html's tables. */
async function benchRounds(page, port) {
  const query = new URLSearchParams();
  for (const name of ['rounds', 'ms', 'sizes', 'batch']) if (opt(name, null) !== null) query.set(name, opt(name));
  await page.goto(`http://127.0.0.1:${port}/bench-wasm/browser/index.html?${query}`);
  const result = await page.evaluate(() => window.benchResult, undefined, { timeout: 0 });
  console.log(`Chromium ${browser.version()}`);
  for (const line of result.lines) console.log(line);
  return { results: result.results, batches: result.batches };
}

/** browser/stream.html on `path`, round by round with Node's hashStream on the same file. */
async function streamRounds(page, port, path) {
  const rounds = Number(opt('rounds', 3));
  const { hashStream } = await import('../pkg/node.mjs');
  const size = statSync(path).size;
  const nodeRate = async () => {
    const t0 = performance.now();
    await hashStream(createReadStream(path, { highWaterMark: 1 << 20 }), { worker: false });
    return size / 2 ** 20 / ((performance.now() - t0) / 1000);
  };
  await page.goto(`http://127.0.0.1:${port}/bench-wasm/browser/stream.html`);
  await page.setInputFiles('#file', path);
  await page.evaluate(() => window.streamReady);
  await nodeRate(); // the page cache, and Node's tiers, warmed
  const rates = {};
  for (let r = 0; r < rounds; r++) {
    const round = await page.evaluate((k) => window.streamRound(k), r);
    round['Node: hashStream(file stream), one worker'] = await nodeRate();
    for (const [name, x] of Object.entries(round)) (rates[name] ??= []).push(x);
  }
  const node = median(rates['Node: hashStream(file stream), one worker']);
  console.log(`Chromium ${browser.version()}; ${size / 2 ** 20} MiB from the page cache; ${rounds} rounds, interleaved; wall clock`);
  console.log(`  ${'part'.padEnd(48)} ${'MiB/s'.padStart(7)}  ${'min..max'.padStart(9)}  vs Node hashStream`);
  const out = {};
  for (const [name, xs] of Object.entries(rates)) {
    const m = median(xs);
    out[name] = { median_mib_s: m, samples: xs };
    console.log(`  ${name.padEnd(48)} ${m.toFixed(0).padStart(7)}  ${`${Math.min(...xs).toFixed(0)}..${Math.max(...xs).toFixed(0)}`.padStart(9)}  ${(m / node).toFixed(2)}x`);
  }
  return { size, rounds, rates: out };
}
