"""Portability hazards (CP2xx): code that translates cleanly but behaves differently, or does
not build, on the target.

Text patterns run on a copy of the file with comments and literals blanked, so they see
every ``#if`` branch; where clang parsed the file its facts add what text cannot see (a
ballot stored through a typedef, a launch inside device code, a ``cudaDeviceProp`` field
reached through any expression). Warp-width hazards fire only when the target's warp is
wider than 32 (``warp_size`` in target.yaml, ``--warp-size``).
"""

from __future__ import annotations

import functools
import re
from typing import Iterator

from ...source import lexer
from ...preprocessor import platform_branches
from .. import ptx
from ..context import FileContext
from ...source.edits import Edit
from ...findings import Finding, Fix
from ...rules.hazards import (declared_objects_pattern, device_prop_pattern, lacking,
                             member_access_pattern, member_use_pattern, names_pattern,
                             struct_member_facts, struct_member_types, target_facts)
from ...preprocessor.gates import ARCH_VALUE, in_directive
from ...symbols.skeleton import FUNCTION, LAMBDA
from .registry import register
from ...source.lazy_re import lazy

# Each check runs only in files that have what it looks for: a name the scan found in code
# (a set lookup), or else a plain substring test (memchr speed). A whole-file regex per
# check, or one regex over every check's words, cost as much as the translation.
# (the match functions return a lane mask too: unsigned int in CUDA, 64 bits in HIP)
_BALLOTS = frozenset((b"__ballot", b"__ballot_sync", b"__activemask", b"__match_any_sync",
                      b"__match_all_sync"))
_SHUFFLES = frozenset((b"__shfl", b"__shfl_up", b"__shfl_down", b"__shfl_xor", b"__shfl_sync",
                       b"__shfl_up_sync", b"__shfl_down_sync", b"__shfl_xor_sync"))
_TEXTURE_OBJECTS = frozenset((b"cudaTextureObject_t", b"cudaSurfaceObject_t", b"CUtexObject",
                              b"CUsurfObject"))
_WARP_WORDS = (b"arp", b"ARP", b"ffffffff", b"FFFFFFFF")
_GEMMS_EX = frozenset((b"cublasGemmEx", b"cublasGemmBatchedEx", b"cublasGemmStridedBatchedEx"))

_ASM_WORD = rb"(?:" + lexer.word(b"asm") + rb"|" + lexer.word(b"__asm") + rb"(?:__)?)\b"
_ASM = lazy(_ASM_WORD + rb"\s*(?:(?:volatile|__volatile__|goto|inline)\s*)*\(")
# Ballots and masks: find the rare name or literal first, then check the text before it.
_BALLOT = lazy(rb"(__ballot_sync|__activemask|__ballot|__match_any_sync|__match_all_sync)"
               rb"\s*\(")
# 32-bit integer types, and type names that say so (nvdiffrast's `U32`, `u32`, `DWORD`)
_NARROW = (rb"unsigned\s+int|unsigned|int|uint32_t|int32_t|uint|std::uint32_t"
           rb"|[uU]32|[uUsS]?[iI]nt32|UINT32|INT32|DWORD")
# (one regex per keyword, each led by its literal word: as one alternation after ``\b``
# the engine tried it at every byte, five times slower)
_NARROW_TYPEDEFS = (
    re.compile(lexer.word(b"typedef") + rb"\s+(?:" + _NARROW + rb")\s+(\w+)\s*;"),
    re.compile(lexer.word(b"using") + rb"\s+(\w+)\s*=\s*(?:" + _NARROW + rb")\s*;"))


@functools.lru_cache(maxsize=64)
def _narrow_decl(aliases: tuple[bytes, ...] = ()) -> re.Pattern[bytes]:
    """``T name =`` right before a ballot, T a 32-bit type or one of the file's aliases
    of one (``typedef uint32_t U32;``)."""
    types = _NARROW + b"".join(b"|" + re.escape(a) for a in aliases)
    return re.compile(rb"(?<![\w$])((?:const\s+)?(?:" + types + rb"))\s+(\w+)\s*=\s*\Z")
_MASK_LITERAL = lazy(rb"0[xX][fF]{8}[uU]?(?![\w.])")
_SYNC_CALL_OPEN = lazy(rb"\b(__\w+_sync)\s*\(\s*\Z")
_FULL_MASK_DEFINE = lazy(rb"#[ \t]*define[ \t]+(\w*MASK\w*)[ \t]+\(?(0[xX][fF]{8}[uU]?)\)?"
                         rb"[ \t]*(?:$|/)", re.M | re.I)
# Lane math: find the rare operator first, then look at the operand just before it.
# (one regex per operator: each starts with its literal, searched for in C; as one
# alternation they were searched byte by byte)
_LANE_OPS = tuple(re.compile(op + rb"(?![\w.])")
                  for op in (rb"&\s*31", rb"%\s*32", rb">>\s*5", rb"/\s*32"))
_LANE_OPERAND = lazy(
    rb"(threadIdx\s*\.\s*[xyz]|\b\w*(?:[tT]id|TID|[lL]ane|LANE|[tT]hread|[iI]dx)\w*)\s*\Z")
_SHARED_32 = lazy(rb"__shared__[^;{}()]*?\b(\w+)\s*\[\s*32\s*\]")
# Split by the word each needs, so a file without it skips the regex (a branch starting
# with a group or a common digit makes one combined pattern slow).
_WARP_32_DEFINE = lazy(
    rb"#[ \t]*define[ \t]+((?i:\w*WARP_?SIZE\w*))[ \t]+\(?32\)?(?![\w.])")
# (two regexes, each searched for by its leading literal, read as their alternation
# would be: see _leftmost)
_WARP_32_COMPARES = (re.compile(rb"warpSize\s*==\s*32(?![\w.])"),
                     re.compile(rb"32(?<![\w.]32)\s*==\s*warpSize\b"))
_ASSIGN_32 = lazy(rb"=\s*32(?![\w.])")
_CONST_WARP = lazy(rb"\b(?:constexpr|const)\s+(?:static\s+)?(?:unsigned\s+|signed\s+)?\w+\s+"
                   rb"((?i:\w*warp_?size\w*))\s*\Z")
_SHUFFLE = lazy(rb"(__shfl(?:_up|_down|_xor)?(?:_sync)?)\s*\(")
# A shuffle call's arguments, with at most one level of nested parentheses.
_SHUFFLE_ARGS = lazy(rb"\s*((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)")
_PAREN_OR_COMMA = lazy(rb"[(),\[\]]")


def _leftmost(patterns: tuple[re.Pattern[bytes], ...], code: bytes) -> Iterator[re.Match[bytes]]:
    """The matches ``finditer`` of the alternation of ``patterns`` gives, for patterns no
    two of which match at one offset (each starts with its own literal byte): from where
    the last match ended, the leftmost next match of any of them. Each pattern is searched
    for alone, so the engine skips to its leading literal; a match found ahead is kept
    until the reading passes it (each pattern searches the file about once)."""
    ahead: list[re.Match[bytes] | None] = [p.search(code) for p in patterns]
    while True:
        found = min((m for m in ahead if m is not None), key=lambda m: m.start(), default=None)
        if found is None:
            return
        yield found
        pos = found.end()
        for i, m in enumerate(ahead):
            if m is not None and m.start() < pos:
                ahead[i] = patterns[i].search(code, pos)


def _split_top(text: bytes) -> list[bytes]:
    """Split call arguments at commas outside brackets."""
    out, depth, start = [], 0, 0
    for m in _PAREN_OR_COMMA.finditer(text):
        ch = m.group()
        if ch in b"([":
            depth += 1
        elif ch in b")]":
            depth -= 1
        elif depth == 0:
            out.append(text[start:m.start()].strip())
            start = m.end()
    out.append(text[start:].strip())
    return out
_LOOP_16 = lazy(
    lexer.word(b"for") + rb"\s*\(\s*(?:(?:const\s+)?(?:unsigned\s+int|unsigned|int|auto|uint32_t)\s+)?(\w+)\s*=\s*(16)"
    rb"\s*;[^;]*;\s*\1\s*(?:/=\s*2|>>=\s*1)\s*\)")
_TEXREF_WORD = rb"(" + lexer.word(b"texture") + rb"|" + lexer.word(b"surface") + rb")"
_TEXREF = lazy(_TEXREF_WORD + rb"\s*<")
_ASM_WORDS = frozenset((b"asm", b"__asm", b"__asm__"))
_HOST_SOURCES = (".c", ".cpp", ".cc", ".cxx", ".c++")
_TEXREF_WORDS = frozenset((b"texture", b"surface"))
# Texture and surface objects used as integers: a variable of the type combined with an
# integer literal by a bit or shift operator, or a cast to the type that is then shifted or
# or-ed (cuda-samples' bindlessTexture packs them into uint2).
_TEX_OBJECT = rb"(?:cudaTextureObject_t|cudaSurfaceObject_t|CUtexObject|CUsurfObject)"
_TEX_DECL = lazy(rb"(?:" + b"|".join(map(lexer.word, (
    b"cudaTextureObject_t", b"cudaSurfaceObject_t", b"CUtexObject", b"CUsurfObject")))
    + rb")\s+(?:const\s+)?([A-Za-z_]\w*)\s*(?=[,;=)\[{])")
# A bit or shift operator with an integer literal (maybe parenthesized) after it.
_INT_OPERATION = lazy(
    rb"(?:&(?![&=])|\|(?![|=])|\^(?!=)|>>(?!=)|<<(?!=))\s*\(*\s*(?:0[xX][0-9a-fA-F]+|\d+)")
_TEX_CAST_OPERATION = lazy(rb"\(\s*(" + _TEX_OBJECT + rb")\s*\)[\w.\->\[\]]*\s*\)?\s*(?:<<|\|(?!\|))")
_ARCH_MACRO = lazy(
    rb"\b(__CUDA_ARCH__|__CUDACC_VER_MAJOR__|__CUDACC_VER_MINOR__|__CUDACC_VER_BUILD__|"
    rb"CUDART_VERSION|CUDA_VERSION|__CUDA_ARCH_LIST__|__NVCC__)\b")



@functools.cache
def _cooperative_groups_pattern(functions: tuple[str, ...],
                                methods: tuple[str, ...]) -> re.Pattern[bytes]:
    functions = names_pattern(rb"(?:" + lexer.word(b"cg") + rb"|" + lexer.word(b"cooperative_groups")
                              + rb")\s*::\s*", functions, rb"\b").pattern
    methods = names_pattern(rb"\.\s*", methods, rb"\s*\(").pattern
    return re.compile(functions + b"|" + methods)


# cuBLAS GEMM calls whose computeType (0-based argument index, from CUDA 13's
# cublas_api.h) C++ code may still pass as a cudaDataType: cuBLAS keeps an overload for
# that; hipBLAS's *_v2 functions take only a hipblasComputeType_t.
_GEMM_EX = lazy(rb"(" + lexer.word(b"cublasGemm") + rb"(?:Ex|BatchedEx|StridedBatchedEx))\s*\(")
_COMPUTE_TYPE_ARG = {b"cublasGemmEx": 17, b"cublasGemmBatchedEx": 18,
                     b"cublasGemmStridedBatchedEx": 21}
_DATA_TYPE = lazy(rb"CUDA_([RC])_(16F|32F|64F|32I)\Z")


class _Reporter:
    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.seen: set[tuple[str, int]] = set()

    def __call__(self, code: str, offset: int, message: str, identifier: str = "",
                 engine: str = "lexical", fix: Fix | None = None) -> None:
        if (code, offset) in self.seen:
            return
        self.seen.add((code, offset))
        line, col = self.ctx.linecol(offset)
        if fix is not None:
            fix = fix.located(self.ctx.linecol)
        self.ctx.findings.append(Finding(code, message, self.ctx.path, line, col, "",
                                         identifier, "", engine, offset, fix))


def _assembly(ctx: FileContext, offset: int, facts: dict | None, report: _Reporter) -> None:
    """CP210 for an asm statement the target does not assemble, told by its instructions
    (cudaport/translate/ptx.py): PTX, or anything unrecognised; not the target's own assembly
    (``assembly.dialect`` of its hazards facts), nor a symbol label, nor an empty barrier
    whose constraints the target's compiler accepts. A target that gives no such facts
    gets every statement reported."""
    target = ctx.compiled.target.title
    asm = ctx.read_asm(offset)
    kind = ptx.dialect(asm) if asm is not None else "unknown"
    if kind == "ptx":
        return  # the asm pass's: rewritten, or CP210 naming the instruction that blocks it
    # (a function nvcc compiles for the host only, in a file with device code too: CudaSift's
    # TimerCPU::getTSC reads RDTSC in cudautils.h, beside __device__ shuffles)
    if kind == "unknown" and (not ctx.uses_device or ctx.skeleton.host_only(offset)):
        return  # host functions' assembly (a header's, a .cu file's), the CPU's
    if facts:
        own = facts.get("dialect")
        if kind == own or kind == "label":
            return
        if kind == "barrier":
            if own != "amdgcn" or ptx.amd_constraints(asm):
                return
            letters = sorted({chr(c) for c in b"".join(asm.constraints)
                              if c in ptx.NVPTX_ONLY_CONSTRAINTS})
            report("CP210", offset, "empty asm statement with NVPTX-only operand constraints "
                   f"({', '.join(repr(x) for x in letters)}): {target}'s compiler rejects "
                   "them; use \"v\" (or drop the statement)", "asm")
            return
    if kind == "ptx":
        message = f"inline assembly (PTX) does not assemble for {target}; replace it with an intrinsic"
    elif kind == "amdgcn":
        message = f"inline AMD GPU assembly does not assemble for {target}"
    else:
        message = (f"inline assembly that is neither recognisably {facts.get('title')} nor "
                   f"PTX: check that {target} assembles it, or replace it with an intrinsic"
                   if facts else f"inline assembly (PTX) does not assemble for {target}; "
                   "replace it with an intrinsic")
    report("CP210", offset, message, "asm")


@register(40, "hazards")
def hazards(ctx: FileContext) -> None:
    if not ctx.options.hazards:
        return
    # The gates read the raw bytes (a word only in a comment costs a needless blanking);
    # the checks read the code, blanked once on first use.
    src = ctx.src
    names = ctx.names
    report = _Reporter(ctx)
    facts = ctx.clang if ctx.clang is not None and not ctx.clang.failure else None
    warp = ctx.options.warp_size or ctx.compiled.target.warp_size
    if facts is not None:
        _clang_hazards(ctx, facts, report, warp)
    # Lane math and 32s are everywhere in host code: they count only in files with
    # device code or that speak of warps or full masks (or call a ballot: a header's
    # macro body may be all its device code).
    if warp > 32 and (ctx.uses_device or not names.isdisjoint(_BALLOTS)
                      or any(word in src for word in _WARP_WORDS)):
        _warp_width(ctx, ctx.code, names, report, warp)
    if warp > 32 and b"cub" in names and b"Warp" in src:
        _cub_warp_width(ctx, ctx.code, report, warp)
    target = target_facts(ctx.compiled.target)
    texture = target.get("texture_references")
    # nvcc hands a C or C++ source to the host compiler: its assembly, in a file with no
    # device code, is the CPU's (cavazos-lab/PolyBench-ACC's polybench.c: RDTSC), not PTX.
    host_assembly = ctx.path.endswith(_HOST_SOURCES) and not ctx.uses_device
    for start, word in ctx.scan.marks:  # (where the scan saw the words in code)
        if word in _ASM_WORDS:
            if host_assembly:
                continue
            m = _ASM.match(ctx.code, start)
            if m is not None:
                _assembly(ctx, m.start(), target.get("assembly"), report)
            continue
        m = _TEXREF.match(ctx.code, start) if word in _TEXREF_WORDS else None
        if m is not None:
            report("CP211", m.start(), f"{m.group(1).decode()} reference: removed in CUDA 12"
                   f"{' and ' + texture if texture else ''}; use texture objects",
                   m.group(1).decode())
    objects = target.get("texture_objects")
    if objects and not names.isdisjoint(_TEXTURE_OBJECTS):
        _texture_objects_as_integers(ctx, ctx.code, report, objects)
    groups = target.get("cooperative_groups")
    if groups and b"cooperative_groups" in src:
        version = ctx.compiled.version
        pattern = _cooperative_groups_pattern(lacking(groups, "functions", version),
                                              lacking(groups, "methods", version))
        ported = groups.get("ported") or {}
        for m in pattern.finditer(ctx.code):
            name = (m.group(1) or m.group(2)).decode()
            if m.group(1) and name in ported:
                # (the portable header's function, in namespace cooperative_groups)
                ctx.edits.append(Edit(m.start(1), m.end(1), ported[name].encode(),
                                      f"{ctx.compiled.target.name}/cooperative-groups"))
                report("CP231", m.start(1), f"cooperative groups: {name} becomes the portable "
                       f"header's {ported[name]}: the group copies at once and the wait syncs "
                       "the group, so dst holds the same bytes after the wait; the overlap of "
                       "the copy with the work before the wait is lost", name)
                continue
            report("CP213", m.start(1) if m.group(1) else m.start(2),
                   f"cooperative groups: {name} has no counterpart in "
                   f"{_target_release(ctx)}'s cooperative groups", name)
    props = device_prop_pattern(ctx.compiled) if b"cudaDeviceProp" in names else None
    if props is not None:
        for m in props.finditer(ctx.code):
            name = m.group(1).decode()
            report("CP214", m.start(1), _device_prop_message(ctx, target, name), name)
    if not names.isdisjoint(struct_member_types(ctx.compiled)):
        for struct, types, members in struct_member_facts(ctx.compiled):
            if any(t.encode() in names for t in types):
                _struct_members(ctx, struct, types, members, report)
    # (a data type given as a GEMM compute type: passes/gemm_compute_type.py)
    if ctx.scan.launches:
        known = {launch.lt for launch in facts.launches} if facts is not None else set()
        _device_launches(ctx, report, known)
    _arch_conditions(ctx, report)
    if b"__CUDA_ARCH" in src:
        _arch_values(ctx, report)


def _struct_members(ctx: FileContext, struct: str, types: tuple[str, ...],
                    members: tuple[tuple[str, str], ...], report: _Reporter) -> None:
    """CP214: a member of a CUDA struct that the target's type lacks or declares with
    another type (``struct_members`` in the hazards facts), reached through a variable,
    parameter or array the file declares with that struct."""
    code = ctx.code
    objects = {m.group(2) for m in declared_objects_pattern(types).finditer(code)}
    if not objects:
        return
    whats = dict(members)
    r = ctx.compiled.identifiers.get(struct.encode()) if struct.encode() in ctx.compiled.identifiers \
        else None
    target = r.replacement.decode() if r is not None and r.replacement else None
    where = f"{target} ({_target_release(ctx)})" if target else _target_release(ctx)
    paths = tuple(whats)
    if member_access_pattern(paths).search(code) is None:
        return
    for m in member_use_pattern(paths).finditer(code):
        if m.group(1) not in objects:
            continue
        path = re.sub(rb"\s+", b"", m.group(2)).decode()
        what = whats.get(path, "")
        if what:
            message = f"{struct}::{path} is {what} in {where}"
        else:
            message = f"{struct}::{path} has no counterpart in {where}"
        report("CP214", m.start(2), message, path)


_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_BLANK_BYTES = frozenset(b" \t\n\r\f\v")


def _integer_uses(code: bytes, names: set[bytes]) -> Iterator[tuple[int, bytes]]:
    """(offset, name) of each of ``names`` that blanks then an integer operation follow,
    not after a word byte, ``$``, ``.`` or ``>``: what ``(?<![\\w$.>])(NAMES)\\s*OPERATION``
    finds, read from each operation back to its operand (one search for every file, not a
    regex of its names compiled per file). No operand can stand inside an earlier match
    (operators, blanks, parentheses and a number), so every match is found."""
    for m in _INT_OPERATION.finditer(code):
        end = m.start()
        while end > 0 and code[end - 1] in _BLANK_BYTES:
            end -= 1
        start = end
        while start > 0 and code[start - 1] in _WORD_BYTES:
            start -= 1
        if start < end and code[start - 1:start] not in (b"$", b".", b">") \
                and code[start:end] in names:
            yield start, code[start:end]


def _texture_objects_as_integers(ctx: FileContext, code: bytes, report: _Reporter,
                                 objects: str) -> None:
    """CP221: CUDA's texture and surface objects are 64-bit integers, the target's are not."""
    title = ctx.compiled.target.title
    names = {m.group(1) for m in _TEX_DECL.finditer(code)}
    for start, name in _integer_uses(code, names) if names else ():
        name = name.decode()
        report("CP221", start, f"texture/surface object {name} used as an integer; on "
               f"{title} it is {objects}: keep the object itself, or convert it explicitly "
               "(reinterpret_cast<uintptr_t>) where it must be packed", name)
    for m in _TEX_CAST_OPERATION.finditer(code):
        kind = m.group(1).decode()
        report("CP221", m.start(1), f"integer cast to {kind} and combined with bit operators; "
               f"on {title} it is {objects}: keep the object itself, or build it with "
               "reinterpret_cast from a uintptr_t", kind)


def _target_release(ctx: FileContext) -> str:
    """The target and the version the output is for ("HIP 6.4")."""
    version = ctx.compiled.version
    while len(version) > 2 and version[-1] == 0:
        version = version[:-1]
    return f"{ctx.compiled.target.title} {'.'.join(map(str, version))}"


def _device_prop_message(ctx: FileContext, target: dict, name: str) -> str:
    props = target["device_properties"]
    return f"cudaDeviceProp::{name} has no counterpart in {props['type']} ({_target_release(ctx)})"


def _clang_hazards(ctx: FileContext, facts, report: _Reporter, warp: int) -> None:
    if warp > 32:
        for offset, var, type_name in facts.ballot_narrow:
            report("CP201", offset, f"ballot stored in {type_name} {var}: a {warp}-lane "
                   "wavefront needs 64 bits", var, "clang")
    for launch in facts.launches:
        if launch.in_device_code:
            report("CP212", launch.start, f"{launch.kernel} is launched from device code "
                   "(dynamic parallelism); the target cannot do that", launch.kernel, "clang")
    target = target_facts(ctx.compiled.target)
    missing = (target.get("device_properties") or {}).get("missing") or ()
    for offset, _record, name in facts.member_refs:
        if name in missing:
            report("CP214", offset, _device_prop_message(ctx, target, name), name, "clang")


def _warp_width(ctx: FileContext, code: bytes, names: frozenset[bytes], report: _Reporter,
                warp: int) -> None:
    narrow = None
    for m in _BALLOT.finditer(code) if not names.isdisjoint(_BALLOTS) else ():
        if narrow is None:
            narrow = _narrow_decl(tuple(sorted({name for typedef in _NARROW_TYPEDEFS
                                                for name in typedef.findall(code)})))
        decl = narrow.search(code, max(0, m.start() - 120), m.start())
        if decl is not None:
            report("CP201", m.start(), f"{m.group(1).decode()} result stored in a 32-bit "
                   f"integer ({decl.group(1).decode()}); a {warp}-lane wavefront needs 64 bits",
                   decl.group(1).decode(), fix=_wide_ballot(decl))
    for m in _MASK_LITERAL.finditer(code) if b"_sync" in code else ():
        call = _SYNC_CALL_OPEN.search(code, max(0, m.start() - 80), m.start())
        if call is not None and not ctx.symbols.is_project(call.start(1)):
            r = ctx.compiled.identifiers.get(call.group(1))
            fixed = r is not None and r.entry is not None and r.entry.lane_mask is not None \
                and r.status in ("converted", "same") \
                and code[m.end():m.end() + 40].lstrip()[:1] in (b",", b")")
            report("CP202", m.start(), f"{call.group(1).decode()} with mask "
                   f"{m.group().decode()} covers 32 of {warp} lanes"
                   + ("; the translation passes __activemask() instead" if fixed else ""),
                   call.group(1).decode())
    for m in _FULL_MASK_DEFINE.finditer(code):
        report("CP202", m.start(2), f"{m.group(1).decode()} = {m.group(2).decode()} covers "
               f"32 of {warp} lanes when used as a warp mask", m.group(1).decode())
    for m in sorted((m for op in _LANE_OPS for m in op.finditer(code)), key=lambda m: m.start()):
        operand = _LANE_OPERAND.search(code, max(0, m.start() - 80), m.start())
        if operand is None:
            continue
        op = re.sub(rb"\s+", b" ", m.group()).decode()
        report("CP203", m.start(), f"'{op}' on {operand.group(1).decode()} assumes 32-lane "
               f"warps (the target has {warp})", operand.group(1).decode(),
               fix=_lane_math_fix(code, operand, m, op))
    for m in _SHARED_32.finditer(code) if b"__shared__" in names else ():
        report("CP204", m.start(1), f"__shared__ {m.group(1).decode()}[32] is sized for 32 "
               f"lanes or warps; the target's wavefront has {warp} lanes", m.group(1).decode())
    for m in _WARP_32_DEFINE.finditer(code) if b"define" in code else ():
        name = m.group(1).decode()
        report("CP205", m.start(), f"{name} assumed to be 32; the target's wavefront has "
               f"{warp} lanes", name)
    for m in _leftmost(_WARP_32_COMPARES, code) if b"warpSize" in names else ():
        report("CP205", m.start(), f"warpSize assumed to be 32; the target's wavefront has "
               f"{warp} lanes", "warpSize")
    for m in _ASSIGN_32.finditer(code):
        const = _CONST_WARP.search(code, max(0, m.start() - 120), m.start())
        if const is not None:
            name = const.group(1).decode()
            report("CP205", const.start(), f"{name} assumed to be 32; the target's wavefront "
                   f"has {warp} lanes", name)
    if not names.isdisjoint(_SHUFFLES):
        _shuffle_widths(ctx, code, report, warp)


# CUB's warp-wide collectives, whose logical warp (a template argument after the value
# type) defaults to CUB's 32 threads; hipCUB's to the wavefront.
_CUB_WARP = lazy(lexer.word(b"cub") + rb"\s*::\s*(Warp(?:Reduce|Scan))\s*<")


def _cub_warp_width(ctx: FileContext, code: bytes, report: _Reporter, warp: int) -> None:
    """CP207: ``cub::WarpReduce<T>`` and ``cub::WarpScan<T>`` with the default logical
    warp. CUB's default is 32 threads (CUB_WARP_THREADS); hipCUB's is the device's
    wavefront (HIPCUB_DEVICE_WARP_THREADS, 64 on CDNA), so a reduction over a 32-thread
    row of the block (ankan-ban/llama2.cu: ``dim3 block_dim(32, 4)``) would add two rows
    together. The safe fix gives the width, which rocPRIM's logical warps support."""
    for m in _CUB_WARP.finditer(code):
        args = lexer.template_arguments(code, m.end() - 1)
        if args is None or len(args) != 1:
            continue  # (a width given, or text the scan cannot follow)
        close = args[0][1]
        name = m.group(1).decode()
        report("CP207", m.start(1), f"cub::{name} with the default logical warp: CUB's is 32 "
               f"threads, hipCUB's the {warp}-lane wavefront, so each {name} spans two CUDA "
               "warps; give the width (32) to keep CUDA's grouping", name,
               fix=Fix("safe", "give the logical warp 32 threads", ((close, close, b", 32"),)))


def _wide_ballot(decl: re.Match[bytes]) -> Fix:
    """CP201's fix, safe: the variable gets 64 bits; what the code then does with the
    ballot (bit tests, __popc) sees every lane, and nothing is lost on 32-lane warps."""
    start, end = decl.span(1)
    const = decl.group(1).startswith(b"const")
    return Fix("safe", "store the ballot in unsigned long long",
               ((start, end, b"const unsigned long long" if const else b"unsigned long long"),))


# What may stand before lane math's operand and after its constant for the rewrite to keep
# the grouping: `&` and `>>` bind more loosely than `%` and `/`, so `a + tid & 31` is
# `(a + tid) & 31`; only an operand that is the whole left-hand side is rewritten.
_BEFORE_OPERAND = lazy(rb"(?:[(=,\[{;?:]|\breturn)\s*\Z")
_AFTER_CONSTANT = lazy(rb"\s*[),;\]}]")


def _lane_math_fix(code: bytes, operand: re.Match[bytes], m: re.Match[bytes],
                   op: str) -> Fix | None:
    """CP203's fix, unsafe: ``& 31`` / ``% 32`` become ``% warpSize``, ``>> 5`` / ``/ 32``
    become ``/ warpSize``. The lane and warp numbers then follow the wavefront, but code
    that sizes per-warp storage or masks from 32 must be reviewed with it."""
    if _BEFORE_OPERAND.search(code, max(0, operand.start() - 40), operand.start()) is None \
            or _AFTER_CONSTANT.match(code, m.end()) is None:
        return None
    new = b"% warpSize" if op[0] in "&%" else b"/ warpSize"
    return Fix("unsafe", f"'{op}' becomes '{new.decode()}'", ((m.start(), m.end(), new),))


def _shuffle_widths(ctx: FileContext, code: bytes, report: _Reporter, warp: int) -> None:
    for m in _LOOP_16.finditer(code):
        body_end = min(len(code), m.end() + 400)
        if _SHUFFLE.search(code, m.end(), body_end):
            sixteen = m.start(2)
            report("CP206", m.start(), "shuffle reduction starting at offset 16 combines "
                   f"32 lanes; start at warpSize/2 for {warp}-lane wavefronts", "for",
                   fix=Fix("unsafe", "start the reduction at warpSize / 2",
                           ((sixteen, sixteen + 2, b"warpSize / 2"),)))
    for m in _SHUFFLE.finditer(code):
        parsed = _SHUFFLE_ARGS.match(code, m.end())
        if parsed is None:
            continue
        args = _split_top(parsed.group(1))
        sync = m.group(1).endswith(b"_sync")
        width = args[3] if sync and len(args) > 3 else args[2] if not sync and len(args) > 2 \
            else None
        offset = args[2] if sync and len(args) > 2 else args[1] if not sync and len(args) > 1 \
            else None
        name = m.group(1).decode()
        if width == b"32":
            report("CP206", m.start(), f"{name} with width 32 shuffles within 32 lanes of a "
                   f"{warp}-lane wavefront", name)
        elif offset == b"16" and b"down" in m.group(1) or offset == b"16" and b"xor" in m.group(1):
            report("CP206", m.start(), f"{name} by 16 as the first reduction step covers 32 "
                   f"lanes; start at warpSize/2 for {warp}-lane wavefronts", name)


_DEVICE_FN = lazy(rb"(?<![\w$])(?:__global__|__device__)(?![\w$])")


def _device_launches(ctx: FileContext, report: _Reporter, known: set[int]) -> None:
    """Launches whose enclosing function is __global__/__device__ (text-only estimate for
    launches clang did not see: inactive branches, or no clang).

    The file's skeleton gives the function or lambda around each launch (a bisect); the
    launch is device code when one of them, out to the first named function, is marked
    ``__global__`` or ``__device__`` and not ``__host__`` (a host-callable function may
    launch). A kernel defined once per ``#if`` branch closes its body in each branch."""
    if b"__global__" not in ctx.src and b"__device__" not in ctx.src:
        return
    skeleton = ctx.skeleton
    marks: dict[int, bool] = {}  # block index -> marked device-only
    for lt in sorted(lt for lt in ctx.scan.launches if lt not in known):
        i = skeleton.at(lt)
        device = False
        while i >= 0:
            block = skeleton.blocks[i]
            if block.kind in (FUNCTION, LAMBDA):
                found = marks.get(i)
                if found is None:
                    head = ctx.code[block.head:block.open]
                    found = marks[i] = _DEVICE_FN.search(head) is not None \
                        and _HOST.search(head) is None
                if found:
                    device = True
                    break
                if block.kind == FUNCTION:
                    break
            i = block.parent
        if device:
            report("CP212", lt, "kernel launched from device code (dynamic "
                   "parallelism); the target cannot do that", "<<<")


_HOST = lazy(rb"(?<![\w$])__host__(?![\w$])")


def _arch_conditions(ctx: FileContext, report: _Reporter) -> None:
    src = ctx.src
    decided = ctx.gate_directives
    for offset, word in ctx.scan.directives:
        if word in (b"else", b"endif") or offset in decided:
            continue  # (a gate the target's facts decided says so itself: CP223)
        end = src.find(b"\n", offset)
        while end > 0 and src[end - 1:end] == b"\\":
            end = src.find(b"\n", end + 1)
        end = end if end >= 0 else len(src)
        m = next((m for m in _ARCH_MACRO.finditer(src, offset, end)
                  if ctx.in_code(m.start(1), m.end(1))), None)
        resolved = ctx.compiled.identifiers.get(m.group(1)) if m else None
        if resolved is not None and resolved.status in ("unsupported", "converted"):
            continue  # reported as a name the target lacks (CP101), or renamed to the
            # target's own macro (CUDART_VERSION becomes HIP_VERSION, with its note)
        if not m:
            continue
        cond_start = offset + len(b"#") + src[offset + 1:end].find(word) + len(word)
        cond = platform_branches.condition_at(ctx, cond_start, end)
        if platform_branches.decided(ctx, word, cond):
            continue  # settled by what the build is known to define (-D GGML_USE_HIP)
        name = m.group(1).decode()
        report("CP215", m.start(1), f"#{word.decode()} on {name}: "
               f"{ctx.compiled.target.title}'s compiler does not define it (read as 0 there); "
               f"{platform_branches.branch_outcome(ctx, offset, word, cond)}",
               name)


def _arch_values(ctx: FileContext, report: _Reporter) -> None:
    """CP226: ``__CUDA_ARCH__`` used as a value in code (not in a directive). Where a HIP
    build never compiles it (a branch it skips), the finding is dropped with the branch's."""
    code = ctx.code
    for m in ARCH_VALUE.finditer(code):
        if in_directive(code, m.start()):
            continue
        report("CP226", m.start(), f"__CUDA_ARCH__ is used as a value: "
               f"{ctx.compiled.target.title}'s compiler does not define it, so this does not "
               "compile there", "__CUDA_ARCH__")
