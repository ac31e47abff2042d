// The checker page (www/) in headless Chromium against the package in Node on the same bytes,
// interleaved round by round (the machine is shared: compare the ratios):
//
//   node page.mjs --file PATH [--rounds 3]      one large file: the page's rate (from the time
//                                                the page shows) against hashStream in Node
//                                                (one stream, 1 MiB chunks from the page cache,
//                                                a fresh Node process each round)
//   node page.mjs --folder DIR [--rounds 3]     a folder picked whole: the page's wall time, from
//                                                the files' arrival to the last verdict, against
//                                                `sha1dc-wasm -r DIR` (the package's command)
//   node page.mjs --memory PATH                 one file: the peak of the page's and its workers'
//                                                JS heaps and ArrayBuffers (wasm memory among
//                                                them), and of the renderer's resident memory
//   node page.mjs --make-folder DIR [--files 10000] [--max 8192]
//                                                writes DIR: files of 0..max bytes, random
//
// PAGE_QUERY is added to the page's address (`?workers=1`: every file on one worker).
// Needs the package copied into www/pkg (scripts/www-pkg.sh after scripts/build-pkg.sh) and
// `npm install` here (playwright-core); /usr/bin/chromium, or CHROMIUM.
import { execFile } from 'node:child_process';
import { createReadStream, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomFillSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../scripts/static-server.mjs';
import { median } from './rounds.mjs';
import { HeapProbe } from '../tests/page/helpers.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const rounds = Number(opt('rounds', 3));
const root = fileURLToPath(new URL('..', import.meta.url));
const MiB = 2 ** 20;

if (opt('make-folder', null)) {
  const dir = opt('make-folder');
  const count = Number(opt('files', 10_000));
  const max = Number(opt('max', 8192));
  mkdirSync(dir, { recursive: true });
  let total = 0;
  for (let i = 0; i < count; i++) {
    const size = Math.floor((i * 7919) % (max + 1));
    writeFileSync(join(dir, `f${String(i).padStart(5, '0')}.bin`), randomFillSync(new Uint8Array(size)));
    total += size;
  }
  console.log(`${dir}: ${count} files, ${(total / MiB).toFixed(1)} MiB`);
  process.exit(0);
}

const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
const cpuField = (key) => cpuinfo.match(new RegExp(`^${key}\\s*: (.*)$`, 'm'))?.[1] ?? '?';
console.log(`CPU: ${cpuField('vendor_id')} family ${cpuField('cpu family')} model ${cpuField('model')} (${cpuField('model name')})`);

const { server, url } = await startServer({ root: join(root, 'www') });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await browser.newPage();
await page.goto(url + (process.env.PAGE_QUERY || ""));
await page.waitForSelector('#backend.ok', { timeout: 30_000 });
console.log(`Chromium ${browser.version()}; Node ${process.version}; backend ${await page.getAttribute('#backend', 'data-backend')}`);

// The moment the page gets the files picked (their `change` event): the time from it to the last
// verdict is the page's own, without the test driver's handing over of the files.
await page.evaluate(() => {
  for (const id of ['files', 'folder']) {
    document.getElementById(id).addEventListener('change', () => { window.pickedAt = performance.now(); }, { capture: true });
  }
});

/** The rows once none is pending, and the page's milliseconds from the pick to the last verdict. */
async function finished() {
  const handle = await page.waitForFunction(() => {
    const els = [...document.querySelectorAll('#results .file')];
    return els.length > 0 && els.every((el) => el.dataset.status !== 'pending') && performance.now() - window.pickedAt;
  }, null, { timeout: 0, polling: 20 });
  const ms = await handle.jsonValue();
  const rows = await page.$$eval('#results .file', (els) => els.map((el) => ({ ...el.dataset })));
  return { rows, ms };
}

/** Picks `path` (a file, or a folder with `folder`): the rows, and the page's time to the last verdict. */
async function pick(path, folder = false) {
  if (await page.isEnabled('#clear')) await page.click('#clear');
  await page.setInputFiles(folder ? '#folder' : '#files', path);
  return finished();
}

const report = (name, xs, base, unit) => {
  const m = median(xs);
  console.log(`  ${name.padEnd(44)} ${m.toFixed(1).padStart(8)} ${unit}  ${`${Math.min(...xs).toFixed(0)}..${Math.max(...xs).toFixed(0)}`.padStart(11)}  ${base ? `${(m / base).toFixed(2)}x` : ''}`);
};

try {
  if (opt('file', null)) {
    const path = opt('file');
    const size = statSync(path).size;
    // Each round's Node figure from a fresh process: the same build's single stream differs
    // between Node processes by up to 2x (docs/performance.md), so one process would set the
    // ratio by its luck; the median over several processes does not.
    const script = `import { hashStream } from ${JSON.stringify(join(root, 'pkg', 'node.mjs'))};
      import { createReadStream } from 'node:fs';
      const t0 = performance.now();
      const r = await hashStream(createReadStream(process.argv[1], { highWaterMark: ${MiB} }), { worker: false });
      console.log(JSON.stringify({ ms: performance.now() - t0, sha1: r.sha1 }));`;
    const node = async () => {
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, path]);
      const { ms, sha1 } = JSON.parse(stdout);
      return { mibs: size / MiB / (ms / 1000), sha1 };
    };
    const want = (await node()).sha1; // the page cache warmed
    const rates = { shown: [], wall: [], node: [] };
    for (let r = 0; r < rounds; r++) {
      const { rows, ms } = await pick(path);
      if (rows[0].sha1 !== want) throw new Error(`the page gave ${rows[0].sha1}, Node ${want}`);
      rates.shown.push(size / MiB / (Number(rows[0].ms) / 1000));
      rates.wall.push(size / MiB / (ms / 1000));
      rates.node.push((await node()).mibs);
    }
    const base = median(rates.node);
    console.log(`${(size / MiB).toFixed(0)} MiB, ${rounds} rounds, interleaved; MiB/s, wall clock; ratio to Node`);
    report('page (the time it shows)', rates.shown, base, 'MiB/s');
    report('page (files picked to verdict)', rates.wall, base, 'MiB/s');
    report('Node hashStream, one stream (a process a round)', rates.node, base, 'MiB/s');
  } else if (opt('folder', null)) {
    const dir = opt('folder');
    const files = readdirSync(dir).length;
    const cli = join(root, 'pkg', 'cli.mjs');
    const run = promisify(execFile);
    const times = { page: [], cli: [] };
    for (let r = 0; r < rounds; r++) {
      const { rows, ms } = await pick(dir, true);
      if (rows.length !== files || rows.some((x) => x.status !== 'clean')) throw new Error(`the page gave ${rows.length} rows for ${files} files`);
      times.page.push(files / (ms / 1000));
      const t0 = performance.now();
      const { stdout } = await run(process.execPath, [cli, '-r', dir], { maxBuffer: 1 << 28 });
      times.cli.push(files / ((performance.now() - t0) / 1000));
      if (stdout.split('\n').length - 1 !== files) throw new Error('the command printed another number of lines');
    }
    const base = median(times.cli);
    console.log(`${files} files in ${dir}, ${rounds} rounds, interleaved; files/s, wall clock; ratio to the command`);
    report('page (files picked to last verdict)', times.page, base, 'files/s');
    report('sha1dc-wasm -r (node, process start included)', times.cli, base, 'files/s');
  } else if (opt('memory', null)) {
    const path = opt('memory');
    const size = statSync(path).size;
    // The page's and its workers' JS heaps and ArrayBuffers (wasm memory among them), summed,
    // from the DevTools protocol; and the renderer process's resident memory (all of it).
    const heap = await HeapProbe.open(browser, page, url);
    await heap.collectGarbage();
    const sum = ({ page: p, workers }) => p + workers.reduce((a, b) => a + b, 0);
    const idle = { heaps: sum(await heap.sample()), rss: renderersRss() };
    const peak = { heaps: 0, rss: 0 };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak.heaps = Math.max(peak.heaps, sum(await heap.sample()));
        peak.rss = Math.max(peak.rss, renderersRss());
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const { rows, ms } = await pick(path);
    sampling = false;
    await sampler;
    await heap.close();
    const m = (x) => (x / MiB).toFixed(0);
    console.log(`${m(size)} MiB: ${rows[0].status}, SHA-1 ${rows[0].sha1}, ${(size / MiB / (ms / 1000)).toFixed(0)} MiB/s`);
    console.log(`  page and workers, JS heaps + ArrayBuffers (wasm memory included): ${m(idle.heaps)} MiB idle, ${m(peak.heaps)} MiB at most`);
    console.log(`  renderer process resident (everything, shared pages too): ${m(idle.rss)} MiB idle, ${m(peak.rss)} MiB at most`);
  }
} finally {
  await browser.close();
  server.close();
}

/** Resident bytes of this program's Chromium renderer processes (the page and its workers). */
function renderersRss() {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer') || !descends(pid)) continue;
      const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      total += kb ? Number(kb[1]) * 1024 : 0;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

/** Whether process `pid` descends from this one. */
function descends(pid) {
  for (let p = pid, i = 0; p > 1 && i < 16; i++) {
    const ppid = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))[1]);
    if (ppid === process.pid) return true;
    p = ppid;
  }
  return false;
}
