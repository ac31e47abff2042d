// The measuring both runners share (bench.mjs in Node, browser/bench.mjs in Chromium): every
// implementation runs once per round for about `ms` milliseconds of `clock`, in an order that
// rotates between rounds; each one's median over the rounds, and the ratios to the first.

/**
 * Runs f(data) repeatedly for about `ms` of `clock`; returns MB/s (10^6 bytes), counting `bytes`
 * per call (the data's length unless given).
 */
export function measure(f, data, ms, clock, bytes = data.length) {
  // Calibrate the batch size so clock reads are a negligible part.
  let batch = 1;
  for (;;) {
    const t0 = clock();
    for (let i = 0; i < batch; i++) f(data);
    if (clock() - t0 > 5) break;
    batch *= 2;
  }
  let done = 0;
  const t0 = clock();
  let t1 = t0;
  while (t1 - t0 < ms) {
    for (let i = 0; i < batch; i++) f(data);
    done += batch;
    t1 = clock();
  }
  return (done * bytes) / ((t1 - t0) * 1e3);
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const fmtSize = (n) => (n >= 1 << 20 ? `${n >> 20} MiB` : n >= 1024 ? `${n >> 10} KiB` : `${n} B`);

/**
 * `impls` ([name, f] pairs, the first the one compared) on `data`, interleaved: warmed up, then
 * `rounds` rounds of about `ms` each. Prints a table with `log` under `title`; returns
 * { name: { median, samples } }.
 */
export function interleaved(impls, data, { rounds, ms, clock, log, title, bytes = data.length }) {
  for (const [, f] of impls) measure(f, data, 50, clock, bytes);
  const samples = new Map(impls.map(([name]) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < impls.length; k++) {
      const [name, f] = impls[(k + r) % impls.length];
      samples.get(name).push(measure(f, data, ms, clock, bytes));
    }
  }
  const first = impls[0][0];
  const ours = median(samples.get(first));
  const width = Math.max(24, ...impls.map(([n]) => n.length));
  log(`\n${title}`);
  log(`  ${'implementation'.padEnd(width)} ${'MB/s (median)'.padStart(14)}  ${'min..max'.padStart(15)}  ${first} vs it`);
  const out = {};
  for (const [name] of impls) {
    const xs = samples.get(name);
    const m = median(xs);
    out[name] = { median: m, samples: xs };
    const range = `${Math.min(...xs).toFixed(0)}..${Math.max(...xs).toFixed(0)}`;
    log(`  ${name.padEnd(width)} ${m.toFixed(1).padStart(14)}  ${range.padStart(15)}  ${name === first ? '' : `${(ours / m).toFixed(2)}x`}`);
  }
  return out;
}

/** `count` messages of `size` bytes each, from a fixed-seed xorshift32 generator. */
export function messagesOf(count, size, seed) {
  let x = seed;
  return Array.from({ length: count }, () => {
    const m = new Uint8Array(size);
    for (let i = 0; i < size; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      m[i] = x & 0xff;
    }
    return m;
  });
}

/** The batch sets: [size, seed] of each, `count` messages. */
export const BATCH_SETS = [[4096, 0x5eed4096], [64, 0x5eed0064]];

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
export const toHex = (bytes) => {
  let s = '';
  for (const b of bytes) s += HEX[b];
  return s;
};

/**
 * The whole run: `impls` on each of `sizes` (random bytes from `random(n)`), then `batchImpls`
 * on each batch set of `batchCount` messages; each digest list checked against `want(bytes)`
 * first. Returns { results, batches } as the tables show them.
 */
export function run({ impls, batchImpls, sizes, batchCount, rounds, ms, clock, log, random, want }) {
  // Every implementation must agree before any is timed.
  for (const n of [0, 1, 55, 56, 64, 1000, 100_000]) {
    const d = random(n);
    const w = want(d);
    for (const [name, f] of impls) {
      if (f(d) !== w) throw new Error(`${name} disagrees at ${n} bytes`);
    }
  }
  const results = {};
  for (const size of sizes) {
    results[size] = interleaved(impls, random(size), { rounds, ms, clock, log, title: fmtSize(size) });
  }
  const batches = {};
  if (batchCount > 0) {
    for (const [size, seed] of BATCH_SETS) {
      const messages = messagesOf(batchCount, size, seed);
      const expected = messages.map(want);
      for (const [name, f] of batchImpls) {
        const got = f(messages);
        if (got.length !== expected.length || got.some((h, i) => h !== expected[i])) throw new Error(`${name} disagrees on the ${size} B set`);
      }
      const set = `${batchCount} x ${fmtSize(size)}`;
      batches[set] = interleaved(batchImpls, messages, {
        rounds, ms, clock, log, bytes: batchCount * size, title: `batch: ${set} (one sha1dcMany call per set)`,
      });
    }
  }
  return { results, batches };
}
