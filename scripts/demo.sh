#!/usr/bin/env bash
# The main job: build sha1dcsum, check the public collision files with it,
# then build the checker page and serve it on 127.0.0.1 (port printed).
#   scripts/demo.sh            check the files, then serve the page
#   scripts/demo.sh --no-serve only check the files
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rustflags_unset
scripts/setup.sh native
cargo build --release --quiet --bin sha1dcsum
say "sha1dcsum on the public collisions and a clean file"
status=0
(cd tests/data && ../../target/release/sha1dcsum shattered-1.pdf shattered-2.pdf sha-mbles-1.bin sha-mbles-2.bin \
  sha1_reducedsha_coll.bin README.md) || status=$?
echo "(exit status $status: 3 means a collision was detected)"
[ "${1:-}" = "--no-serve" ] && exit 0
exec scripts/serve.sh
