// The time left for a large file (www/remaining.js), in Node: fed progress reports as the worker
// sends them (whole chunks, every few tens of milliseconds, at a noisy rate), the text shown
// must count down steadily, be close to the truth, and follow a real slowdown.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TimeLeft } from '../../www/remaining.js';
import { timeLeftText } from '../../www/format.js';

const MiB = 1024 * 1024;
const CHUNK = 2 * MiB;

/** A fixed-seed generator in [0, 1), so a failure can be replayed. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Reports for a `total`-byte file read in whole chunks at `rateAt(ms)` MiB/s, times `1 ± noise`
 * per report, one report per 50 ms: [{ done, ms, truth }] with `truth` the seconds really left.
 */
function simulate(total, rateAt, noise, seed) {
  const rand = random(seed);
  const steps = [];
  let bytes = 0;
  for (let ms = 50; bytes < total; ms += 50) {
    bytes = Math.min(total, bytes + rateAt(ms) * MiB * 0.05 * (1 + noise * (2 * rand() - 1)));
    steps.push({ done: Math.min(total, Math.floor(bytes / CHUNK) * CHUNK), ms });
  }
  // The truth: when the file was in fact done, less the time of the report.
  const end = steps.at(-1).ms;
  return steps.map((s) => ({ ...s, truth: (end - s.ms) / 1000 }));
}

function run(total, steps) {
  const left = new TimeLeft();
  return steps.map((s) => ({ ...s, seconds: left.update(s.done, total, s.ms) }));
}

describe('TimeLeft', () => {
  it('says nothing for the first second', () => {
    const out = run(4096 * MiB, simulate(4096 * MiB, () => 200, 0.3, 1));
    assert.ok(out.filter((s) => s.ms < 1000).every((s) => s.seconds === null));
    assert.ok(out.filter((s) => s.ms >= 1100).every((s) => s.seconds !== null));
  });

  for (const seed of [1, 2, 3]) {
    it(`counts down steadily at a noisy rate, close to the truth (seed ${seed})`, () => {
      const total = 4096 * MiB; // about 20 s at 200 MiB/s
      const out = run(total, simulate(total, () => 200, 0.3, seed)).filter((s) => s.seconds !== null);
      const texts = out.map((s) => timeLeftText(s.seconds));
      const values = out.map((s) => s.seconds);
      for (let i = 1; i < values.length; i++) {
        assert.ok(values[i] <= values[i - 1] + 1e-9, `went up at ${out[i].ms} ms: ${values[i - 1]} -> ${values[i]}`);
      }
      // The text changes seldom: at most once per bucket it passes through.
      const changes = texts.filter((t, i) => i > 0 && t !== texts[i - 1]).length;
      assert.ok(changes <= new Set(texts).size, `${changes} changes for ${new Set(texts).size} texts`);
      for (const s of out.filter((x) => x.truth > 3)) {
        assert.ok(Math.abs(s.seconds - s.truth) <= 0.15 * s.truth + 1, `at ${s.ms} ms: ${s.seconds.toFixed(1)} s shown, ${s.truth} s left`);
      }
    });
  }

  it('follows a real slowdown upward, smoothly', () => {
    const total = 4096 * MiB;
    // 400 MiB/s for 4 s (1600 MiB), then 100 MiB/s: about 25 s more.
    const steps = simulate(total, (ms) => (ms <= 4000 ? 400 : 100), 0.2, 7);
    const out = run(total, steps);
    const at = (ms) => out.find((s) => s.ms >= ms);
    assert.ok(at(3900).seconds < 10, `before: ${at(3900).seconds}`);
    const after = at(4000 + 10_000);
    assert.ok(Math.abs(after.seconds - after.truth) <= 0.2 * after.truth, `10 s after the slowdown: ${after.seconds.toFixed(1)} s shown, ${after.truth} s left`);
    // No jump: between two reports (50 ms) the shown time moves by less than a second.
    const moves = out.filter((s, i) => i && s.seconds !== null && out[i - 1].seconds !== null)
      .map((s, i) => Math.abs(s.seconds - out.filter((x) => x.seconds !== null)[i].seconds));
    assert.ok(Math.max(...moves) < 1, `largest step ${Math.max(...moves).toFixed(2)} s`);
  });
});
