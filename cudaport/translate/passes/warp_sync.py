"""Warp lane masks for the target's wavefront, and the macro that enables the intrinsics.

Rules mark the argument of a warp intrinsic that is a lane mask (``lane_mask: 1``) and the
macro a target version needs defined before its headers (``needs_macro``); see
rules/hip/warp.yaml for the facts and README "Warp-synchronous intrinsics" for the policy.
"""

from __future__ import annotations

import re
from pathlib import Path

from ...source import lexer
from ..context import FileContext
from ...source.edits import Edit
from ...rules.frameworks import include_paths
from ...rules.model import version_tuple
from .registry import register
from ...source.lazy_re import lazy

FULL_MASK = b"__activemask()"  # 64 bits, and the lanes HIP's run-time mask check expects
_U32 = rb"(?:unsigned|unsignedint|uint32_t|std::uint32_t|uint)"
# A 32-bit full-warp mask, with blanks and comments removed.
_FULL_32 = lazy(
    rb"\(*(?:0[xX][fF]{8}[uUlL]*|4294967295[uUlL]*|~0[uU]?|~0[xX]0+[uU]?|~" + _U32 + rb"\(0\)"
    rb"|(?:\(" + _U32 + rb"\)|" + _U32 + rb"|static_cast<" + _U32 + rb">)\(?-1\)?)\)*\Z")
# Masks that are already 64 bits wide: left as written.
_WIDE = lazy(
    rb"\(*(?:0[xX][fF]{16}[uUlL]*|~0(?:ull|ULL|llu|LLU|ul|UL)|__activemask\(\)"
    rb"|(?:static_cast<(?:unsignedlonglong|uint64_t|std::uint64_t)>|\((?:unsignedlonglong|uint64_t"
    rb"|std::uint64_t)\))\S*)\)*\Z")
_NAME = lazy(rb"[A-Za-z_]\w*\Z")
_SPACE = lazy(lexer.LINE_COMMENT + rb"|" + lexer.BLOCK_COMMENT + rb"|\s+")


@register(25, "warp-sync")
def warp_sync(ctx: FileContext) -> None:
    lookup = ctx.compiled.identifiers
    src = ctx.src
    version = ctx.compiled.version
    macros: set[bytes] = set()
    relevant = _relevant_names(ctx.compiled)
    for start, name, context in ctx.scan.idents if not ctx.names.isdisjoint(relevant) else ():
        if context != "code" or name not in relevant:
            continue
        r = lookup[name]
        entry = r.entry
        if entry is None or r.status not in ("converted", "same"):
            continue
        if entry.needs_macro is not None and _applies(entry.needs_macro, version):
            macros.add(entry.needs_macro[0].encode())
        if entry.lane_mask is not None:
            _mask(ctx, start, start + len(name), entry.lane_mask, name.decode())
        since = entry.runtime_value_since
        if since and version is not None and version >= version_tuple(since) \
                and _needs_constant(src, start):
            ctx.find("CP220", start, f"{name.decode()} is used as a constant expression; "
                     f"from {ctx.compiled.target.title} {since} it is a run-time value",
                     name.decode())
    ctx.defines |= macros
    if not macros and ctx.compiled.version_macros and _includes_project_header(ctx):
        # A project header this file includes may use the intrinsics; the macro must come
        # before the HIP header, which this file includes first (see includes.main_header).
        ctx.defines_with_main = tuple(ctx.compiled.version_macros)


def _relevant_names(compiled) -> frozenset[bytes]:
    """Names this pass acts on (a macro they need, a lane mask, a value that became a
    run-time one): a file with none of them is not walked name by name."""
    names = getattr(compiled, "_warp_sync_names", None)
    if names is None:
        names = frozenset(
            name for name, r in compiled.identifiers.items()
            if r.entry is not None and r.status in ("converted", "same") and (
                r.entry.needs_macro is not None or r.entry.lane_mask is not None
                or r.entry.runtime_value_since))
        compiled._warp_sync_names = names
    return names


# Folders of the C library and the OS below /usr/include: ``<sys/time.h>`` is no project's.
_SYSTEM_DIRS = frozenset({b"sys", b"bits", b"linux", b"asm", b"asm-generic", b"net", b"netinet",
                          b"arpa", b"gnu", b"mach", b"machine", b"x86_64-linux-gnu"})


def _includes_project_header(ctx: FileContext) -> bool:
    """An include that is neither a CUDA header a rule maps nor a header a translation
    produces (so a second run sees the same): the project's own header. Quoted, or in
    angle brackets with a folder (``<faiss/gpu/utils/Float16.cuh>``, as projects that
    install their headers write them) that is neither the system's nor one of a library
    the rules know (``<ATen/ATen.h>``, ``<cutlass/gemm.h>``, ``<hip/...>``)."""
    src = ctx.src
    compiled = ctx.compiled
    known = _library_folders(compiled, ctx.options.framework)
    # (each name's answer is kept: a project's headers are included by many files)
    memo = compiled.__dict__.setdefault("_project_header_memo", {})
    for inc in ctx.scan.includes:
        key = (inc.name, src[inc.name_start - 1:inc.name_start] == b'"', ctx.options.framework)
        own = memo.get(key)
        if own is None:
            own = inc.name not in compiled.headers and inc.name not in compiled.target_headers \
                and (key[1] or b"/" in inc.name and inc.name.split(b"/")[0] not in known)
            if len(memo) < 100_000:
                memo[key] = own
        if own:
            return True
    return False


def _library_folders(compiled, framework: str | None) -> frozenset[bytes]:
    """First folders of the headers the rule tables and the framework's include paths
    know, and the system's (computed once per rule table)."""
    folders = getattr(compiled, "_library_folders", None)
    if folders is None:
        paths = framework and include_paths(str(Path(compiled.table.files[0]).parent), framework)
        folders = _SYSTEM_DIRS | frozenset(
            name.split(b"/")[0] for table in (compiled.headers, compiled.target_headers)
            for name in table if b"/" in name) | frozenset(
            f.split("/")[0].encode() for f in (paths.folders if paths else ()))
        compiled._library_folders = folders
    return folders


def _applies(needs: tuple, version: tuple[int, ...] | None) -> bool:
    _name, since, before = needs
    if version is None:
        return before is None
    return (since is None or version >= version_tuple(since)) and (
        before is None or version < version_tuple(before))


def _mask(ctx: FileContext, start: int, end: int, number: int, ident: str) -> None:
    src = ctx.src
    parsed = ctx.call_arguments(start, end)
    if parsed is None or len(parsed[0]) < number:
        return
    a, b = parsed[0][number - 1]
    text = _SPACE.sub(b"", src[a:b])
    if _WIDE.match(text) or _is_wide_name(ctx, text):
        return
    if _FULL_32.match(text) or _is_full_name(ctx, text):
        ctx.edits.append(Edit(a, b, FULL_MASK, "hip/warp-mask"))
        return
    ctx.edits.append(Edit(a, a, b"static_cast<unsigned long long>(", "hip/warp-mask"))
    ctx.edits.append(Edit(b, b, b")", "hip/warp-mask"))
    ctx.find("CP219", a, f"{ident}: lane mask {src[a:b].decode(errors='replace')} is not a "
             f"full-warp constant; cast to 64 bits, check which of the "
             f"{ctx.compiled.target.warp_size} lanes it names", ident)


# Before a use, within its statement: a context that needs a constant expression.
_CONSTANT_CONTEXT = lazy(
    rb"\b(?:constexpr|consteval|static_assert|alignas|case)\b"  # constexpr x = warpSize
    rb"|(?:__shared__|\bstatic|\bconst)\b[^=;]*\w\s*\[[^\]]*\Z"  # __shared__ T a[warpSize
    rb"|^\s*(?:[\w:]+\s+)+\w+\s*\[[^\]]*\Z"  # T a[warpSize (a declaration)
    rb"|\w<[^<>;(){}]*\Z", re.M)  # Template<warpSize


def _needs_constant(src: bytes, start: int) -> bool:
    """Whether the name at ``start`` sits where C++ needs a constant expression."""
    begin = max(src.rfind(b";", 0, start), src.rfind(b"{", 0, start),
                src.rfind(b"}", 0, start), src.rfind(b"\n#", 0, start)) + 1
    return _CONSTANT_CONTEXT.search(src, begin, start) is not None


_FULL_DEFINITION = lazy(
    rb"#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\n]*)|\b(?:constexpr|const)\s+[\w:\s]*?\b"
    rb"([A-Za-z_]\w*)\s*(?:=\s*([^;{}]*?)|\{([^;{}]*)\})\s*;")
_WIDE_DECLARATION = lazy(
    rb"\b(?:unsigned\s+long\s+long(?:\s+int)?|(?:std::)?uint64_t|lane_mask)\s+([A-Za-z_]\w*)\b")


def _names(ctx: FileContext) -> tuple[frozenset[bytes], frozenset[bytes]]:
    """(names the file defines as a 32-bit full mask, names it declares with a 64-bit
    type), read once per file."""
    found = ctx.__dict__.get("_mask_names")
    if found is None:
        src = ctx.code  # (comments blanked: their words declare nothing)
        full = set()
        for m in _FULL_DEFINITION.finditer(src):
            name = m.group(1) or m.group(3)
            value = next(g for g in m.group(2, 4, 5) if g is not None)
            if _FULL_32.match(_SPACE.sub(b"", value)):
                full.add(name)
        wide = {m.group(1) for m in _WIDE_DECLARATION.finditer(src)}
        found = ctx.__dict__["_mask_names"] = (frozenset(full), frozenset(wide))
    return found


def _is_full_name(ctx: FileContext, text: bytes) -> bool:
    """A name the file defines as a 32-bit full mask (``#define FULL_MASK 0xffffffff``,
    ``constexpr unsigned kFull = 0xffffffffu;``)."""
    return bool(_NAME.match(text)) and text in _names(ctx)[0]


def _is_wide_name(ctx: FileContext, text: bytes) -> bool:
    """A name the file declares with a 64-bit type."""
    return bool(_NAME.match(text)) and text in _names(ctx)[1]
