#!/usr/bin/env bash
# Copies the built npm package (pkg/) into www/pkg/, so that www/ alone is the whole site (all
# of the package but its command, cli.mjs, cli/ and its wasm/sha1dcsum_cli* module, which
# only Node runs), and writes www/pkg/files.json: the package's files a browser may load,
# which the page's service worker (www/sw.js) keeps for offline use. The list is made here,
# from the package as built, because the package's modules change with it and the page's own
# list could not follow.
#   scripts/www-pkg.sh   (serve.sh and test-browser.sh run it)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ ! -f pkg/index.mjs ] || [ ! -f pkg/wasm/sha1dc_wasm_bg.wasm ]; then
  echo "www-pkg: pkg/ is not built; run scripts/build-pkg.sh" >&2
  exit 1
fi
rm -rf www/pkg
mkdir -p www/pkg
cp -R pkg/. www/pkg/
rm -rf www/pkg/cli.mjs www/pkg/cli www/pkg/wasm/sha1dcsum_cli*
node --input-type=module -e '
import { readdirSync, writeFileSync } from "node:fs";
const files = readdirSync("www/pkg", { recursive: true })
  .map((f) => f.split("\\").join("/"))
  .filter((f) => /\.(mjs|js|wasm)$/.test(f))
  .sort();
writeFileSync("www/pkg/files.json", JSON.stringify(files, null, 2) + "\n");
'
