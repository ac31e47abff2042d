// Results the unit tests of the page's modules start from: "abc", the empty message, and the
// first SHAttered PDF as the library reports it (tests/data/MANIFEST.tsv has the same values).
// Importing it loads the package's module the page's own modules use (www/pkg, which
// scripts/www-pkg.sh copies in), as the page does on its main thread.
import { readFileSync } from 'node:fs';
import { init } from '../../www/pkg/index.mjs';

await init(readFileSync(new URL('../../www/pkg/wasm/sha1dc_wasm_bg.wasm', import.meta.url)));

export const ABC = 'a9993e364706816aba3e25717850c26c9cd0d89d';
export const EMPTY = 'da39a3ee5e6b4b0d3255bfef95601890afd80709';
/** A clean result: the output is the SHA-1. */
export const clean = { hex: ABC, sha1: ABC, collision: null };
/** shattered-1.pdf: the safe hash as output, the plain SHA-1 beside it, the flagged block. */
export const forged = {
  hex: '16e96b70000dd1e7c85b8368ee197754400e58ec',
  sha1: '38762cf7f55934b34d179ae6a4c80cadccbb7f0a',
  collision: { offset: 256, block: 4, dv: 'II(52,0)', count: 1 },
};
