#!/usr/bin/env bash
# Every object of a real git repository through the batch API and the single
# stream, against git's own object ids (benches/git_corpus.rs). The corpus:
# a repository that commits the sources of every crate in the cargo
# registry (built once in target/git-corpus), or the repository given.
#   scripts/git-corpus.sh            the cargo-registry corpus
#   scripts/git-corpus.sh REPO       any repository
set -euo pipefail
cd "$(dirname "$0")/.."
repo=${1:-}
if [ -z "$repo" ]; then
  repo=$PWD/target/git-corpus
  if [ ! -d "$repo/.git" ]; then
    cargo fetch --quiet
    src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/ | head -n1)
    echo "git-corpus: committing the crate sources of $src into $repo" >&2
    rm -rf "$repo" && mkdir -p "$repo"
    cp -R "$src". "$repo/"
    git -C "$repo" init --quiet
    git -C "$repo" add -A
    git -C "$repo" -c user.name=corpus -c user.email=corpus@localhost commit --quiet -m corpus
  fi
fi
cargo bench --quiet --bench git_corpus -- "$repo"
