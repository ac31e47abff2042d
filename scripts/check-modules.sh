#!/usr/bin/env bash
# Fails when modules depend on each other in a cycle, in each of:
# - the Rust crates' top-level modules: the library (src/*.rs and src/*/, not
#   src/bin), sha1dcsum's library (sha1dcsum/src) and its command
#   (sha1dcsum/src/bin/sha1dcsum), the wasm bindings, the C library and
#   the git repository verifier (gitverify/src) and its command.
#   Module A depends on B when code of A (comments and `#[cfg(test)] mod
#   tests` left out) names `crate::B`, or an item the crate root re-exports
#   from B (`pub use B::...` in lib.rs); items the root itself defines (the
#   public `Hasher`) are the top of the graph, not a module;
# - the JavaScript modules of the npm package (npm/, its command's cli/
#   included) and of the page (www/): A depends on B when A imports or
#   re-exports from B (`import ... from './b.mjs'`); the page's ./pkg/ is
#   the package (npm/), copied in.
# A cycle is printed, module by module.
#   scripts/check-modules.sh          check
#   scripts/check-modules.sh --edges  print the graphs, one "GRAPH: A B" a line
set -euo pipefail
cd "$(dirname "$0")/.."

python3 - "$@" <<'EOF'
import os, re, sys

# (graph, source directory, crate root, subdirectories that are not modules)
CRATES = [
    ("sha1dc-wasm", "src", "lib.rs", {"bin"}),
    ("sha1dcsum", "sha1dcsum/src", "lib.rs", {"bin"}),
    ("sha1dcsum (command)", "sha1dcsum/src/bin/sha1dcsum", "main.rs", set()),
    ("bindings", "bindings/src", "lib.rs", set()),
    ("capi", "capi/src", "lib.rs", set()),
    ("gitverify", "gitverify/src", "lib.rs", {"bin"}),
    ("git-sha1dc (command)", "gitverify/src/bin/git-sha1dc", "main.rs", set()),
]
# (graph, directories whose modules it holds, file suffixes)
JS = [
    ("npm", ["npm", "npm/cli"], (".mjs",)),
    ("www", ["www"], (".js",)),
]
# A path under the page's copy of the package, as the package's source.
JS_ALIASES = [("www/pkg/", "npm/")]


def rust_code(path):
    text = open(path).read().split("#[cfg(test)]\nmod tests {")[0]
    return "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//"))


def crate_paths(text):
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


def rust_edges(src, root, not_modules):
    names = os.listdir(src)
    modules = {
        n[:-3] if n.endswith(".rs") else n
        for n in names
        if n != root and n not in not_modules
        and (n.endswith(".rs") or os.path.isdir(os.path.join(src, n)))
    }
    reexported = {}
    for m in re.finditer(r"pub use (\w+)::(\{[^}]*\}|\w+);", open(os.path.join(src, root)).read()):
        for name in re.findall(r"\w+", m.group(2)):
            reexported[name] = m.group(1)

    def files(module):
        if os.path.isdir(os.path.join(src, module)):
            for top, _, found in os.walk(os.path.join(src, module)):
                yield from (os.path.join(top, n) for n in found if n.endswith(".rs") and n != "tests.rs")
        else:
            yield os.path.join(src, module + ".rs")

    for module in sorted(modules):
        yield module, module
        for path in files(module):
            for name in crate_paths(rust_code(path)):
                target = name if name in modules else reexported.get(name)
                if target and target != module:
                    yield module, target


IMPORT = re.compile(
    r"""^(?:(?:import|export)\b[^;'"]*?\bfrom\s*|import\s*)['"](\.{1,2}/[^'"]+)['"]""", re.M
)


def js_edges(dirs, suffixes):
    files = sorted(
        os.path.join(d, n) for d in dirs for n in os.listdir(d) if n.endswith(suffixes)
    )
    for path in files:
        yield path, path
        for m in IMPORT.finditer(open(path).read()):
            target = os.path.normpath(os.path.join(os.path.dirname(path), m.group(1)))
            for alias, source in JS_ALIASES:
                if target.startswith(alias):
                    target = source + target[len(alias):]
            # What is not in the tree is generated (the wasm glue): no module of its own.
            if os.path.isfile(target) and target != path:
                yield path, target


def cycle(edges):
    """A cycle of the graph, as a list of its nodes, or None (Tarjan's SCCs)."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set())
        graph.setdefault(b, set())
        if a != b:
            graph[a].add(b)
    index, low, stack, on, counter = {}, {}, [], set(), [0]
    found = []

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                found.append(scc)

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    if not found:
        return None
    # One cycle through the component: follow edges inside it back to the start.
    scc = set(found[0])
    start = min(scc)
    path, seen = [start], {start}
    while True:
        nxt = min(w for w in graph[path[-1]] if w in scc)
        if nxt in seen:
            return path[path.index(nxt):] + [nxt]
        path.append(nxt)
        seen.add(nxt)


graphs = [(g, list(rust_edges(s, r, n))) for g, s, r, n in CRATES]
graphs += [(g, list(js_edges(d, x))) for g, d, x in JS]
if sys.argv[1:] == ["--edges"]:
    for g, edges in graphs:
        for a, b in sorted(set(edges)):
            if a != b:
                print(f"{g}: {a} {b}")
    sys.exit(0)
failed = False
for g, edges in graphs:
    loop = cycle(edges)
    modules = len({a for a, _ in edges})
    if loop:
        failed = True
        print(f"check-modules: {g}: a cycle: {' -> '.join(loop)}", file=sys.stderr)
    else:
        print(f"check-modules: {g}: no cycle between its {modules} module{'' if modules == 1 else 's'}")
if failed:
    print("check-modules: scripts/check-modules.sh --edges shows the graphs", file=sys.stderr)
    sys.exit(1)
EOF
