#!/usr/bin/env bash
# Tests the collision checker page (www/) in headless Chromium with playwright-core.
# Installs what is missing (Debian's chromium, the test's npm packages), builds the npm
# package, copies it into www/pkg, and runs tests/browser/*.test.mjs with `node --test`.
#   scripts/test-browser.sh              everything
#   scripts/test-browser.sh --no-build   use the pkg/ already built
#   LARGE_MIB=256 scripts/test-browser.sh  a smaller large file (default 512, at least 256)
# Screenshots and the large-file figures go to tests/browser/out/ (gitignored).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

say() { printf '\n\033[1m== %s\033[0m\n' "$*" >&2; }

build=1
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    -h | --help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "test-browser: unknown argument $arg" >&2; exit 2 ;;
  esac
done

if [ ! -x /usr/bin/chromium ]; then
  say "apt-get install chromium chromium-driver"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
command -v node >/dev/null || scripts/setup.sh wasm # Node, and the wasm toolchain build-pkg.sh needs

if [ ! -d tests/browser/node_modules/playwright-core ]; then
  say "npm ci in tests/browser (playwright-core; never a browser download)"
  (cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
fi

if [ "$build" = 1 ]; then
  say "build the npm package"
  unset RUSTFLAGS # an inherited RUSTFLAGS would replace .cargo/config.toml's simd128 flag
  scripts/build-pkg.sh
fi
[ -f pkg/index.mjs ] || { echo "test-browser: pkg/ is not built (run scripts/build-pkg.sh)" >&2; exit 1; }
rm -rf www/pkg
mkdir -p www/pkg
cp -R pkg/. www/pkg/

say "the checker page in headless Chromium"
cd tests/browser
rm -rf out
node --test --test-concurrency=1 --test-reporter=spec ./*.test.mjs
echo
echo "screenshots: $root/tests/browser/out/results.png (also results-dark.png, results-narrow.png, large-file*.png)"
[ -f out/large-file.json ] && { echo "large file:"; cat out/large-file.json; }
