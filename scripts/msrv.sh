#!/usr/bin/env bash
# The library and the C library with the oldest Rust they support (the
# rust-version of Cargo.toml: 1.63, git's own minimum):
# - the library, in a scratch copy of the workspace that old Cargo can read,
#   default features and none, with -D warnings, for x86-64 and aarch64
#   (and wasm32 with simd128); its unit tests, its doc examples and every
#   integration test that needs no newer dev-dependency (known answers,
#   every backend against the portable one, the batch form, the reports;
#   sha1dcsum/ and its tests). The copy leaves out what needs a newer
#   compiler: the `digest` feature (digest 0.11: Rust 1.85), the
#   dev-dependencies other than `sha1` 0.10, the tests, benchmarks and
#   README examples that use them, the wasm bindings. Its dependencies are
#   resolved for that Rust by the current Cargo (Cargo.lock format 3) and
#   vendored, as Cargo before 1.68 cannot reach crates.io's index.
# - the C library as capi/README.md's packager recipe builds it, in a copy
#   of the checkout's files changed in nothing: capi/'s own Cargo.lock
#   vendored (by the current Cargo, for the index), then
#   scripts/install-c.sh offline with Rust 1.63; the lock and the manifests
#   are checked unchanged after it, the library checked built by 1.63, then
#   put through the C tests (tests/c/run.sh --installed).
# SHA1DC_MSRV_KEEP=1 keeps the copies.
#   scripts/msrv.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
export CARGO_TERM_COLOR=never
rustflags_unset

# The integration tests that need a newer dev-dependency (sha1-checked, sha1
# 0.11: differential, rustcrypto, wasm_fixtures), and tests/dependents.rs,
# which runs the current Cargo on crates of its own.
NEWER_TESTS=(differential rustcrypto wasm_fixtures dependents)

msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml | head -n1)
toolchain=$msrv-$(rustc -vV | sed -n 's/^host: //p')
rustup toolchain list | grep "^$toolchain" >/dev/null || {
  say "rustup toolchain install $msrv"
  rustup toolchain install "$msrv" --profile minimal
}
for target in aarch64-unknown-linux-gnu wasm32-unknown-unknown; do
  rustup target list --toolchain "$msrv" --installed | grep -x "$target" >/dev/null ||
    rustup target add --toolchain "$msrv" "$target"
done

work=$(mktemp -d)
trap '[ -n "${SHA1DC_MSRV_KEEP:-}" ] || rm -rf "$work"' EXIT
copy=$work/src
say "a copy of the workspace for Rust $msrv in $copy"
mkdir -p "$copy/sha1dcsum"
cp -r Cargo.toml build.rs src "$copy/"
cp -r sha1dcsum/Cargo.toml sha1dcsum/src sha1dcsum/tests "$copy/sha1dcsum/"
tar -c --exclude=node_modules --exclude=tests/page/out tests | tar -x -C "$copy"
# The Rust examples of the README and docs/rust.md (doc tests) use the newer
# dev-dependencies; the library's own examples run.
: >"$copy/README.md"
mkdir -p "$copy/docs"
: >"$copy/docs/rust.md"
for t in "${NEWER_TESTS[@]}"; do rm -rf "$copy/tests/$t.rs" "$copy/tests/$t"; done
python3 - "$copy/Cargo.toml" <<'EOF'
# The manifest without what Rust 1.63's Cargo cannot read or build: the
# workspace tables (inheritance), the benchmarks, the `digest` feature, and
# the dev-dependencies other than this crate itself and `sha1` 0.10.
import re, sys
path = sys.argv[1]
sections = re.split(r'(?m)^(?=\[)', open(path).read())
kept = ['[workspace]\nmembers = [".", "sha1dcsum"]\ndefault-members = [".", "sha1dcsum"]\n\n']
for s in sections:
    header = s.split('\n', 1)[0]
    if header.startswith('[workspace') or header == '[[bench]]':
        continue
    if header.endswith('dev-dependencies]'):
        if header != '[dev-dependencies]':
            continue
        lines = [l for l in s.split('\n') if l.startswith(('[', 'sha1 =', 'sha1dc-wasm ='))]
        s = '\n'.join(lines).replace('"__test-backend-env", "digest"', '"__test-backend-env"') + '\n\n'
    s = re.sub(r'(?m)^digest = .*\n', '', s)
    s = s.replace('std = ["digest?/alloc"]', 'std = []')
    kept.append(s)
text = ''.join(kept)
for needed in ('"__test-backend-env"]', 'sha1 = "0.10"', 'std = []'):
    assert needed in text, f'scripts/msrv.sh: the manifest changed: no {needed} left'
assert not re.search(r'(?m)^[^#\n]*digest', text.split('[package.metadata')[0]), \
    'scripts/msrv.sh: digest is still named'
open(path, 'w').write(text)
EOF

say "dependencies for Rust $msrv, vendored"
(
  cd "$copy"
  CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback cargo generate-lockfile --quiet
  sed -i 's/^version = 4$/version = 3/' Cargo.lock
  cargo vendor --quiet --locked vendor
  mkdir .cargo
  printf '[source.crates-io]\nreplace-with = "vendored"\n[source.vendored]\ndirectory = "vendor"\n' \
    >.cargo/config.toml
)

old() { (cd "$copy" && cargo "+$msrv" "$1" --offline "${@:2}"); }
say "Rust $msrv: the library, default features and none (-D warnings), x86-64, aarch64, wasm32"
for target in "" aarch64-unknown-linux-gnu; do
  for features in "" --no-default-features; do
    # shellcheck disable=SC2086 # empty or one word each
    old rustc --quiet -p sha1dc-wasm --lib $features ${target:+--target $target} -- -D warnings
  done
done
# With simd128, as the npm package builds it (the flag applies to the target only).
RUSTFLAGS="-C target-feature=+simd128" old rustc --quiet -p sha1dc-wasm --lib --target wasm32-unknown-unknown -- -D warnings
say "Rust $msrv: cargo test, the library and sha1dcsum (all but ${NEWER_TESTS[*]})"
old test --quiet
# The packager's recipe of capi/README.md, word for word, in a copy of the
# checkout's files (those git knows, as they are in the work tree).
checkout=$work/checkout
say "the C library: capi/README.md's recipe in a copy of the checkout ($checkout)"
mkdir -p "$checkout"
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [ ! -e "$f" ] || printf '%s\0' "$f"; done |
  xargs -0 cp -P --parents -t "$checkout"
(
  cd "$checkout"
  mkdir -p capi/.cargo
  (cd capi && cargo vendor --locked vendor >.cargo/config.toml)
  CARGO_NET_OFFLINE=true RUSTUP_TOOLCHAIN=$msrv scripts/install-c.sh "$work/prefix"
)
for f in capi/Cargo.toml capi/Cargo.lock Cargo.toml; do
  cmp -s "$f" "$checkout/$f" || { echo "the build changed $f" >&2; exit 1; }
done
say "Rust $msrv: the C library's unit tests, then its C tests against what it installed"
(cd "$checkout/capi" && RUSTUP_TOOLCHAIN=$msrv cargo test --quiet --locked --offline)
# The source path of its `core` names the compiler's commit.
commit=$(rustc "+$msrv" -vV | sed -n 's/^commit-hash: //p')
grep -aq "/rustc/$commit" "$work/prefix/lib/libsha1detectcoll.so.1.0.0" ||
  { echo "the installed library was not built by Rust $msrv" >&2; exit 1; }
tests/c/run.sh --installed "$work/prefix"
say "Rust $msrv: green"
