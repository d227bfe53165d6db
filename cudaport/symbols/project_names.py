"""CUDA-named symbols a project declares itself stay its own, in text mode too.

A name with a CUDA API's spelling is the project's, not CUDA's, where it is reached
through the project's declaration:

* qualified by a namespace or class that is no CUDA API namespace (``mine::cudaMalloc``,
  ``quickreduce::nv_bfloat16``, ``detail::curandGenerateNormal``);
* reached through an object (``cfg.cudaStream``, ``p->cudaMalloc``);
* declared inside a named namespace (``namespace mine { int cudaMalloc(void**, int); }``),
  at that declaration and at unqualified uses inside that namespace, in this file or,
  in a tree run, in any file (the declarations are collected before translation).

Those are not renamed; one info finding (CP164) per name and file says so. CUDA API is
never declared in a namespace of the project, so this only keeps what renaming would
break. With ``--clang``, where clang parses the file, its AST binds the names it sees and the
model takes those answers before the passes (CP906 names each use so kept).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Callable, Iterable, Sequence

from ..source import lexer
from ..preprocessor import portability_layers
from ..translate.context import FileContext
from ..source.scan import keep_scan
from . import conversions, latent
from . import model as M
from .resolve import FileSymbols
from .roles import api_namespaces
from .project import OPTION
from .namespaces import opened_in_shared
from .skeleton import CLASS, Skeleton

KEPT, UNDECIDED_CALL, SHADOWED = "CP164", "CP175", "CP906"

def _in_class_body(ctx: FileContext, start: int) -> bool:
    """Whether the innermost block around ``start`` is a struct, class or union body."""
    return ctx.skeleton.kind_at(start) == CLASS


def declarations(src: bytes, compiled, idents=None, skeleton=None) -> set[tuple[bytes, bytes]]:
    """(namespace, name) of each CUDA-spelled name ``src`` declares inside a named
    namespace (the symbol model's declarations), for the other files of a run."""
    if b"namespace" not in src:
        return set()
    scanned = keep_scan(src, compiled)
    code = lexer.blank_spans(src, scanned.literals)
    skeleton = Skeleton(code, scanned.directives)
    # (namespaces and classes it opens in cuda::, libcu++'s namespace too)
    shared = opened_in_shared(skeleton) if b"cuda" in src else set()
    hits = [(s, n) for s, n, c in scanned.idents if c == "code"] + \
        [(s, n) for s, n, c in scanned.unknown if c == "code"]
    if not hits:
        return shared
    hits.sort()
    symbols = FileSymbols(src, code, hits, skeleton, api_namespaces(compiled))
    return shared | {(d.namespace, d.name) for d in symbols.decls
            if d.namespace and not d.owner_class
            and d.kind in (M.FUNCTION, M.VARIABLE, M.TYPE, M.ALIAS, M.ENUMERATOR_DECL)}


def before_passes(ctx: FileContext) -> None:
    """Drop from the scan the CUDA-spelled names the symbol model finds the project owns
    (its members, locals, parameters, template parameters, enumerators, namespace names,
    forward declarations, macro parameters), and report each once (CP164)."""
    if not ctx.scan.idents and not ctx.scan.unknown:
        return
    symbols = ctx.symbols
    lookup = ctx.compiled.identifiers
    # (a macro the translation removes, CUDART_CB, is never the project's own: nvcc
    # accepts `void Operator::CUDART_CB Callback(...)` only because it expands to nothing)
    kept = {r.start: r.why for r in symbols.project_refs()
            if (r.name not in lookup or lookup[r.name].replacement != b"")}
    undecided = symbols.undecided_calls()
    for r in undecided:
        kept[r.start] = "a call its arguments do not tie to CUDA's function or the project's overload"
    for r in symbols.opaque_refs():
        # a type the target has no form of, needed only by name (a forward declaration,
        # a pointer to it): the project's own opaque type there, not a blocker
        resolved = lookup.get(r.name)
        if resolved is None or not resolved.renames:
            kept[r.start] = "an opaque type: only its name is used"
    if not kept:
        return
    found = [(s, n) for s, n, c in ctx.scan.idents if c == "code" and s in kept]
    ctx.scan.idents[:] = [i for i in ctx.scan.idents if i[0] not in kept]
    if ctx.scan.unknown:
        own = [u for u in ctx.scan.unknown if u[0] in kept]
        if own:
            ctx.own_names = ctx.own_names | frozenset(u[1] for u in own)
            ctx.scan.unknown[:] = [u for u in ctx.scan.unknown if u[0] not in kept]
    for r in undecided:
        ctx.find(UNDECIDED_CALL, r.start, f"{r.name.decode()}: the project overloads it for a "
                 "type of its own, and this call's arguments do not tell which function it "
                 "calls: left as written (a call of CUDA's function may need the "
                 "translation's rewrite, a widened mask or another name)", r.name.decode())
    by_clang = symbols.by_clang
    for s, n in found:
        resolved = lookup.get(n)
        if by_clang.get(s) and (resolved is None or resolved.replacement != n):
            # (clang bound it to the project's declaration: each use that the rules would
            # have changed is named where it stands)
            ctx.find(SHADOWED, s, f"{n.decode()} refers to the project's own declaration "
                     f"({by_clang[s]}), not CUDA's; left unchanged", n.decode(),
                     engine="clang")
    found = [(s, n) for s, n in found if s not in by_clang]
    counts = Counter((n, kept[s]) for s, n in found)
    reported: set[tuple[bytes, str]] = set()
    for s, n in found:
        why = kept[s]
        if (n, why) in reported:
            continue
        reported.add((n, why))
        ctx.find(KEPT, s, f"{n.decode()} is the project's own ({why}), not CUDA's: left "
                 f"unchanged ({counts[n, why]} use(s) in this file)", n.decode())


def project_options(options, sources: Callable[[], Iterable[bytes]], compiled,
                    paths: Sequence | None = None):
    """``options`` for a run over a whole project, whose files are read once here before
    any is translated: every (namespace, name) the files declare (so a file that only uses
    such a name inside that namespace keeps it too) and, with --respect-layers, the names
    the project's compatibility layers define. ``paths``: the files' paths, one per source,
    where known (which file another includes)."""
    found: set[tuple[bytes, bytes]] = set()
    read = list(sources())
    for src in read:
        found |= declarations(src, compiled)
    if found:
        items = tuple(sorted((ns.decode(), n.decode()) for ns, n in found))
        extra = tuple(kv for kv in options.extra if kv[0] != OPTION)
        options = dataclasses.replace(options, extra=extra + ((OPTION, items),))
    halves: dict[bytes, bytes] = {}  # (classes built from one number ambiguously on HIP)
    for src in read:
        halves.update(conversions.half_pair_classes(src))
    options = conversions.with_classes(options, halves)
    if len(read) > 1:  # (one file: its own switches are read as it is translated)
        from ..preprocessor.platform_branches import (ARCH_DEFINED, DEAD_SWITCHES, PROJECT_CONSTANTS,
                                        project_arch_macros, project_constants,
                                        project_dead_switches)

        arch = tuple(n.decode() for n in project_arch_macros(compiled, read, paths,
                                                             tuple(options.defines)))
        if arch:  # (before the scan: it reads conditions as every file of the run will)
            extra = tuple(kv for kv in options.extra if kv[0] != ARCH_DEFINED)
            options = dataclasses.replace(options, extra=extra + ((ARCH_DEFINED, arch),))
        constants = project_constants(read)
        if constants:
            extra = tuple(kv for kv in options.extra if kv[0] != PROJECT_CONSTANTS)
            options = dataclasses.replace(options, extra=extra + ((PROJECT_CONSTANTS, constants),))
        dead = project_dead_switches(read, compiled, options)
        if dead:
            extra = tuple(kv for kv in options.extra if kv[0] != DEAD_SWITCHES)
            options = dataclasses.replace(options, extra=extra + ((DEAD_SWITCHES, dead),))
        # (which macros holding CUDA names the run expands, and what it #defines: a
        # finding the run never meets is a warning, symbols/latent.py)
        bodies = set().union(*(latent.macros_with_cuda(src, compiled) for src in read))
        facts = latent.run_facts(read, bodies)
        extra = tuple(kv for kv in options.extra if kv[0] not in facts)
        options = dataclasses.replace(options, extra=extra + tuple(facts.items()))
    return portability_layers.with_layer_names(options, lambda: read, compiled)
