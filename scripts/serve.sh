#!/usr/bin/env bash
# Builds the npm package, copies it into www/pkg/ and serves the collision checker page on
# 127.0.0.1 (a free port unless PORT is set; the URL is printed).
#   scripts/serve.sh              build, then serve (Ctrl-C stops)
#   scripts/serve.sh --no-build   serve what is in pkg/ (it must have been built before)
#   PORT=8080 scripts/serve.sh    a fixed port
#
# The server is scripts/static-server.mjs (Node, no dependencies) rather than
# `python3 -m http.server`, because it sends the page's Content-Security-Policy as a header:
# a header also covers the module worker (which ignores the page's <meta> policy) and can say
# frame-ancestors 'none', which a <meta> policy cannot.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
parse_build_args serve "$@"

command -v node >/dev/null || { echo "serve: Node.js 18+ is needed (scripts/setup.sh wasm installs it)" >&2; exit 1; }

if [ "$build" = 1 ]; then
  rustflags_unset
  scripts/build-pkg.sh
fi
# www/pkg is a copy (gitignored) so that www/ alone is the whole site, deployable as is.
scripts/www-pkg.sh

exec node scripts/static-server.mjs www ${PORT:+--port "$PORT"}
