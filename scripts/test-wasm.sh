#!/usr/bin/env bash
# Every WebAssembly and JavaScript test:
#   1. tests/wasm.rs and src/filter/tests.rs (every filter form the build
#      has, simd128 included, against the reference masks) under
#      wasm-bindgen-test: in Node, in headless Chromium,
#      and in a dedicated Web Worker in headless Chromium;
#   2. the npm package (scripts/build-pkg.sh builds pkg/): node --test over
#      tests/npm (the whole API, the entry points, worker threads, a strict-CSP
#      page and a module Web Worker in Chromium, the packed tarball installed
#      into a fresh project, its command `npx sha1dc-wasm` side by side with
#      the Rust sha1dcsum, built if missing, and the API's tests again under
#      Deno, Bun and Node 18, and a worker in workerd, installed from npm
#      when missing);
#   3. tests/bundlers, from the packed tarball: esbuild (browser bundle, Node
#      ESM and CJS bundles), webpack 5 and Vite (build and dev server, run in
#      Chromium), TypeScript (nodenext, bundler, Node-only lib), node --test
#      with worker_threads.
#
# Installs what is missing (the wasm32 target, wasm-bindgen-cli at the pinned
# version, wasm-pack; Chromium and chromedriver from apt when absent and
# running as root). Honours CARGO_TARGET_DIR. SKIP_BROWSER=1 skips the
# browser runs (with CI set, the Node tests that need Chromium then fail:
# tests/shared.mjs's skipUnlessCI).
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
wasm-pack test --node --release -- -p sha1dc-wasm --lib --test wasm
if [ "$browser" = 1 ]; then
  say "wasm-bindgen tests in headless Chromium"
  WASM_BINDGEN_USE_BROWSER=1 wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver \
    --release -- -p sha1dc-wasm --lib --test wasm
  say "wasm-bindgen tests in a dedicated Web Worker in headless Chromium"
  WASM_BINDGEN_USE_DEDICATED_WORKER=1 wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver \
    --release -- -p sha1dc-wasm --lib --test wasm
fi

say "node --test tests/npm (the npm package in pkg/, and npx sha1dc-wasm against sha1dcsum)"
cd tests/npm
# TypeScript, for the tarball test's type check of index.d.ts; playwright-core
# (never a browser download) for the browser test.
if [ ! -d node_modules/typescript ] || [ ! -d node_modules/playwright-core ]; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --silent --no-audit --no-fund --no-package-lock
fi
# Deno, Bun, workerd and Node 18 for runtimes.test.mjs (their npm packages
# ship the binaries: about 15 s and 530 MB, once).
if [ ! -x runtimes/node_modules/.bin/deno ] || [ ! -x runtimes/node_modules/.bin/bun ] ||
  [ ! -x runtimes/node_modules/.bin/workerd ] || [ ! -x runtimes/node_modules/node18/bin/node ]; then
  (cd runtimes && npm install --silent --no-audit --no-fund --no-package-lock)
fi
if [ "$browser" = 1 ]; then
  node --test
else
  CHROMIUM=/nonexistent node --test
fi

say "node --test tests/bundlers (the packed package in esbuild, webpack 5, Vite, TypeScript, node --test)"
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
