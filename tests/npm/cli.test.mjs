// `npx sha1dc-wasm`, the package's command from the packed tarball, side by side with the Rust
// sha1dcsum (cargo build --bin sha1dcsum) over one table of cases: every option, every mode,
// odd names (newline, carriage return, backslash, not UTF-8, `coll* x`), standard input,
// missing and unreadable files, checksum lists with bad lines. Each case runs both commands
// (through bash, so that any byte can be an argument) and compares standard output byte for
// byte, standard error with the program's name made the same, and the exit status.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, copyFileSync, mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DATA, ROOT, installTarball, readTsv, sha1 } from '../shared.mjs';

const B = (x) => (Buffer.isBuffer(x) ? x : Buffer.from(x));
/** A name that is not UTF-8. */
const LATIN1 = Buffer.from('f\xe9\xff.bin', 'latin1');
const MANIFEST = Object.fromEntries(readTsv('MANIFEST.tsv').map((r) => [r.file, r]));
const COLLIDING = ['shattered-1.pdf', 'shattered-2.pdf', 'sha-mbles-1.bin', 'sha1_reducedsha_coll.bin'];
/** Files with odd names, and their contents. */
const ODD = [
  ['abc.txt', 'abc'],
  ['empty', ''],
  ['sp ace', 'space\n'],
  ['new\nline', 'newline\n'],
  ['back\\slash', 'backslash\n'],
  ['cr\rname', 'carriage return\n'],
  ['é.txt', 'utf-8 name\n'],
  ['x', 'x itself\n'],
  ['coll* x', 'a file named coll* x\n'],
  ['coll* only', 'no file named only\n'],
  ['*star', 'star\n'],
  ['-', 'a file named -\n'],
];
/** What cannot be read, each its own way. */
const UNREADABLE = ['missing', 'a-dir', 'dangling', 'loop', 'abc.txt/x', 'n'.repeat(300), '/proc/self/mem', 'locked'];

function makeFiles(dir) {
  mkdirSync(join(dir, 'a-dir'), { recursive: true });
  for (const f of COLLIDING) copyFileSync(join(DATA, f), join(dir, f));
  for (const [name, text] of ODD) writeFileSync(join(dir, name), text);
  writeFileSync(Buffer.from(`${dir}/${LATIN1.toString('latin1')}`, 'latin1'), 'latin-1 name\n');
  symlinkSync('nowhere', join(dir, 'dangling'));
  symlinkSync('loop', join(dir, 'loop'));
  writeFileSync(join(dir, 'locked'), 'locked\n');
  chmodSync(join(dir, 'locked'), 0); // unreadable, unless we run as root
  for (const [name, text] of Object.entries(lists())) writeFileSync(join(dir, name), text);
  // Large enough for the filter worker: a collision at the start, and clean bytes.
  const large = Buffer.alloc(16 * 1024 * 1024 + 321, 0x5a);
  readFileSync(join(DATA, 'shattered-1.pdf')).copy(large);
  writeFileSync(join(dir, 'large.bin'), large);
  writeFileSync(join(dir, 'large-clean.bin'), large.subarray(320));
  writeFileSync(join(dir, 'large.sums'), `${sha1(large.subarray(320))}  large-clean.bin\n${sha1(large)}  large.bin\n`);
  writeFileSync(Buffer.from(`${dir}/latin1.sums`, 'latin1'), Buffer.concat([B(`${sha1('latin-1 name\n')}  `), LATIN1, B('\n')]));
  makeTree(join(dir, 'tree'));
}

/** A tree for --recursive: names in an order only bytes decide, links and a FIFO to skip. */
function makeTree(tree) {
  for (const sub of ['B', 'a', 'a/deeper', 'empty', 'é']) mkdirSync(join(tree, sub), { recursive: true });
  for (const name of ['Z', 'b', 'a/1', 'a/deeper/x', 'a b', 'é/é', 'a.txt', '_']) writeFileSync(join(tree, name), `${name}\n`);
  writeFileSync(Buffer.from(`${tree}/${LATIN1.toString('latin1')}`, 'latin1'), 'latin-1 name in a tree\n');
  copyFileSync(join(DATA, 'shattered-1.pdf'), join(tree, 'B', 'shattered-1.pdf'));
  symlinkSync('b', join(tree, 'link-to-file'));
  symlinkSync('a', join(tree, 'link-to-dir'));
  execFileSync('mkfifo', [join(tree, 'fifo')]);
  symlinkSync('tree', join(tree, '..', 'tree-link'));
}

/** Checksum lists, as the files they are written to. */
function lists() {
  const sum = (name) => sha1(ODD.find(([n]) => n === name)[1]);
  const out = (f) => MANIFEST[f].sha1dc_output_hex;
  const A = sum('abc.txt');
  return {
    'good.sums': [
      `${A}  abc.txt`,
      `${sum('empty')} *empty`,
      `SHA1 (sp ace) = ${sum('sp ace')}`,
      `\\${sum('new\nline')}  new\\nline`,
      `\\${sum('back\\slash')}  back\\\\slash`,
      `\\SHA1 (cr\\rname) = ${sum('cr\rname')}`,
      `${sum('é.txt').toUpperCase()}  é.txt`,
      `  ${sum('x')}  x\r`,
      `${sum('-')}  ./-`,
      '',
    ].join('\n'),
    'mixed.sums': [
      `${'0'.repeat(40)}  abc.txt`,
      `${A}  missing`,
      `${A}  a-dir`,
      `${A}  locked`,
      `${out('shattered-1.pdf')} *coll* shattered-1.pdf`,
      `${MANIFEST['shattered-2.pdf'].sha1_plain_hex}  shattered-2.pdf`,
      `SHA1 (sha-mbles-1.bin) = ${out('sha-mbles-1.bin')} *coll*`,
      `SHA1 (sha1_reducedsha_coll.bin) = *coll* ${out('sha1_reducedsha_coll.bin')}`,
      `SHA1 (abc.txt) = not a checksum`,
      `SHA1 (shattered-2.pdf) = *coll*garbage`,
      `${sum('x')} *coll* x`,
      `${sum('coll* only')} *coll* only`,
      `${sum('coll* x')}  coll* x`,
      'not a checksum line',
      '# a comment',
      '',
      '\r',
      ' # blanks before a comment',
      `#${A}  abc.txt`,
      `\\#${A}  abc.txt`,
      `${A.slice(1)}  abc.txt`,
      `\\${A}  bad\\escape`,
      `MD5 (abc.txt) = ${A}`,
      `${A}  abc.txt`,
    ].join('\n'),
    'improper.sums': 'nothing here\n\n',
    'comments.sums': '# only comments\n\n#\r\n',
    'missing.sums': `${A}  missing\n${A}  also-missing\n`,
    'coll.sums': `${out('shattered-1.pdf')} *coll* shattered-1.pdf\n`,
    'tagonly.sums': 'SHA1 (shattered-1.pdf) = ?\nSHA1 (abc.txt) = ?\n',
    'zero.sums': `${sum('new\nline')}  new\nline\0${A} *abc.txt\0SHA1 (back\\slash) = ${sum('back\\slash')}\0junk\0`,
    'stdin.sums': `${sha1('from stdin')}  -\n${A}  abc.txt\n`,
    'empty.sums': '',
    'noeol.sums': `${A}  abc.txt`,
    // The forms GNU reads besides its own: OpenSSL's, blanks around =, a tab after the hex.
    'forms.sums': [`SHA1(abc.txt)= ${A}`, `SHA1 (x)=${sum('x')}`, `SHA1 (sp ace)  =\t${sum('sp ace')}`, `${A}\tabc.txt`, `${A}\t*abc.txt`, `${sum('empty')} empty`, ''].join('\n'),
  };
}

const FILES = [...COLLIDING, ...ODD.map(([n]) => n).filter((n) => n !== '-'), './-', LATIN1];
const MODES = [[], ['-t'], ['-b'], ['--binary'], ['--tag'], ['--tag', '-b'], ['-z'], ['--tag', '-z'], ['-bz'], ['--json'], ['--no-safe-hash'], ['--reduced-round'], ['--git-blob'], ['--git-blob', '--json', '--reduced-round'], ['-j', '1'], ['-j3'], ['--jobs=2'], ['--no-s', '--red', '--js']];
const LISTS = ['good.sums', 'mixed.sums', 'improper.sums', 'comments.sums', 'missing.sums', 'coll.sums', 'tagonly.sums', 'empty.sums', 'noeol.sums', 'forms.sums', 'latin1.sums', 'a-dir', 'missing'];
/** Options of --check, each over every list; then more, over the list with every kind of line. */
const CHECKS = [[], ['--quiet'], ['--status'], ['--strict', '-w'], ['--ignore-missing']];
const MORE_CHECKS = [['--strict'], ['--warn'], ['--quiet', '--ignore-missing'], ['--no-safe-hash'], ['--git-blob'], ['--reduced-round'], ['--sta'], ['--stri', '--qu'], ['-j2']];

/** The table: { args, input, shell (a redirection), backends (stderr's list of backends differs) }. */
const CASES = [
  // Every mode over every file, good, odd and unreadable.
  ...MODES.map((mode) => ({ args: [...mode, ...FILES, ...UNREADABLE] })),
  // --recursive: trees, a link to one given, files and - beside them.
  { args: ['-r', 'tree'] },
  { args: ['--recursive', 'tree/', 'abc.txt', '-', 'tree-link', 'missing'], input: 'stdin' },
  { args: ['-r', '--json', '--git-blob', 'tree'] },
  { args: ['-rz', '--tag', 'tree'] },
  { args: ['-r', '.'] },
  { args: ['tree'] },
  // Files large enough for the filter worker, in the modes that change what it does.
  ...[[], ['--git-blob'], ['--no-safe-hash', '--json'], ['--reduced-round'], ['-j', '1'], ['--git-blob', '-j1']].map((mode) => ({ args: [...mode, 'large.bin', 'large-clean.bin'] })),
  { args: ['-c', 'large.sums'] },
  // Standard input.
  { args: [], input: 'hello\n' },
  { args: ['-'], input: 'hello\n' },
  { args: ['-', 'abc.txt', '-'], input: 'read once\n' },
  { args: ['--git-blob', '-'], input: 'hello\n' },
  { args: ['--json'], input: 'x' },
  { args: ['-z', '--tag'], input: '' },
  { args: ['--', '-', '--json', '-h'], input: 'after --' },
  // Checking, every list with every option set.
  ...CHECKS.flatMap((opts) => LISTS.map((list) => ({ args: ['-c', ...opts, list] }))),
  ...MORE_CHECKS.map((opts) => ({ args: ['-c', ...opts, 'mixed.sums'] })),
  { args: ['-c', 'good.sums', 'mixed.sums', 'missing'] },
  { args: ['--check', '-z', 'zero.sums'] },
  { args: ['-cz', '--warn', 'zero.sums'] },
  { args: ['-c'], input: `${sha1('abc')}  abc.txt\n` },
  { args: ['-c', '-'], input: 'bad line\n' },
  { args: ['-c', 'stdin.sums'], input: 'from stdin' },
  { args: ['-c', '--ignore-missing', '--status', 'missing.sums'] },
  // Usage: unknown, ambiguous, abbreviated, conflicting, missing values.
  ...[['--bogus'], ['-x'], [B('-\xe9')], ['-b', '-q'], ['--s'], ['--st'], ['--ba'], ['--backend'], ['-j'], ['-j', '0'], ['-jx'], ['--jobs=-1'], ['--jobs', '+2', 'abc.txt'], ['--json=1'], ['--tag=x'], ['--quiet'], ['--status', 'abc.txt'], ['-w'], ['--strict'], ['--ignore-missing'], ['-c', '--tag'], ['-c', '-b'], ['-c', '-t'], ['-c', '--json'], ['--tag', '-t'], ['--json', '-z'], ['--json', '--tag'], ['-c', '-r'], ['--r'], ['--re', 'tree'], ['--rec', 'tree'], ['--gen', 'nope'], ['--bogus', '-h'], ['--', '--bogus']].map((args) => ({ args })),
  // The help differs (its own text: the test below); the version only by the program's name.
  { args: ['abc.txt', '-h', '--bogus'], help: true },
  { args: ['-V'], named: true },
  { args: ['--version'], named: true },
  { args: ['--vers'], named: true },
  { args: ['--backend', 'nope', 'abc.txt'], backends: true },
  { args: ['--backend=nope'], backends: true },
  { args: ['abc.txt'], env: { SHA1DC_BACKEND: 'nope' }, backends: true },
  // Output that cannot be written.
  { args: ['abc.txt', 'shattered-1.pdf'], shell: '>/dev/full' },
  { args: ['-c', 'good.sums'], shell: '>/dev/full' },
];

/** A byte string as a bash word: $'...' with every byte but a few escaped. */
const quote = (x) => `$'${[...B(x)].map((b) => (/[\w./=+-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('')}'`;

/** Runs a command in the files' folder; { stdout (bytes), stderr, status }. */
function run(cmd, { args, input = '', env = {}, shell = '' }) {
  const r = spawnSync('bash', ['-c', script(cmd, args, shell)], { cwd: work, input, env: environment(env), maxBuffer: 1 << 26 });
  return { stdout: r.stdout, stderr: r.stderr.toString(), status: r.status };
}

/** run(), without waiting: the cases run a few at a time. */
function start(cmd, { args, input = '', env = {}, shell = '' }) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script(cmd, args, shell)], { cwd: work, env: environment(env) });
    const [out, err] = [[], []];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString(), status }));
    child.stdin.on('error', () => {}); // a command that reads no input may close it first
    child.stdin.end(input);
  });
}

const script = (cmd, args, shell) => `exec ${[...cmd, ...args].map(quote).join(' ')} ${shell}`;
const environment = (env) => ({ ...process.env, SHA1DC_BACKEND: '', ...env });

/** What differs between the two commands' runs of case `c`: '' when nothing. */
function compare(c, want, got) {
  const same = (s) => (c.named ? s.replaceAll('sha1dc-wasm', 'sha1dcsum') : s);
  let [stderr, wantErr] = [got.stderr.replaceAll('sha1dc-wasm', 'sha1dcsum'), want.stderr];
  if (c.backends) [stderr, wantErr] = [stderr, wantErr].map((s) => s.replace(/; available backends: .*/, ''));
  const problems = [];
  const [stdout, wantOut] = [same(got.stdout.toString('latin1')), want.stdout.toString('latin1')];
  if (!c.help && stdout !== wantOut) problems.push(`stdout:\n  ours:   ${JSON.stringify(stdout)}\n  theirs: ${JSON.stringify(wantOut)}`);
  if (stderr !== wantErr) problems.push(`stderr:\n  ours:   ${JSON.stringify(stderr)}\n  theirs: ${JSON.stringify(wantErr)}`);
  if (got.status !== want.status) problems.push(`status: ours ${got.status}, theirs ${want.status}`);
  return problems.join('\n');
}

let t;
let work;
let rust;
let ours;
before(() => {
  t = installTarball('cli');
  execFileSync('cargo', ['build', '--quiet', '--bin', 'sha1dcsum'], { cwd: ROOT, stdio: 'inherit' });
  rust = [join(process.env.CARGO_TARGET_DIR || join(ROOT, 'target'), 'debug', 'sha1dcsum')];
  ours = [process.execPath, join(t.app, 'node_modules/sha1dc-wasm/cli.mjs')];
  work = join(t.work, 'files');
  makeFiles(work);
});
after(() => t?.cleanup());

const shown = (c) => c.args.map((a) => JSON.stringify(B(a).toString('latin1'))).join(' ') + (c.input ? ` <<< ${JSON.stringify(c.input)}` : '') + (c.shell ? ` ${c.shell}` : '');

test('the same standard output, standard error and exit status as sha1dcsum, case by case', async () => {
  const differences = [];
  const queue = [...CASES];
  const worker = async () => {
    for (let c; (c = queue.shift()); ) {
      const [want, got] = await Promise.all([start(rust, c), start(ours, c)]);
      const problems = compare(c, want, got);
      if (problems) differences.push(`${shown(c)}\n${problems}`);
    }
  };
  await Promise.all([worker(), worker()]);
  assert.equal(differences.length, 0, `${differences.length} of ${CASES.length} cases differ:\n\n${differences.slice(0, 12).join('\n\n')}`);
  console.log(`# ${CASES.length} cases, the same`);
});

test('the table covers what it must: every exit status, every option of sha1dcsum --help but --generate', () => {
  const statuses = new Set(CASES.map((c) => run(rust, c).status));
  assert.deepEqual([...statuses].sort(), [0, 1, 2, 3]);
  const help = execFileSync(rust[0], ['--help'], { encoding: 'utf8' });
  const options = [...help.matchAll(/^ {2}(?:-(\w), )? *--([\w-]+)/gm)].map((m) => m[2]);
  assert.ok(options.length >= 20, help);
  const used = CASES.flatMap((c) => c.args.map((a) => B(a).toString('latin1')));
  for (const name of options.filter((n) => !['generate', 'help', 'version', 'backends'].includes(n))) {
    assert.ok(used.some((a) => a.startsWith(`--${name.slice(0, 3)}`) || a.startsWith('-') && !a.startsWith('--') && a.length > 1 && help.includes(`-${a[1]}, --${name}`)), `--${name} is in no case`);
  }
  // And ours lists every one of them.
  const ourHelp = run(ours, { args: ['--help'] }).stdout.toString();
  for (const name of options) assert.match(ourHelp, new RegExp(`--${name}\\b`), `--${name} is missing from our --help`);
});

test('--help says where Node differs; --backends lists the one backend', () => {
  const help = run(ours, { args: ['--help'] });
  assert.equal(help.status, 0);
  const text = help.stdout.toString();
  assert.match(text, /^Usage: sha1dc-wasm \[OPTIONS\] \[FILE\|-\]\.\.\./);
  assert.match(text, /one input at a time/);
  assert.match(text, /not UTF-8/);
  assert.match(text, /--generate WHAT/);
  for (const line of text.split('\n')) assert.ok(line.length <= 79 && line.trimEnd() === line, JSON.stringify(line));
  assert.deepEqual(run(ours, { args: ['--backends'] }), { stdout: B('simd128\n'), stderr: '', status: 0 });
});

test('a reader that stops early: status 141 and nothing said, as sha1dcsum', () => {
  const args = Array.from({ length: 3000 }, () => 'abc.txt');
  for (const cmd of [rust, ours]) {
    const script = `${[...cmd, '--json', ...args].map(quote).join(' ')} | (exec 0<&-); echo "\${PIPESTATUS[0]}"`;
    const p = spawnSync('bash', ['-c', script], { cwd: work, encoding: 'utf8' });
    assert.equal(p.stdout.trim(), '141', cmd.join(' '));
    assert.equal(p.stderr, '', cmd.join(' '));
  }
});

test('npx runs the installed command', () => {
  const r = spawnSync('npx', ['--offline', '--prefix', t.app, 'sha1dc-wasm', 'abc.txt'], { cwd: work, encoding: 'utf8' });
  assert.equal(r.stdout, `${sha1('abc')}  abc.txt\n`);
  assert.equal(r.status, 0);
});

test('a large file streams in constant memory, with the filter worker unless -j 1', () => {
  const big = join(t.work, 'big.bin');
  const fd = openSync(big, 'w');
  const chunk = Buffer.alloc(1 << 20, 0x61);
  // Its SHA-1 as it is written: the file read whole here would raise this process's resident
  // set, which a child inherits as its starting maximum (getrusage keeps it across fork and exec).
  const want = createHash('sha1');
  for (let i = 0; i < 256; i++) {
    writeSync(fd, chunk);
    want.update(chunk);
  }
  closeSync(fd);
  const wantHex = want.digest('hex');
  // Counts the worker_threads Workers started (the package looks the class up when it starts one).
  const probe = `data:text/javascript,${encodeURIComponent(`import wt from 'node:worker_threads';
    const Real = wt.Worker; let n = 0;
    wt.Worker = class extends Real { constructor(...a) { super(...a); n++; } };
    process.on('exit', () => process.stderr.write('maxrss=' + process.resourceUsage().maxRSS + ' workers=' + n + '\\n'));`)}`;
  for (const [jobs, workers] of [[[], 1], [['-j', '1'], 0]]) {
    const r = spawnSync(process.execPath, ['--import', probe, ours[1], ...jobs, big], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `${wantHex}  ${big}\n`);
    const [, kib, started] = /maxrss=(\d+) workers=(\d+)/.exec(r.stderr).map(Number);
    console.log(`# 256 MiB file${jobs.length ? ', -j 1' : ''}: maximum resident set ${Math.round(kib / 1024)} MiB, ${started} filter worker`);
    assert.ok(kib < 128 * 1024, `the command's resident set reached ${kib} KiB for a 256 MiB file`);
    assert.equal(started, workers, `filter workers started${jobs.length ? ' with -j 1' : ''}`);
  }
});
