// What the npm package's tests share beyond tests/shared.mjs: the entry under test, a test
// file's bytes, deterministic pseudo-random input.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DATA, PKG_DIR } from '../shared.mjs';

export const data = (name) => readFileSync(join(DATA, name));

/** Deterministic pseudo-random integers (xorshift32): next(n) is one in 0..n-1. */
export function rng(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

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

/**
 * The entry point under test, a file of the package: SHA1DC_ENTRY (deno.mjs or inline.mjs for
 * the runtimes whose `exports` conditions pick them: Deno, Bun), else the Node ES module entry.
 */
export const ENTRY = process.env.SHA1DC_ENTRY || 'node.mjs';
const GLUE = { 'node.mjs': 'wasm/sha1dc_wasm_node.cjs', 'inline.mjs': 'wasm/sha1dc_wasm_inline.js', 'deno.mjs': 'wasm/sha1dc_wasm_inline.js' };
if (!GLUE[ENTRY]) throw new Error(`SHA1DC_ENTRY must be one of ${Object.keys(GLUE).join(', ')}`);

/** The API, from ENTRY. */
export const api = await import(pathToFileURL(join(PKG_DIR, ENTRY)).href);

/**
 * The wasm-bindgen glue ENTRY runs on, the same module instance (to count what crosses into
 * wasm): CommonJS for the Node entry, whose exports can be replaced; an ES module namespace for
 * the inlined entry, whose exports cannot (its classes' prototypes can).
 */
export const glue =
  ENTRY === 'node.mjs'
    ? createRequire(import.meta.url)(join(PKG_DIR, GLUE[ENTRY]))
    : await import(pathToFileURL(join(PKG_DIR, GLUE[ENTRY])).href);
