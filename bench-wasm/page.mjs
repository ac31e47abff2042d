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
//   node page.mjs --folder DIR --trace          the same, once, with a Chrome trace: the main
//                                                thread's and the workers' time by event
//   node page.mjs --reads DIR                   what Chromium alone takes to hand a page the
//                                                folder's files (no page code): their sizes, and
//                                                reading them whole on the main thread, in one
//                                                worker, in two
//   node page.mjs --restyle                     the page's rows alone: 10,000 from its template,
//                                                the time to restyle 256 that get a verdict, as
//                                                the page has them and with content-visibility
//                                                on the card that changes
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
await page.goto(url + (process.env.PAGE_QUERY || ''));
await page.waitForSelector('#backend.ok', { timeout: 30_000 });
console.log(`Chromium ${browser.version()}; Node ${process.version}; backend ${await page.getAttribute('#backend', 'data-backend')}`);

// The moment the page gets the files picked (their `change` event): the time from it to the last
// verdict is the page's own, without the test driver's handing over of the files.
await page.evaluate(() => {
  for (const id of ['files', 'folder']) {
    document.getElementById(id).addEventListener('change', () => { window.pickedAt = performance.now(); }, { capture: true });
  }
});

/**
 * The rows once none is pending, and the page's milliseconds from the pick to the last verdict.
 * It asks the summary, which counts the files still waiting as verdicts arrive (at once for the
 * last): looking at every row every 20 ms would take a folder's page much of its own time.
 */
async function finished() {
  const handle = await page.waitForFunction(() => {
    const waiting = document.getElementById('summary').dataset.running;
    return document.getElementById('results').childElementCount > 0 && waiting === '0' && performance.now() - window.pickedAt;
  }, null, { timeout: 0, polling: 20 });
  const ms = await handle.jsonValue();
  const rows = await page.$$eval('#results .file', (els) => els.map((el) => ({ ...el.dataset })));
  if (rows.some((r) => r.status === 'pending')) throw new Error('the summary said done with rows pending');
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
  } else if (opt('folder', null) && args.includes('--trace')) {
    const dir = opt('folder');
    const events = await traced(() => pick(dir, true).then(({ ms }) => console.log(`${readdirSync(dir).length} files: ${ms.toFixed(0)} ms from the pick to the last verdict`)));
    console.log('ms by thread and event (complete events, nested ones counted in their parents too):');
    for (const [k, us] of threadTimes(events).slice(0, 24)) console.log(`  ${(us / 1000).toFixed(0).padStart(7)}  ${k}`);
  } else if (args.includes('--restyle')) {
    await restyle();
  } else if (opt('reads', null)) {
    await reads(opt('reads'));
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

/** The Chrome trace events (timeline categories) of what `work` makes the page do. */
async function traced(work) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'] },
    transferMode: 'ReportEvents',
  });
  await work();
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  return events;
}

/** Microseconds by renderer thread and event name, most first. */
function threadTimes(events) {
  const names = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  const sums = new Map();
  for (const e of events) {
    const thread = names.get(`${e.pid}:${e.tid}`) ?? '';
    if (e.ph !== 'X' || !e.dur || !/CrRendererMain|DedicatedWorker/.test(thread)) continue;
    const key = `${thread} | ${e.name}`;
    sums.set(key, (sums.get(key) ?? 0) + e.dur);
  }
  return [...sums].sort((a, b) => b[1] - a[1]);
}

/**
 * The page's rows alone: 10,000 made from its template in a fresh page, then six times 256 of
 * them, off screen, given a verdict (the card's `data-status`, its digests, its progress bar
 * hidden) and restyled at once; as the page has them (`content-visibility` on each row's frame,
 * the card inside changing), and with `content-visibility` moved to the card that changes.
 */
async function restyle() {
  console.log('10,000 rows; ms to restyle 256 that get a verdict, then to the second frame after, six times');
  for (const onCard of [false, true]) {
    const fresh = await browser.newPage();
    await fresh.goto(url);
    await fresh.waitForSelector('#backend.ok', { timeout: 30_000 });
    const ms = await fresh.evaluate(async (onCard) => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
      if (onCard) {
        for (const sheet of document.styleSheets) {
          for (const rule of sheet.cssRules) {
            if (rule.selectorText === '.row') rule.style.removeProperty('content-visibility');
            if (rule.selectorText === '.file') rule.style.setProperty('content-visibility', 'auto');
          }
        }
      }
      const template = document.getElementById('file-template');
      const rows = Array.from({ length: 10_000 }, () => template.content.firstElementChild.cloneNode(true));
      document.getElementById('results').append(...rows);
      await frame();
      await frame();
      const times = [];
      for (let b = 0; b < 6; b++) {
        const t0 = performance.now();
        for (const row of rows.slice(3000 + b * 256, 3000 + (b + 1) * 256)) {
          const card = row.querySelector('.file');
          card.dataset.status = 'clean';
          card.querySelector('.digests').textContent = 'x'.repeat(40);
          card.querySelector('.bar').hidden = true;
        }
        document.body.offsetHeight;
        const t1 = performance.now();
        await frame();
        await frame();
        times.push(`${(t1 - t0).toFixed(0)}+${(performance.now() - t1).toFixed(0)}`);
      }
      return times;
    }, onCard);
    console.log(`  ${(onCard ? 'content-visibility on the card' : 'as the page has them').padEnd(32)} ${ms.join(' ')}`);
    await fresh.close();
  }
}

/**
 * Chromium's part of a folder, without the page: a bare page picks DIR's files, then, each in a
 * fresh pick, reads every file's size on the main thread; reads them whole there (64 reads in
 * flight); posts them to one worker that reads them; and to two workers, half each.
 */
async function reads(dir) {
  const bare = await browser.newPage();
  const workerSource = `onmessage = async ({ data: files }) => {
    const t0 = performance.now();
    let next = 0;
    const lane = async () => { while (next < files.length) await files[next++].arrayBuffer(); };
    await Promise.all(Array.from({ length: 64 }, lane));
    postMessage(performance.now() - t0);
  };`;
  const ways = {
    'sizes on the main thread': 'size',
    'read whole on the main thread': 'main',
    'posted to a worker, read there': 'worker',
    'posted to two workers, half each': 'two',
  };
  console.log(`${readdirSync(dir).length} files in ${dir}; ms from the pick, one pick each`);
  for (const [label, way] of Object.entries(ways)) {
    await bare.setContent('<input type="file" id="f" webkitdirectory multiple>');
    await bare.evaluate(([way, src]) => {
      window.took = null;
      const worker = () => new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
      const inWorker = (files) => new Promise((resolve) => {
        const w = worker();
        w.onmessage = ({ data }) => { w.terminate(); resolve(data); };
        w.postMessage(files);
      });
      document.getElementById('f').addEventListener('change', async (e) => {
        const files = [...e.target.files];
        const t0 = performance.now();
        if (way === 'size') {
          let bytes = 0;
          for (const f of files) bytes += f.size;
        } else if (way === 'main') {
          let next = 0;
          const lane = async () => { while (next < files.length) await files[next++].arrayBuffer(); };
          await Promise.all(Array.from({ length: 64 }, lane));
        } else if (way === 'worker') {
          await inWorker(files);
        } else {
          const half = files.length >> 1;
          await Promise.all([inWorker(files.slice(0, half)), inWorker(files.slice(half))]);
        }
        window.took = performance.now() - t0;
      });
    }, [way, workerSource]);
    await bare.setInputFiles('#f', dir);
    const ms = await (await bare.waitForFunction(() => window.took, null, { timeout: 0, polling: 50 })).jsonValue();
    console.log(`  ${label.padEnd(36)} ${ms.toFixed(0).padStart(7)} ms`);
  }
  await bare.close();
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
