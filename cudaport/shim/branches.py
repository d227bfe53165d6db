"""Which ``#if`` branches a build of the unmodified sources through the shim never
compiles.

The shim's build is not the translation's: the sources keep their CUDA text, the shim
defines CUDA's version macros as CUDA 13's (and ``__CUDACC__`` where hipcc's
``__HIPCC__`` is), and hipcc defines its own platform macros but none of CUDA's
architecture macros (``__CUDA_ARCH__``). A construct that needs a source edit in a branch
that build never compiles needs none (ggml's ``cp.async`` PTX stands under
``CP_ASYNC_AVAILABLE``, which ggml defines only where ``__CUDA_ARCH__ >= 800``).

The answer comes from the one branch tree (:class:`cudaport.preprocessor.branches.BranchTree`)
and condition evaluator (:mod:`cudaport.preprocessor.conditions`), with these facts, and, to a fixed
point over the project's files, the names the project ``#define``s only inside branches
never compiled (undefined everywhere then), and the integer constants it defines at the
top level (:func:`cudaport.preprocessor.platform_branches.project_constants`).
"""

from __future__ import annotations

import re

from ..preprocessor import conditions
from ..preprocessor.platform_branches import header_on_target, project_constants, retired_macros
from ..preprocessor.branches import BranchTree
from ..source.spans import Inside
from ..rules.compiled import Compiled
from ..source.scan import Scan
from ..source.lazy_re import lazy

_DEFINE = lazy(rb"(?m)^[ \t]*#[ \t]*(define|undef)[ \t]+([A-Za-z_]\w*)")
_COMMENT = lazy(rb"/\*.*?\*/|//[^\n]*", re.S)
PASSES = 8  # bound of the fixed point (a chain of switches deeper than this stays unknown)


def shim_facts(compiled: Compiled, sources: list[bytes],
               withheld: frozenset[bytes] = frozenset()) -> conditions.Known:
    """What a build through the shim is known to define and not define; ``withheld``: CUDA
    headers the shim leaves out, which ``__has_include`` does not find."""
    extra = compiled.target.extra
    defined: dict[bytes, int] = {m.encode(): 1 for m in extra.get("predefined_macros") or ()}
    for name, value in (extra.get("cuda_version_values") or {}).items():
        defined[name.encode()] = int(value)
    defined[b"__CUDACC__"] = 1  # (the shim defines it where the project tests it)
    undefined = {m.encode() for m in extra.get("cuda_arch_macros") or ()}
    undefined |= {m.encode() for m in retired_macros(compiled, compiled.version)}
    pattern = extra.get("cuda_arch_macro_pattern")
    family = re.compile(pattern.encode()).fullmatch if pattern else None
    for name, value in project_constants(sources):
        # (not CUDA's architecture macros: a project that defines __CUDA_ARCH__ does so
        # for its own HIP build, ggml's vendors/hip.h, which the shim's build is not)
        if name.encode() not in undefined and not (family and family(name.encode())):
            defined.setdefault(name.encode(), value)

    def header(name: bytes) -> bool | None:
        return False if name in withheld else header_on_target(compiled, name)

    return conditions.Known(tuple(defined.items()), frozenset(undefined - set(defined)),
                            header, (lambda n: family(n) is not None) if family else None)


def dead_spans(files: list[tuple[bytes, Scan]], compiled: Compiled,
               withheld: frozenset[bytes] = frozenset()) -> list[Inside]:
    """For each (source, scan) of the project, the spans the shim's build never compiles.

    To a fixed point over the files: a name the project #defines only in branches never
    compiled is undefined; one it #defines to one integer literal wherever it does in a
    branch compiled, each such branch compiled for certain (an include guard's counts),
    has that value (llm.c's mfu.h: `#define USE_NVML 0` in the `#else` of
    `#if __has_include(<nvml.h>)` decides `#if USE_NVML`)."""
    facts = shim_facts(compiled, [src for src, _ in files], withheld)
    trees = [BranchTree(src, scan.directives) for src, scan in files]
    sites = [_sites(src) for src, _ in files]
    guards = [_guard(tree, found) for tree, found in zip(trees, sites)]
    given = {n for n, _ in facts.defined} | set(facts.undefined)
    dead: frozenset[bytes] = frozenset()
    values: dict[bytes, int] = {}
    decided = []
    for _ in range(PASSES):
        now = conditions.Known(facts.defined + tuple(sorted(values.items())),
                               facts.undefined | dead, facts.header, facts.undefined_family,
                               facts.functions)
        decided = [tree.decide(_test(tree, now, guard)) for tree, guard in zip(trees, guards)]
        only_dead: dict[bytes, bool] = {}
        literal: dict[bytes, set] = {}  # name -> values at live sites (None: not certain)
        for tree, found, decision in zip(trees, sites, decided):
            for offset, name, value in found:
                index = tree.at(offset)
                off = index >= 0 and decision[index] is False
                only_dead[name] = only_dead.get(name, True) and off
                if not off:
                    certain = all(decision[i] is True for i in tree.chain(index))
                    literal.setdefault(name, set()).add(value if certain else None)
        new_dead = frozenset(n for n, off in only_dead.items() if off and n not in given)
        new_values = {n: next(iter(v)) for n, v in literal.items()
                      if len(v) == 1 and None not in v and n not in given}
        if new_dead == dead and new_values == values:
            break
        dead, values = new_dead, new_values
    return [Inside(tree.spans(decision, lambda d: d is False))
            for tree, decision in zip(trees, decided)]


_LITERAL = lazy(rb"[ \t]+\(?[ \t]*(0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)[uUlL]*[ \t]*\)?[ \t]*"
                rb"(?://[^\n]*|/\*[^\n]*?\*/[ \t]*)?(?=\r?\n|\Z)")


def _sites(src: bytes) -> list[tuple[int, bytes, int | None]]:
    """(offset, name, value) of each #define and #undef of ``src``; the value of a #define
    whose body is one integer literal, else None."""
    if b"define" not in src:
        return []
    out = []
    for m in _DEFINE.finditer(src):
        lit = None if m.group(1) == b"undef" else _LITERAL.match(src, m.end())
        out.append((m.start(), m.group(2), None if lit is None else int(lit.group(1), 0)))
    return out


def _guard(tree: BranchTree, sites) -> int:
    """Index of the branch that is the file's include guard (`#ifndef G` first, `#define G`
    next, its #endif last), or -1."""
    if not tree.branches:
        return -1
    first = tree.branches[0]
    cond = tree.src[first.cond[0]:first.cond[1]].strip()
    if first.word == b"if":
        m = re.fullmatch(rb"!\s*defined\s*(?:\(\s*(\w+)\s*\)|\s+(\w+))", cond)
        cond = (m.group(1) or m.group(2)) if m else b""
    elif first.word != b"ifndef":
        return -1
    group = tree.groups[first.group]
    after = next((s for s in sites if s[0] > first.start), None)
    last_directive = max((b.start for b in tree.branches), default=-1)
    if cond and after is not None and after[1] == cond and group.endif > last_directive \
            and len(group.branches) == 1:
        return 0
    return -1


def _test(tree: BranchTree, facts: conditions.Known, guard: int = -1):
    def test(branch) -> bool | None:
        if guard == 0 and branch is tree.branches[0]:
            return True  # the include guard: read the first time the file is
        a, b = branch.cond
        cond = tree.src[a:b]
        if b"/" in cond:
            cond = _COMMENT.sub(b" ", cond)
        if branch.word in (b"ifdef", b"ifndef"):
            cond = (b"" if branch.word == b"ifdef" else b"!") + b"defined(" + cond.strip() + b")"
        return conditions.evaluate(cond, facts)

    return test
