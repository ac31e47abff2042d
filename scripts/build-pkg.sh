#!/usr/bin/env bash
# Builds the npm package sha1dc-wasm in pkg/ (gitignored):
#
#   scripts/build-pkg.sh            # then: cd pkg && npm pack
#
# wasm-pack builds the bindings crate (bindings/, the wasm-bindgen boundary
# over the library) for wasm32-unknown-unknown with simd128 (from
# .cargo/config.toml) twice, as `--target web` (ES module glue that fetches
# the .wasm or takes it as an argument: browsers, workers, bundlers, Deno)
# and `--target nodejs` (CommonJS glue that reads the .wasm synchronously:
# Node). The two builds produce the same .wasm, so the package ships it once,
# as wasm/sha1dc_wasm_bg.wasm, beside both glue files and the wrapper from
# npm/, the package's source (npm/assemble.mjs copies and derives those). The
# package's command has a module of its own, sha1dcsum's text code
# (bindings/cli/, `--target nodejs`): wasm/sha1dcsum_cli_bg.wasm.
#
# Installs what is missing: the wasm32 target, wasm-bindgen-cli at the
# version pinned in Cargo.toml, wasm-pack. Honours CARGO_TARGET_DIR.
# Set WASM_OPT=1 to run binaryen's wasm-opt -O3 (from npm, installed in
# target/npm-tools when missing) over the module.
set -euo pipefail

. "$(dirname "$0")/lib.sh"
wasm_toolchain
rustflags_keep_simd128

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for target in web nodejs; do
  wasm-pack --quiet build --release --target "$target" --out-dir "$out/$target" \
    --out-name sha1dc_wasm "$root/bindings"
done
wasm-pack --quiet build --release --target nodejs --out-dir "$out/cli" \
  --out-name sha1dcsum_cli "$root/bindings/cli"
# sha1dc-wasm/git and the git-sha1dc command: gitverify (bindings/git).
wasm-pack --quiet build --release --target web --out-dir "$out/git" \
  --out-name gitverify "$root/bindings/git"
if ! cmp -s "$out/web/sha1dc_wasm_bg.wasm" "$out/nodejs/sha1dc_wasm_bg.wasm"; then
  echo "build-pkg: the web and nodejs builds produced different .wasm files" >&2
  exit 1
fi

wasm="$out/web/sha1dc_wasm_bg.wasm"
if [ "${WASM_OPT:-0}" = 1 ]; then
  tools="${CARGO_TARGET_DIR:-$root/target}/npm-tools"
  if [ ! -x "$tools/node_modules/.bin/wasm-opt" ]; then
    mkdir -p "$tools"
    npm install --silent --prefix "$tools" binaryen@132 >/dev/null
  fi
  "$tools/node_modules/.bin/wasm-opt" -O3 --enable-simd --enable-bulk-memory \
    --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    --enable-reference-types --enable-multivalue "$wasm" -o "$wasm.opt"
  mv "$wasm.opt" "$wasm"
fi

rm -rf pkg
mkdir -p pkg/wasm
cp "$wasm" pkg/wasm/sha1dc_wasm_bg.wasm
cp "$out/web/sha1dc_wasm.js" pkg/wasm/sha1dc_wasm.js
cp "$out/web/sha1dc_wasm.d.ts" pkg/wasm/sha1dc_wasm.d.ts
cp "$out/nodejs/sha1dc_wasm.js" pkg/wasm/sha1dc_wasm_node.cjs
cp "$out/cli/sha1dcsum_cli_bg.wasm" pkg/wasm/sha1dcsum_cli_bg.wasm
cp "$out/cli/sha1dcsum_cli.js" pkg/wasm/sha1dcsum_cli.cjs
cp "$out/git/gitverify_bg.wasm" "$out/git/gitverify.js" pkg/wasm/
cp npm/package.json pkg/

# The package's version is the crate's.
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)
node -e '
  const fs = require("fs");
  const p = JSON.parse(fs.readFileSync("pkg/package.json", "utf8"));
  p.version = process.argv[1];
  fs.writeFileSync("pkg/package.json", JSON.stringify(p, null, 2) + "\n");
' "$version"

# The JavaScript half (npm/assemble.mjs): the package's own files,
# core.cjs, index.d.cts, the inlined entry and the CLI.
node npm/assemble.mjs

echo "build-pkg: pkg/ ready ($(wc -c <pkg/wasm/sha1dc_wasm_bg.wasm) bytes of wasm, and $(wc -c <pkg/wasm/sha1dcsum_cli_bg.wasm) for the command's); npm pack it with: (cd pkg && npm pack)"
