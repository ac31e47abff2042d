// What every JavaScript test folder (tests/npm, tests/bundlers, tests/page) needs: the
// repository's paths, the test data, headless Chromium, the packed package installed. Plain
// Node, no dependency of its own: playwright-core is resolved from the folder of the test file
// that runs (each folder installs its own), so a folder that never launches Chromium needs none.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, an absolute path without a trailing slash. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** tests/data: the public collisions, the controls and their reference results. */
export const DATA = join(ROOT, 'tests', 'data');
/** The built npm package; SHA1DC_PKG_DIR points at another build (to see a test fail on an older one). */
export const PKG_DIR = process.env.SHA1DC_PKG_DIR || join(ROOT, 'pkg');

/** Debian's Chromium, or the one CHROMIUM names. */
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
/** Without these, Chromium keeps trying network connections that fail on a machine without one. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const haveChromium = existsSync(CHROMIUM);

/**
 * A test's `skip` option for a check this machine cannot run: the reason (node --test reports
 * the test skipped), but under CI (`CI` set, not empty) false, so that the check runs and fails,
 * as the Rust tests' skip_or_fail does (tests/common/skip.rs).
 */
export const skipUnlessCI = (reason) => (process.env.CI ? false : reason);

/**
 * playwright-core's `chromium.launch` with CHROMIUM and CHROMIUM_ARGS (never a downloaded
 * browser); `options` are added to (or override) those.
 */
export async function launchChromium(options = {}) {
  if (!haveChromium) {
    throw new Error(`${CHROMIUM} not found: apt-get install -y chromium chromium-driver (the test scripts do it)`);
  }
  const from = process.argv[1] ? resolve(process.argv[1]) : join(process.cwd(), 'noop.js');
  const { chromium } = createRequire(from)('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, ...options });
}

/** Rows of a tab-separated file of tests/data, as objects keyed by its header line; `#` lines skipped. */
export function readTsv(name) {
  const [head, ...lines] = readFileSync(join(DATA, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'));
  const keys = head.split('\t');
  return lines.map((line) => Object.fromEntries(line.split('\t').map((v, i) => [keys[i], v])));
}

/** The plain SHA-1 of `bytes` (a string is hashed as UTF-8), hex, from node:crypto: the oracle. */
export function sha1(bytes) {
  return createHash('sha1').update(bytes).digest('hex');
}

const npmEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
/** Runs npm in `cwd`; its standard output. */
export const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', env: npmEnv });

/**
 * The package as a user gets it: `npm pack` of PKG_DIR into a temporary folder `work`, and `app`
 * in it, a fresh project with the tarball installed (its only dependency). Returns { work, app,
 * tgz, files (the packed paths, sorted), cleanup }.
 */
export function installTarball(prefix) {
  const work = mkdtempSync(join(tmpdir(), `sha1dc-wasm-${prefix}-`));
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work, PKG_DIR], work));
  const tgz = join(work, packed[0].filename);
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  npm(['install', '--no-package-lock', '--offline', tgz], app);
  const files = packed[0].files.map((f) => f.path).sort();
  return { work, app, tgz, files, cleanup: () => rmSync(work, { recursive: true, force: true }) };
}
