#!/usr/bin/env bash
# Every WebAssembly and JavaScript test:
#   1. tests/wasm.rs and src/filter/tests.rs (every filter form the build
#      has, simd128 included, against the reference masks) under
#      wasm-bindgen-test: in Node, in headless Chromium,
#      and in a dedicated Web Worker in headless Chromium;
#   2. the npm package (scripts/build-pkg.sh builds pkg/): node --test over
#      tests/js (the whole API, the entry points, worker threads, a strict-CSP
#      page and a module Web Worker in Chromium, and the packed tarball
#      installed into a fresh project);
#   3. tests/bundlers, from the packed tarball: esbuild (browser bundle, Node
#      ESM and CJS bundles), webpack 5 and Vite (build and dev server, run in
#      Chromium), TypeScript (nodenext, bundler, Node-only lib), node --test
#      with worker_threads, and `npx sha1dc-wasm` against the Rust sha1dcsum
#      (built if missing).
#
# Installs what is missing (the wasm32 target, wasm-bindgen-cli at the pinned
# version, wasm-pack; Chromium and chromedriver from apt when absent and
# running as root). Honours CARGO_TARGET_DIR. SKIP_BROWSER=1 skips the
# browser runs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cargo_bin_on_path

# Builds pkg/ (both halves) and installs the wasm toolchain when missing.
scripts/build-pkg.sh

rustflags_keep_simd128

browser=1
if [ "${SKIP_BROWSER:-0}" = 1 ]; then
  browser=0
elif ! have_chromium; then
  if can_apt; then
    install_chromium
  else
    echo "test-wasm: no Chromium; browser runs skipped" >&2
    browser=0
  fi
fi

say "wasm-bindgen tests in Node"
wasm-pack test --node --release -- --lib --test wasm
if [ "$browser" = 1 ]; then
  say "wasm-bindgen tests in headless Chromium"
  WASM_BINDGEN_USE_BROWSER=1 wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver \
    --release -- --lib --test wasm
  say "wasm-bindgen tests in a dedicated Web Worker in headless Chromium"
  WASM_BINDGEN_USE_DEDICATED_WORKER=1 wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver \
    --release -- --lib --test wasm
fi

say "node --test tests/js (the npm package in pkg/)"
cd tests/js
# TypeScript, for the tarball test's type check of index.d.ts.
if [ ! -d node_modules/typescript ]; then
  npm install --silent --no-audit --no-fund --no-package-lock
fi
if [ "$browser" = 1 ]; then
  node --test
else
  node --test api.test.mjs entries.test.mjs tarball.test.mjs
fi

say "node --test tests/bundlers (the packed package in esbuild, webpack 5, Vite, TypeScript, node --test; npx sha1dc-wasm against sha1dcsum)"
cd "$root/tests/bundlers"
if [ ! -d node_modules/esbuild ] || [ ! -d node_modules/vite ]; then
  # Not `npm ci`: Vite names an optional Windows-only dependency that the
  # registry no longer serves, so no lock file can hold it and `npm ci`
  # refuses; `npm install` skips it and keeps every locked version.
  npm install --silent --no-audit --no-fund
fi
if [ "$browser" = 1 ]; then
  node --test --test-concurrency=1
else
  CHROMIUM=/nonexistent node --test --test-concurrency=1
fi
