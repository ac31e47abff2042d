// sha1dc-wasm/git in headless Chromium: the module loaded from the package (git-core.mjs, the
// .wasm fetched next to it, under a strict Content-Security-Policy) verifies a generated pack
// holding both SHAttered PDFs, held as bytes on the page and as a Blob read in a module Web
// Worker (FileReaderSync); its JSON document equals the Rust git-sha1dc's on the same pack but
// the file name; and verifyGit from the package's browser entry (git-web.mjs) on the same pack as
// bytes, as a Blob and in a repository in the origin private file system (a directory handle),
// on the page and in a worker. Skipped when Chromium is not installed (failed under CI).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { after, test } from 'node:test';
import { DATA, PKG_DIR, ROOT, haveChromium, launchChromium, skipUnlessCI } from '../shared.mjs';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";
const dir = mkdtempSync(join(tmpdir(), 'sha1dc-git-page-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const env = { ...process.env, HOME: dir, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@example.org', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@example.org' };
const git = (...args) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });

/** A pack of a repository holding both PDFs, and git-sha1dc --json --content's document on it. */
function packAndExpected() {
  git('init', '-q', '-b', 'main');
  for (const f of ['shattered-1.pdf', 'shattered-2.pdf']) copyFileSync(join(DATA, f), join(dir, f));
  git('add', '.');
  git('commit', '-q', '-m', 'pdfs');
  git('repack', '-q', '-a', '-d');
  const packDir = join(dir, '.git', 'objects', 'pack');
  const pack = join(packDir, readdirSync(packDir).find((n) => n.endsWith('.pack')));
  const rust = process.env.GIT_SHA1DC || join(process.env.CARGO_TARGET_DIR || join(ROOT, 'target'), 'debug', 'git-sha1dc');
  if (!process.env.GIT_SHA1DC) execFileSync('cargo', ['build', '--quiet', '-p', 'gitverify', '--bin', 'git-sha1dc'], { cwd: ROOT, stdio: 'inherit' });
  let out;
  try {
    out = execFileSync(rust, ['--json', '--content', pack], { encoding: 'utf8' });
  } catch (e) {
    out = e.stdout; // exit status 3: the collisions
  }
  const expected = JSON.parse(out);
  expected.findings = expected.findings.map((f) => ({ ...f, file: 'fetched.pack' }));
  return { pack: readFileSync(pack), idx: readFileSync(pack.replace(/\.pack$/, '.idx')), expected };
}

const files = {
  '/t/page.html': `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>sha1dc-wasm/git</title><script type="module" src="/t/page.mjs"></script></head><body></body></html>`,
  // On the page: the pack as bytes, with and without its index.
  '/t/page.mjs': `
import { init, MemoryFiles, RawGitRun, argumentsOf, verifyPart } from '/pkg/git-core.mjs';
const out = {};
try {
  await init();
  const bytes = async (p) => new Uint8Array(await (await fetch(p)).arrayBuffer());
  const [pack, idx] = [await bytes('/t/fetched.pack'), await bytes('/t/fetched.idx')];
  const run = (entries) => {
    const r = new RawGitRun(argumentsOf(['fetched.pack'], { content: true }), '0');
    const files = new MemoryFiles(entries);
    r.plan(files, '/', undefined, undefined);
    const events = [];
    verifyPart(r, files, (e) => events.push(e.kind));
    const doc = r.jsonDocument();
    r.free();
    return { doc, events: [...new Set(events)] };
  };
  out.indexed = run([['fetched.pack', pack], ['fetched.idx', idx]]);
  out.alone = run([['fetched.pack', pack]]);
  const w = new Worker('/t/worker.mjs', { type: 'module' });
  out.worker = await new Promise((resolve, reject) => {
    w.onmessage = (e) => resolve(e.data);
    w.onerror = (e) => reject(new Error('worker: ' + e.message));
    w.postMessage(new Blob([pack]));
  });
} catch (e) {
  out.error = String((e && e.stack) || e);
}
window.__result = JSON.stringify(out);
`,
  // In a worker: the pack as a Blob, read in slices with FileReaderSync.
  '/t/worker.mjs': `
import { init, MemoryFiles, RawGitRun, argumentsOf, verifyPart } from '/pkg/git-core.mjs';
self.onmessage = async (e) => {
  await init();
  const r = new RawGitRun(argumentsOf(['fetched.pack'], { content: true }), '0');
  const files = new MemoryFiles([['fetched.pack', e.data]]);
  r.plan(files, '/', undefined, undefined);
  let objects = 0;
  verifyPart(r, files, (ev) => { if (ev.kind === 'verified') objects += ev.objects; });
  self.postMessage({ doc: r.jsonDocument(), objects });
};
`,
};

// verifyGit from the package's browser entry (git-web.mjs): the pack as bytes and as a Blob on
// the page (read whole), and a repository written to the origin private file system, verified
// through its directory handle on the page and in a worker (its Files read in slices there).
files['/t/web.html'] = files['/t/page.html'].replace('/t/page.mjs', '/t/web.mjs');
files['/t/web.mjs'] = `
import { verifyGit } from '/pkg/git-web.mjs';
const out = {};
try {
  const bytes = async (p) => new Uint8Array(await (await fetch(p)).arrayBuffer());
  const [pack, idx] = [await bytes('/t/fetched.pack'), await bytes('/t/fetched.idx')];
  const heard = { progress: 0, findings: 0 };
  const options = { content: true, onProgress: () => heard.progress++, onFinding: () => heard.findings++ };
  out.bytes = (await verifyGit({ pack, name: 'fetched.pack' }, options)).json;
  out.blob = (await verifyGit(new Blob([pack]), { content: true })).json;
  const root = await navigator.storage.getDirectory();
  const repo = await root.getDirectoryHandle('repo', { create: true });
  const write = async (dir, name, data) => {
    const w = await (await dir.getFileHandle(name, { create: true })).createWritable();
    await w.write(data);
    await w.close();
  };
  let d = repo;
  for (const n of ['.git', 'objects', 'pack']) d = await d.getDirectoryHandle(n, { create: true });
  await write(d, 'pack-t.pack', pack);
  await write(d, 'pack-t.idx', idx);
  await write(repo, 'notes.txt', 'a work tree file, not read\\n');
  out.handle = (await verifyGit(repo, { content: true })).json;
  const w = new Worker('/t/web-worker.mjs', { type: 'module' });
  out.worker = await new Promise((resolve, reject) => {
    w.onmessage = (e) => resolve(e.data);
    w.onerror = (e) => reject(new Error('worker: ' + e.message));
    w.postMessage(repo);
  });
  out.heard = heard;
} catch (e) {
  out.error = String((e && e.stack) || e);
}
window.__result = JSON.stringify(out);
`;
files['/t/web-worker.mjs'] = `
import { verifyGit } from '/pkg/git-web.mjs';
self.onmessage = async (e) => {
  try {
    self.postMessage((await verifyGit(e.data, { content: true })).json);
  } catch (err) {
    self.postMessage(JSON.stringify({ error: String(err) }));
  }
};
`;

const TYPES = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };

test('sha1dc-wasm/git in Chromium: bytes on the page, a Blob in a worker, as git-sha1dc', { skip: !haveChromium && skipUnlessCI('no Chromium') }, async () => {
  const { pack, idx, expected } = packAndExpected();
  const served = { ...files, '/t/fetched.pack': pack, '/t/fetched.idx': idx };
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    let body = served[path];
    if (body === undefined && path.startsWith('/pkg/')) {
      const file = normalize(join(PKG_DIR, path.slice(5)));
      if (file.startsWith(normalize(PKG_DIR)) && existsSync(file)) body = readFileSync(file);
    }
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'content-security-policy': CSP });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  let browser = null;
  try {
    browser = await launchChromium();
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/t/page.html`);
    await page.waitForFunction(() => window.__result, null, { timeout: 60000 });
    const out = JSON.parse(await page.evaluate(() => window.__result));
    assert.equal(out.error, undefined);
    assert.deepEqual(JSON.parse(out.indexed.doc), expected);
    assert.deepEqual(JSON.parse(out.alone.doc), expected);
    assert.deepEqual(out.indexed.events.sort(), ['finding', 'source', 'verified']);
    assert.deepEqual(JSON.parse(out.worker.doc), expected);
    assert.equal(out.worker.objects, expected.objects.total);
    assert.equal(expected.findings.length, 2);

    // verifyGit from git-web.mjs: every form gives git-sha1dc's document but for the file names.
    const anyFile = (doc) => ({ ...doc, findings: doc.findings.map((f) => ({ ...f, file: 'x' })) });
    await page.goto(`http://127.0.0.1:${server.address().port}/t/web.html`);
    await page.waitForFunction(() => window.__result, null, { timeout: 60000 });
    const web = JSON.parse(await page.evaluate(() => window.__result));
    assert.equal(web.error, undefined);
    assert.deepEqual(JSON.parse(web.bytes), expected);
    assert.deepEqual(anyFile(JSON.parse(web.blob)), anyFile(expected));
    const inRepo = JSON.parse(web.handle);
    assert.deepEqual(anyFile(inRepo), anyFile(expected));
    assert.deepEqual(inRepo.findings.map((f) => f.file), ['repo/.git/objects/pack/pack-t.pack', 'repo/.git/objects/pack/pack-t.pack']);
    assert.deepEqual(anyFile(JSON.parse(web.worker)), anyFile(expected));
    assert.equal(web.heard.findings, 2);
    assert.ok(web.heard.progress > 0);
  } finally {
    await browser?.close();
    server.close();
  }
});
