#!/usr/bin/env bash
# Fails when the library's top-level modules (src/*.rs and src/*/, not
# src/bin) depend on each other in a cycle. Module A depends on B when code
# of A (comments and `#[cfg(test)] mod tests` left out) names `crate::B`, or
# an item the crate root re-exports from B (`pub use B::...` in lib.rs);
# items the root itself defines (the public `Hasher`) are the top of the
# graph, not a module. `tsort` finds the cycles.
#   scripts/check-modules.sh          check
#   scripts/check-modules.sh --edges  print the graph, one "A B" a line
set -euo pipefail
cd "$(dirname "$0")/.."

edges() {
  python3 - <<'EOF'
import os, re

SRC = "src"
modules = {
    n[:-3] if n.endswith(".rs") else n
    for n in os.listdir(SRC)
    if n not in ("lib.rs", "bin") and (n.endswith(".rs") or os.path.isdir(os.path.join(SRC, n)))
}
lib = open(os.path.join(SRC, "lib.rs")).read()
reexported = {}
for m in re.finditer(r"pub use (\w+)::(\{[^}]*\}|\w+);", lib):
    for name in re.findall(r"\w+", m.group(2)):
        reexported[name] = m.group(1)

def files(module):
    if os.path.isdir(os.path.join(SRC, module)):
        for root, _, names in os.walk(os.path.join(SRC, module)):
            yield from (os.path.join(root, n) for n in names if n.endswith(".rs") and n != "tests.rs")
    else:
        yield os.path.join(SRC, module + ".rs")

def code(path):
    text = open(path).read().split("#[cfg(test)]\nmod tests {")[0]
    return "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//"))

def names(text):
    """The first segment of every path after `crate::`."""
    for m in re.finditer(r"crate::(\{(?:[^{}]|\{[^{}]*\})*\}|\w+)", text):
        group = m.group(1)
        if group.startswith("{"):
            inner = group[1:-1]
            while "{" in inner:
                inner = re.sub(r"\{[^{}]*\}", "", inner)
            yield from (re.match(r"\s*(\w+)", p).group(1) for p in inner.split(",") if p.strip())
        else:
            yield group

for module in sorted(modules):
    print(module, module)
    for path in files(module):
        for name in names(code(path)):
            target = name if name in modules else reexported.get(name)
            if target and target != module:
                print(module, target)
EOF
}

if [ "${1:-}" = "--edges" ]; then
  edges | awk '$1 != $2' | sort -u
  exit 0
fi
if ! edges | tsort > /dev/null; then
  echo "check-modules: the modules above form a cycle (scripts/check-modules.sh --edges shows the graph)" >&2
  exit 1
fi
echo "check-modules: no cycle between the top-level modules"
