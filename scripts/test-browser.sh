#!/usr/bin/env bash
# Tests the collision checker page (www/): its pure modules with `node --test`, and the page in
# headless Chromium with playwright-core: verdicts, mismatches and the problems filter, folders,
# expected hashes, export, git blob ids, offline reload (service worker), a page opened from a
# file, keyboard focus, axe-core accessibility audits in light and dark, a large file's speed,
# memory and time left, 1,000 small files.
# Installs what is missing (Debian's chromium, the test's npm packages), builds the npm
# package, copies it into www/pkg (scripts/www-pkg.sh), and runs tests/page/*.test.mjs with
# `node --test`.
#   scripts/test-browser.sh              everything
#   scripts/test-browser.sh --no-build   use the pkg/ already built
#   LARGE_MIB=256 scripts/test-browser.sh  a smaller large file (default 512, at least 256)
# Screenshots and the large-file figures go to tests/page/out/ (gitignored).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
parse_build_args test-browser "$@"

install_chromium
command -v node >/dev/null || scripts/setup.sh wasm # Node, and the wasm toolchain build-pkg.sh needs

if [ ! -d tests/page/node_modules/playwright-core ] || [ ! -d tests/page/node_modules/axe-core ]; then
  say "npm ci in tests/page (playwright-core, axe-core; never a browser download)"
  (cd tests/page && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
fi

if [ "$build" = 1 ]; then
  say "build the npm package"
  rustflags_unset
  scripts/build-pkg.sh
fi
scripts/www-pkg.sh

say "the checker page: its modules in Node, the page in headless Chromium"
cd tests/page
rm -rf out
node --test --test-concurrency=1 --test-reporter=spec ./*.test.mjs
echo
echo "screenshots: $root/tests/page/out/ (results*.png, mismatch*.png, git-blob.png, from-file.png, large-file*.png)"
[ -f out/large-file.json ] && { echo "large file:"; cat out/large-file.json; }
