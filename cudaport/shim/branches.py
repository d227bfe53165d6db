"""Which ``#if`` branches a build of the unmodified sources through the shim never
compiles.

The shim's build is not the translation's: the sources keep their CUDA text, the shim
defines CUDA's version macros as CUDA 13's (and ``__CUDACC__`` where hipcc's
``__HIPCC__`` is), and hipcc defines its own platform macros but none of CUDA's
architecture macros (``__CUDA_ARCH__``). A construct that needs a source edit in a branch
that build never compiles needs none (ggml's ``cp.async`` PTX stands under
``CP_ASYNC_AVAILABLE``, which ggml defines only where ``__CUDA_ARCH__ >= 800``).

The answer comes from the one branch tree (:class:`cudaport.preprocessor.branches.BranchTree`)
and condition evaluator (:mod:`cudaport.conditions`), with these facts, and, to a fixed
point over the project's files, the names the project ``#define``s only inside branches
never compiled (undefined everywhere then), and the integer constants it defines at the
top level (:func:`cudaport.platform_branches.project_constants`).
"""

from __future__ import annotations

import re

from .. import conditions
from ..platform_branches import header_on_target, project_constants, retired_macros
from ..preprocessor.branches import BranchTree, Inside
from ..rules.compiled import Compiled
from ..scan import Scan

_DEFINE = re.compile(rb"(?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)")
_COMMENT = re.compile(rb"/\*.*?\*/|//[^\n]*", re.S)
PASSES = 8  # bound of the fixed point (a chain of switches deeper than this stays unknown)


def shim_facts(compiled: Compiled, sources: list[bytes]) -> conditions.Known:
    """What a build through the shim is known to define and not define."""
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
    return conditions.Known(tuple(defined.items()), frozenset(undefined - set(defined)),
                            lambda name: header_on_target(compiled, name),
                            (lambda n: family(n) is not None) if family else None)


def dead_spans(files: list[tuple[bytes, Scan]], compiled: Compiled) -> list[Inside]:
    """For each (source, scan) of the project, the spans the shim's build never compiles."""
    facts = shim_facts(compiled, [src for src, _ in files])
    trees = [BranchTree(src, scan.directives) for src, scan in files]
    sites = [[(m.start(), m.group(1)) for m in _DEFINE.finditer(src)] if b"define" in src
             else [] for src, _ in files]
    given = {n for n, _ in facts.defined}
    dead: frozenset[bytes] = frozenset()
    decided = []
    for _ in range(PASSES):
        now = conditions.Known(facts.defined, facts.undefined | dead, facts.header,
                               facts.undefined_family, facts.functions)
        decided = [tree.decide(_test(tree, now)) for tree in trees]
        only_dead: dict[bytes, bool] = {}
        for tree, found, decision in zip(trees, sites, decided):
            for offset, name in found:
                index = tree.at(offset)
                off = index >= 0 and decision[index] is False
                only_dead[name] = only_dead.get(name, True) and off
        new = frozenset(n for n, off in only_dead.items() if off and n not in given)
        if new == dead:
            break
        dead = new
    return [Inside(tree.spans(decision, lambda d: d is False))
            for tree, decision in zip(trees, decided)]


def _test(tree: BranchTree, facts: conditions.Known):
    def test(branch) -> bool | None:
        a, b = branch.cond
        cond = tree.src[a:b]
        if b"/" in cond:
            cond = _COMMENT.sub(b" ", cond)
        if branch.word in (b"ifdef", b"ifndef"):
            cond = (b"" if branch.word == b"ifdef" else b"!") + b"defined(" + cond.strip() + b")"
        return conditions.evaluate(cond, facts)

    return test
