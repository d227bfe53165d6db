"""Damage a translation does to code that was already portable:
``python bench/portability_damage.py TREE... [--target hip] [--mode ...]``.

Translates every C/C++/CUDA file of each TREE in memory (nothing is written) and counts,
per tree, what the output has that the input did not:

* selfdef: ``#define A A`` / ``#define f(x) f(x, y)``: a macro whose body names itself;
* alias:   ``using X = X;`` / ``typedef X X;``;
* dup:     a type, typedef, enumerator, ``case`` label, macro or function definition (name
           and parameter list) that occurs more often in its scope (namespace or enum or
           switch body, preprocessor branch) than it did before translation;
* own:     names the project declares itself that got renamed: a name qualified by a
           namespace that is no CUDA API namespace (``mine::cudaMalloc``), a name at its
           own declaration in a named namespace (``namespace q { struct cudaX {``), or a
           name used inside a namespace in which some file of the tree declares it;
* again:   files whose output changes when translated once more.

Also printed: files, files changed, and the files where the compatibility-layer or
HIP-branch recognition left text alone (``layers``). ``--show`` prints each case.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cudaport.symbols import project_names, scopes  # noqa: E402
from cudaport.run.driver import plan  # noqa: E402
from cudaport.options import Options  # noqa: E402
from cudaport.rules.compiled import get_compiled  # noqa: E402
from cudaport.translate.pipeline import InputError, translate_bytes  # noqa: E402

COLUMNS = ("files", "changed", "selfdef", "alias", "dup", "own", "again", "layers")


def _created(before: list[tuple], after: list[tuple]) -> list[bytes]:
    """Names in ``after`` beyond their count in ``before``."""
    left = Counter(item[2] for item in before)
    out = []
    for item in after:
        if left[item[2]] > 0:
            left[item[2]] -= 1
        else:
            out.append(item[2])
    return out


def _dups(src: bytes) -> tuple[Counter, dict]:
    """Repeated definitions per (kind, scope) (a key renamed by the translation still
    counts against the same scope), and one repeated key per (kind, scope) to show."""
    counts: Counter = Counter()
    shown = {}
    for (kind, scope, key), v in scopes.duplicates(scopes.definitions(src)).items():
        counts[(kind, scope)] += len(v) - 1
        shown[(kind, scope)] = key
    return counts, shown


def _declared_in_namespaces(src: bytes, names) -> set[tuple[bytes, bytes]]:
    """(namespace, name) for table names the file declares inside a named namespace."""
    out = set()
    for d in scopes.definitions(src):
        if d.kind in ("type", "typedef", "alias", "function") and d.scope[0]:
            name = d.key.split(b"(")[0].split(b" ")[-1]
            if name in names:
                out.add((d.scope[0], name))
    return out


def _own_renamed(src: bytes, result, declared: set[tuple[bytes, bytes]],
                 api_namespaces: frozenset[bytes]) -> list[tuple[int, bytes, str]]:
    code = scopes.blank(src)
    blocks = scopes.namespaces(code)
    decl_sites = {d.name_start for d in scopes.definitions(src, code)
                  if d.kind in ("type", "typedef", "alias", "function") and d.scope[0]}
    out = []
    for e in result.edits:
        name = src[e.start:e.end]
        if not _is_ident(name):
            continue
        before = code[max(0, e.start - 80):e.start].rstrip()
        if before.endswith(b"::"):
            qual = before[:-2].rstrip()
            i = len(qual)
            while i and (chr(qual[i - 1]).isalnum() or qual[i - 1] == 0x5F):
                i -= 1
            q = qual[i:]
            if q and q not in api_namespaces:
                out.append((e.start, name, f"qualified by {q.decode()}::"))
            continue
        if e.start in decl_sites:
            out.append((e.start, name, "its own declaration"))
            continue
        ns = scopes.namespace_at(blocks, e.start)
        while ns:
            if (ns, name) in declared:
                out.append((e.start, name, f"declared in namespace {ns.decode()}"))
                break
            ns = ns.rpartition(b"::")[0]
    return out


def _is_ident(text: bytes) -> bool:
    return bool(text) and all(c == 0x5F or c == 0x24 or chr(c).isalnum() for c in text) \
        and not chr(text[0]).isdigit()


def measure(tree: Path, options: Options, show: bool) -> dict[str, int]:
    compiled = get_compiled(options)
    api_namespaces = frozenset(compiled.target.extra.get("api_namespaces") or ()) \
        | frozenset(n.decode() for n in compiled.namespace_names)
    api_namespaces = frozenset(n.encode() for n in api_namespaces)
    jobs = [j for j in plan([tree], None).jobs if j.kind == "source"]
    counts = Counter(files=len(jobs))
    sources = {}
    for job in jobs:
        try:
            sources[job] = job.source.read_bytes()
        except OSError:
            continue
    renamable = {n for n, r in compiled.identifiers.items() if r.renames}
    declared: set[tuple[bytes, bytes]] = set()
    for data in sources.values():
        if b"namespace" in data:
            declared |= _declared_in_namespaces(data, renamable)
    options = project_names.project_options(options, lambda: sources.values(), compiled)
    for job, data in sources.items():
        try:
            result = translate_bytes(data, options, job.shown, compiled)
        except InputError:
            continue
        out = result.output
        found: list[tuple[str, str]] = []
        if any(f.code in LAYER_CODES for f in result.findings):
            counts["layers"] += 1
        if out == data:
            continue
        counts["changed"] += 1
        code_in, code_out = scopes.blank(data), scopes.blank(out)
        for name in _created(scopes.self_macros(code_in), scopes.self_macros(code_out)):
            found.append(("selfdef", name.decode()))
        for name in _created(scopes.self_aliases(code_in), scopes.self_aliases(code_out)):
            found.append(("alias", name.decode()))
        before, _ = _dups(data)
        after, shown = _dups(out)
        for where, n in after.items():
            for _ in range(n - before.get(where, 0)):
                found.append(("dup", f"{where[0]} {shown[where].decode(errors='replace')}"))
        for offset, name, why in _own_renamed(data, result, declared, api_namespaces):
            line = data.count(b"\n", 0, offset) + 1
            found.append(("own", f"line {line}: {name.decode()} ({why})"))
        if translate_bytes(out, options, job.shown, compiled).output != out:
            found.append(("again", ""))
        for column, what in found:
            counts[column] += 1
            if show:
                print(f"  {job.shown}: {column}: {what}")
    return counts


LAYER_CODES = frozenset(("CP160", "CP161"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--target", default="hip")
    parser.add_argument("--show", action="store_true", help="print every case found")
    args = parser.parse_args()
    options = Options(target=args.target)
    print(f"{'tree':<28}" + "".join(f"{c:>9}" for c in COLUMNS) + f"{'seconds':>9}")
    total = Counter()
    for tree in args.trees:
        start = time.perf_counter()
        counts = measure(tree, options, args.show)
        total.update(counts)
        label = tree.name if tree.name not in ("csrc", "src") else \
            f"{tree.parent.name}/{tree.name}"
        print(f"{label[:28]:<28}" + "".join(f"{counts[c]:>9}" for c in COLUMNS)
              + f"{time.perf_counter() - start:>9.1f}", flush=True)
    if len(args.trees) > 1:
        print(f"{'total':<28}" + "".join(f"{total[c]:>9}" for c in COLUMNS))


if __name__ == "__main__":
    main()
