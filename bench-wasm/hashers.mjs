// What a hasher left without digest() or free() costs in a long synchronous loop: the loop
// creates a hasher, updates it with one message and drops it, a million times, and the time of
// each tenth of the loop shows whether the dropped ones pile up (a finalizer cannot run before
// the loop yields). The same loop with digest() is the control. Each runs in a process of its
// own; the figures are CPU time per hasher and the process's peak resident set.
//
//   node hashers.mjs [--count 1000000] [--size 64] [--pkg ../pkg]
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const count = Number(opt('count', 1_000_000));
const size = Number(opt('size', 64));
const pkg = resolve(opt('pkg', fileURLToPath(new URL('../pkg', import.meta.url))));

if (opt('child', null) !== null) {
  await child(opt('child'));
} else {
  console.log(`${count} hashers of ${size} B each, ${pkg}; CPU time per hasher in each tenth of the loop (µs)`);
  for (const mode of ['digest', 'drop']) {
    const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), ...args, '--child', mode], { encoding: 'utf8' });
    const r = JSON.parse(out);
    const tenths = r.tenths.map((us) => us.toFixed(2)).join(' ');
    console.log(`${mode.padEnd(6)} total ${r.totalUs.toFixed(2)} µs/hasher; tenths ${tenths}; peak RSS ${r.maxRssMiB} MiB`);
  }
}

async function child(mode) {
  const { createHasher } = await import(pathToFileURL(`${pkg}/node.mjs`).href);
  const msg = new Uint8Array(size).fill(0x61);
  const cpu = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  const tenths = [];
  const start = cpu();
  let mark = start;
  for (let i = 1; i <= count; i++) {
    const h = createHasher().update(msg);
    if (mode === 'digest') h.digest();
    if (i % (count / 10) === 0) {
      const now = cpu();
      tenths.push((now - mark) / (count / 10));
      mark = now;
    }
  }
  const totalUs = (cpu() - start) / count;
  process.stdout.write(JSON.stringify({ totalUs, tenths, maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024) }));
}
