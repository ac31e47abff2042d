// The checker page on a real pack, against stock git: rounds of `git index-pack --threads=2`
// (git's C sha1dc, the same hashing) and of the page in headless Chromium checking the pack
// with its .idx (picked with "Choose files…", read by the workers in slices), interleaved: the
// object check alone (the option "Blob contents as files" off: the work index-pack does), then
// with the content check (the page's default).
// Prints, per round, the wall time, the CPU time (git's; the browser's processes'), the peak
// memory (git's maximum RSS; the tab's renderer process, which holds the page and its workers),
// the page's longest gap between two redraws of its progress, and the page's verdict line.
//   node tests/page/git-bench.mjs PACK [ROUNDS [page]]   (page: the page alone, no git)
// (scripts/test-browser.sh builds www/pkg first.)
// Not a test: git.git's pack (496 MB) takes minutes per round.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../shared.mjs';
import { openChecker, serve } from './helpers.mjs';

const [pack, rounds = '2', only] = process.argv.slice(2);
if (!pack?.endsWith('.pack')) {
  console.error('usage: node tests/page/git-bench.mjs PACK [ROUNDS]');
  process.exit(2);
}
const idx = pack.replace(/\.pack$/, '.idx');
const TICK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** git index-pack --threads=2 on a copy of nothing: it reads the pack and writes an index in a scratch folder. */
function indexPack() {
  const dir = mkdtempSync(join(tmpdir(), 'index-pack-'));
  try {
    const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', 'git', 'index-pack', '--threads=2', '-o', join(dir, 'out.idx'), pack], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    const [wall, user, sys, kib] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
    return { wall, cpu: user + sys, mib: kib / 1024 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The browser's processes: pid, type (renderer, gpu-process, …, or browser), CPU seconds, RSS in MiB. */
function chromiumProcesses() {
  const out = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('chromium')) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kib = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      // RssAnon: the process's own memory; VmRSS also counts the shared memory through which the
      // browser's process hands it the file's bytes.
      out.push({ pid, type: /--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser', cpu: (Number(stat[11]) + Number(stat[12])) / TICK, rss: kib('VmRSS') / 1024, anon: kib('RssAnon') / 1024 });
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}
const cpuOf = (procs) => procs.reduce((s, p) => s + p.cpu, 0);

async function pageRun(browser, url, content) {
  const { context, page } = await openChecker(browser, url);
  if (!content) await page.uncheck('#opt-git-content');
  await page.evaluate(() => {
    window.__redraws = [];
    new MutationObserver(() => window.__redraws.push(performance.now()))
      .observe(document.body, { subtree: true, childList: true, characterData: true, attributeFilter: ['data-objects'] });
  });
  const before = chromiumProcesses();
  const pids = new Set(before.map((p) => p.pid));
  const t0 = performance.now();
  await page.setInputFiles('#files', [pack, idx]);
  let peak = 0;
  let peakAnon = 0;
  let said = 0;
  for (;;) {
    const { status, objects } = await page.evaluate(() => ({ ...document.querySelector('.git-run')?.dataset }));
    if (performance.now() - said > 10_000) {
      said = performance.now();
      process.stderr.write(`  ${((said - t0) / 1000).toFixed(0)} s: ${objects ?? 0} objects\n`);
    }
    const renderers = chromiumProcesses().filter((p) => p.type === 'renderer');
    for (const r of renderers) {
      peak = Math.max(peak, r.rss);
      peakAnon = Math.max(peakAnon, r.anon);
    }
    if (status && status !== 'pending') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const wall = (performance.now() - t0) / 1000;
  const after = chromiumProcesses().filter((p) => pids.has(p.pid));
  const gaps = await page.evaluate(() => window.__redraws.slice(1).map((t, i) => t - window.__redraws[i]));
  const verdict = await page.locator('.git-run .git-why').textContent();
  await context.close();
  return { wall, cpu: cpuOf(after) - cpuOf(before.filter((p) => after.some((a) => a.pid === p.pid))), mib: peak, anon: peakAnon, gap: Math.max(...gaps), verdict };
}

const { server, url } = await serve();
const browser = await launchChromium();
try {
  for (let i = 1; i <= Number(rounds); i++) {
    const g = only === 'page' ? { wall: NaN, cpu: NaN, mib: NaN } : indexPack();
    console.log(`round ${i}: git index-pack --threads=2: ${g.wall.toFixed(1)} s wall, ${g.cpu.toFixed(1)} s CPU, ${g.mib.toFixed(0)} MiB max RSS`);
    for (const content of [false, true]) {
      const p = await pageRun(browser, url, content);
      const what = content ? 'with the content check' : 'the object check';
      console.log(`round ${i}: the page (Chromium), ${what}: ${p.wall.toFixed(1)} s wall, ${p.cpu.toFixed(1)} s CPU, renderer at most ${p.mib.toFixed(0)} MiB RSS (${p.anon.toFixed(0)} MiB of it its own, RssAnon), progress redrawn at least every ${p.gap.toFixed(0)} ms`);
      console.log(`round ${i}: ratio page/index-pack ${(p.wall / g.wall).toFixed(2)} (wall), ${what}; the page says: ${p.verdict}`);
    }
  }
} finally {
  await browser.close();
  server.close();
}
