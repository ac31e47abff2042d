// What the npm package's tests share beyond tests/shared.mjs: a test file's bytes, and
// deterministic pseudo-random input.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA } from '../shared.mjs';

export const data = (name) => readFileSync(join(DATA, name));

/** Deterministic pseudo-random bytes (xorshift32). */
export function bytes(n, seed = 1) {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
