// Shared by the node --test files: paths, test data, reference SHA-1.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));
// SHA1DC_PKG_DIR: another build of the package (to check that a test fails on an older one).
export const pkgDir = process.env.SHA1DC_PKG_DIR || `${root}pkg`;
export const dataDir = `${root}tests/data`;

export const data = (name) => readFileSync(`${dataDir}/${name}`);

/** Rows of a tab-separated file of tests/data, header skipped. */
export function tsv(name) {
  return readFileSync(`${dataDir}/${name}`, 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .slice(1)
    .map((l) => l.split('\t'));
}

export const plainSha1 = (bytes) => createHash('sha1').update(bytes).digest('hex');

/** Deterministic pseudo-random bytes. */
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
