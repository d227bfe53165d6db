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
break. ``--clang`` resolves names exactly (CP906) and stays the precise answer.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
import re
from typing import Callable, Iterable, Sequence

from . import lexer, portability_layers, scopes
from .context import FileContext
from .scan import keep_scan
from .symbols.skeleton import CLASS, Skeleton

KEPT = "CP164"
OPTION = "project_declarations"

def api_namespaces(compiled) -> frozenset[bytes]:
    names = getattr(compiled, "_api_namespaces", None)
    if names is None:
        listed = compiled.target.extra.get("api_namespaces") or ()
        names = frozenset(n.encode() for n in listed) | frozenset(compiled.namespace_names)
        compiled._api_namespaces = names
    return names


_ALIAS = re.compile(rb"(?<![\w$])namespace\s+([A-Za-z_]\w*)\s*=\s*(?:::\s*)?([A-Za-z_]\w*)\s*;")


def _aliases_of(code: bytes, api: frozenset[bytes]) -> frozenset[bytes]:
    """The file's own names for API namespaces (``namespace sh_cg = cooperative_groups;``,
    gsplat's SphericalHarmonics.cuh), aliases of those aliases included."""
    pairs = [(m.group(1), m.group(2)) for m in _ALIAS.finditer(code)]
    found: set[bytes] = set()
    grew = True
    while grew:
        grew = False
        for alias, target in pairs:
            if alias not in found and alias not in api and (target in api or target in found):
                found.add(alias)
                grew = True
    return frozenset(found)


def qualifier(code: bytes, start: int) -> bytes | None:
    """The word before ``::name`` (b"" for the global ``::name``); None if unqualified."""
    i = start
    while i > 0 and code[i - 1] in b" \t":
        i -= 1
    if code[i - 2:i] != b"::":
        return None
    i -= 2
    while i > 0 and code[i - 1] in b" \t":
        i -= 1
    if i > 0 and code[i - 1:i] == b">":
        return b"<template>"  # Traits<T>::cudaX: a member of a project template
    return scopes.word_before(code, i)[1] if i and code[i - 1] in lexer.IDENT_BYTES else b""


def _in_class_body(ctx: FileContext, start: int) -> bool:
    """Whether the innermost block around ``start`` is a struct, class or union body."""
    return ctx.skeleton.kind_at(start) == CLASS


def _renaming(ctx: FileContext) -> list[tuple[int, bytes]]:
    lookup = ctx.compiled.identifiers
    # (A macro the translation removes, CUDART_CB, is never the project's own: nvcc
    # accepts `void Operator::CUDART_CB Callback(...)` only because it expands to nothing.)
    return [(s, n) for s, n, c in ctx.scan.idents
            if c == "code" and lookup[n].renames and lookup[n].replacement != b""]


def declarations(src: bytes, compiled, idents=None, skeleton=None) -> set[tuple[bytes, bytes]]:
    """(namespace, name) of each CUDA table name ``src`` declares inside a named namespace."""
    if b"namespace" not in src:
        return set()
    if idents is None:
        lookup = compiled.identifiers
        scanned = keep_scan(src, compiled)
        idents = [(s, n) for s, n, c in scanned.idents
                  if c == "code" and lookup[n].renames]
        directives = scanned.directives
    else:
        directives = None
    found = [(s, n) for s, n in idents if scopes.is_declaration(src, s, len(n))]
    if not found:
        return set()
    code = scopes.blank(src)  # a comment's last word before a call is no type
    found = [(s, n) for s, n in found if scopes.is_declaration(code, s, len(n))]
    if not found:
        return set()
    if skeleton is None:
        skeleton = Skeleton(code, directives or ())
    out = set()
    for s, n in found:
        ns = skeleton.namespace_at(s)
        if ns:
            out.add((ns, n))
    return out


def before_passes(ctx: FileContext) -> None:
    """Drop from the scan the names that are the project's own, and report them."""
    renaming = _renaming(ctx)
    if not renaming:
        return
    src = ctx.src
    compiled = ctx.compiled
    api = api_namespaces(compiled)
    if b"namespace" in src:
        api = api | _aliases_of(ctx.code, api)
    kept: dict[int, str] = {}
    code = None
    namespaces = b"namespace" in src
    declaring = []  # (the uses that declare the name, for namespaces below)
    for s, n in renaming:
        q = qualifier(src, s)
        member = scopes.is_member(src, s)
        if q or member or b"/" in src[max(0, s - 16):s]:
            # a comment may mislead the raw text (`x. // why` then the name on the next
            # line, or a comment ending in '.'): the code without comments decides. (Only
            # then: whether code was blanked for an earlier name must not change the
            # answer, or a second run, whose earlier names are already renamed, differs.)
            code = ctx.code
            q = qualifier(code, s)
            member = scopes.is_member(code, s)
        # (confirmed on the code without comments: a comment's last word before the
        # name, `// for exogenous variables` then `cudaMemsetAsync(...)`, is no type)
        declares = (namespaces or not (q and q not in api or member)) \
            and scopes.is_declaration(src, s, len(n)) and scopes.is_declaration(ctx.code, s, len(n))
        if declares:
            declaring.append((s, n))
        if q and q not in api:
            kept[s] = f"qualified by {q.decode()}::"
        elif member:
            kept[s] = "a member"
        elif declares:
            code = ctx.code
            if _in_class_body(ctx, s):
                kept[s] = "a member"
    project = {(ns.encode(), n.encode()) for ns, n in dict(ctx.options.extra).get(OPTION, ())}
    if namespaces:
        declared = declarations(src, compiled, declaring, ctx.skeleton) | project
        names = {n for _, n in declared}
        if declared and any(n in names for _, n in renaming):
            skeleton = ctx.skeleton
            for s, n in renaming:
                if s in kept or n not in names or qualifier(src, s) is not None:
                    continue
                ns = skeleton.namespace_at(s)
                while ns:
                    if (ns, n) in declared:
                        kept[s] = f"declared in namespace {ns.decode()}"
                        break
                    ns = ns.rpartition(b"::")[0]
    if not kept:
        return
    ctx.scan.idents[:] = [i for i in ctx.scan.idents if i[0] not in kept]
    counts = Counter((n, kept[s]) for s, n in renaming if s in kept)
    reported: set[tuple[bytes, str]] = set()
    for s, n in renaming:
        why = kept.get(s)
        if why is not None and (n, why) not in reported:
            reported.add((n, why))
            uses = counts[n, why]
            ctx.find(KEPT, s, f"{n.decode()} is the project's own ({why}), not CUDA's: left "
                     f"unchanged ({uses} use(s) in this file)", n.decode())


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
    if len(read) > 1:  # (one file: its own switches are read as it is translated)
        from .platform_branches import (ARCH_DEFINED, DEAD_SWITCHES, PROJECT_CONSTANTS,
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
    return portability_layers.with_layer_names(options, lambda: read, compiled)
