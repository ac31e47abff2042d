// The page's files as a whole, in Node: the service worker keeps every one of them (a module it
// missed would break the page offline), and no function in them grows past about 60 lines.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WWW = fileURLToPath(new URL('../../www/', import.meta.url));
const own = readdirSync(WWW).filter((f) => /\.(html|css|js)$/.test(f) && f !== 'sw.js').sort();

describe('www/', () => {
  it('the service worker keeps every file of the page', () => {
    const sw = readFileSync(join(WWW, 'sw.js'), 'utf8');
    const list = /const FILES = \[([^\]]*)\]/.exec(sw)[1].match(/'[^']*'/g).map((q) => q.slice(1, -1));
    assert.deepEqual(list.filter((f) => !f.startsWith('pkg/') && f !== './').sort(), own);
  });

  it('has no function over 60 lines', () => {
    const long = [];
    for (const file of own.filter((f) => f.endsWith('.js'))) {
      const lines = readFileSync(join(WWW, file), 'utf8').split('\n');
      // A function starts on a line that opens a body and ends at the first line back at its indent
      // that closes it; nested ones are measured on their own.
      lines.forEach((line, i) => {
        const m = /^(\s*)(?:export )?(?:async )?(?:function\b|\w+\s*\(.*\)\s*\{$|(?:const|let) \w+ = (?:async )?\(.*\) => \{$)/.exec(line);
        if (!m || !line.trimEnd().endsWith('{')) return;
        const end = lines.findIndex((l, j) => j > i && l.startsWith(`${m[1]}}`));
        if (end - i + 1 > 60) long.push(`${file}:${i + 1} ${end - i + 1} lines`);
      });
    }
    assert.deepEqual(long, []);
  });
});
