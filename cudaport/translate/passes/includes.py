"""Map CUDA headers to target headers, drop duplicates, add the main header if missing."""

from __future__ import annotations

import bisect
import os
import re
import stat
from typing import NamedTuple

from ...source import lexer
from ..context import FileContext
from ...source.edits import Edit
from ...rules.compiled import RUNTIME_LIBRARIES
from .libcudacxx import uses_libcudacxx
from ...rules.hazards import target_facts
from .registry import register, register_final
from ...source.lazy_re import lazy

# (a line comment may continue over a backslash-newline: lexer.LINE_COMMENT knows that)
_LEADING_COMMENTS = lazy(rb"\A(?:\xef\xbb\xbf)?(?:[ \t]*(?:" + lexer.LINE_COMMENT
                         + rb"|/\*[\s\S]*?\*/)?[ \t]*\r?\n)*")


@register(20, "includes")
def includes(ctx: FileContext) -> None:
    src = ctx.src
    seen_in: dict[bytes, list[tuple[int, ...]]] = {}  # effective header -> branch paths
    has_main = False
    # A target header translated before the main one: some need the main header first
    # (HIP 5.2's hip_cooperative_groups.h uses macros only hip_runtime.h defines).
    early = None
    translated_main = None
    has_target_main = False  # the target's own main header (hip/hip_runtime.h)
    target_main = ctx.compiled.target.main_header.encode()
    deletable = _Deletable(src)
    outside = OutsideBlocks(src, ctx.code, ctx.scan.literals)
    hoisted: set[tuple[int, bytes]] = set()
    first_main = None  # the first top-level include of the target's main header
    project_first = None  # the first top-level quoted include of a header the rules don't know
    unused: list[bool] = []  # (whether the file names libcu++, asked once)
    for inc in ctx.scan.includes:
        r = ctx.compiled.header(inc.name)
        effective = inc.name
        translated = False
        if r is None and project_first is None and not inc.branch \
                and src[inc.name_start - 1:inc.name_start] == b'"':
            project_first = inc
        if r is not None and _own_header(ctx, inc):
            shown = inc.name.decode(errors="replace")
            ctx.find("CP167", inc.name_start, f'"{shown}" is the project\'s own header (the '
                     f"file next to this one), not CUDA's: left unchanged", shown)
            continue
        if r is not None:
            ctx.references.append((inc.name_start, inc.name, "include", r))
            entry = r.entry
            if r.status == "drop":
                span = _deletion_span(src, inc.start, inc.end)
                if span is not None and deletable(span[0]):
                    ctx.edits.append(Edit(*span, b"", entry.rule_id))
                    continue  # (a header kept inside a statement is reported below)
            if r.status == "inline":
                ctx.edits.append(Edit(inc.start, inc.end, _inline_text(ctx, r.entry.inline),
                                      entry.rule_id))
                continue
            if r.status == "converted":
                effective = r.replacement
                translated = True
            elif r.status == "version":  # the target has it, from a later version
                instead = f"; {entry.note}" if entry.note else ""
                shown = inc.name.decode(errors="replace")
                ctx.find("CP107", inc.name_start, f"{shown}: {r.reason}, newer than the "
                         f"selected version{instead}", shown, entry.library)
            elif r.status != "same":
                if entry.code == "CP110" and not _libcudacxx_used(ctx, unused):
                    span = _deletion_span(src, inc.start, inc.end)
                    if span is not None and deletable(span[0]):
                        shown = inc.name.decode(errors="replace")
                        ctx.edits.append(Edit(*span, b"", entry.rule_id))
                        ctx.find("CP116", inc.name_start, f"<{shown}> (libcu++) is included but "
                                 "the translation names nothing libcu++ declares: the include "
                                 "is dropped", shown, entry.library)
                        continue
                instead = f"; {entry.note}" if entry.note else ""
                shown = inc.name.decode(errors="replace")  # (a header name is any bytes)
                ctx.find(entry.code or "CP106", inc.name_start,
                         f"{shown} has no {ctx.compiled.target.title} equivalent{instead}",
                         shown, entry.library)
        duplicate = translated and any(inc.branch[:len(b)] == b
                                       for b in seen_in.get(effective, ()))
        if translated and duplicate:
            span = _deletion_span(src, inc.start, inc.end)
            if span is not None and deletable(span[0]):  # else translated like the first
                ctx.edits.append(Edit(*span, b"", r.entry.rule_id))
                continue
        if translated:
            ctx.edits.append(Edit(inc.name_start, inc.name_end, effective, r.entry.rule_id))
            _cxx_only(ctx, inc, effective)
            # A target header inside a block (`extern "C" {`) is included before the
            # block too: its templates need C++ linkage, and the inner one then adds
            # nothing (include guards). Not when an include before it already has it.
            line = src.rfind(b"\n", 0, inc.start) + 1
            before = line if duplicate else _before_block(ctx, outside, line)
            if before != line and (before, effective) not in hoisted:
                hoisted.add((before, effective))
                at = _line_for_insertion(ctx, before)  # (after a byte order mark)
                ctx.edits.append(Edit(at, at, b"#include "
                                      + src[inc.name_start - 1:inc.name_start] + effective
                                      + src[inc.name_end:inc.name_end + 1] + ctx.eol(),
                                      r.entry.rule_id))
        seen_in.setdefault(effective, []).append(inc.branch)
        if effective == target_main and first_main is None and not inc.branch:
            first_main = inc
        has_target_main = has_target_main or effective == target_main
        if effective in ctx.compiled.main_headers:
            has_main = True
            if translated and translated_main is None:
                translated_main = inc
        elif (translated and not has_main and early is None and not inc.branch
              and r.entry.library in RUNTIME_LIBRARIES):
            early = inc
    for inc in ctx.portable_includes:  # (the target's own, in a branch it compiles)
        if inc.name in ctx.compiled.main_headers:
            has_main = True
            has_target_main = has_target_main or inc.name == target_main
    # (a project header included before the target's main header, or with none after it)
    before_main = project_first is not None and (first_main is None
                                                 or project_first.start < first_main.start)
    ctx.main_header = (has_main, early, translated_main, has_target_main, before_main)
    if first_main is not None and not ctx.path.endswith(".c"):
        _main_header_before_min_max(ctx, first_main, outside)


# `#define max(a, b) ...`: a function-like macro that the C++ standard library's own
# min()/max() members cannot survive.
_MIN_MAX_MACRO = lazy(rb"(?m)^[ \t]*#[ \t]*define[ \t]+(min|max)\(")
_LOCAL_READ_LIMIT = 4_000_000  # (a larger file is only looked at for NVIDIA's name)


class _Beside(NamedTuple):
    """What the includes pass needs to know of a project file a quoted include finds next
    to the including file."""

    nvidia: bool  # NVIDIA's name near its top: a copy of a CUDA header
    min_max: bytes | None  # the min or max function-like macro it defines


_BESIDE_MEMO: dict[tuple[str, int, int], _Beside] = {}


def _beside(ctx: FileContext, inc) -> _Beside | None:
    """The file a quoted ``inc`` names next to the file being translated, or None (an
    angle include, no such regular file, or text not from a file). Read once per file
    version: a project's headers are included by many files."""
    if ctx.path.startswith("<") or ctx.src[inc.name_start - 1:inc.name_start] != b'"':
        return None
    local = os.path.join(os.path.dirname(ctx.path), os.fsdecode(inc.name))
    try:
        st = os.stat(local)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode):  # (nor a FIFO or device, which a read would hang on)
        return None
    key = (os.path.abspath(local), st.st_mtime_ns, st.st_size)
    facts = _BESIDE_MEMO.get(key)
    if facts is None:
        whole = st.st_size <= _LOCAL_READ_LIMIT
        try:
            with open(local, "rb") as fh:
                text = fh.read() if whole else fh.read(4096)
        except OSError:  # (unreadable: the compiler looks further)
            return None
        m = _MIN_MAX_MACRO.search(text) if whole else None
        facts = _Beside(b"NVIDIA" in text[:4096], m.group(1) if m else None)
        if len(_BESIDE_MEMO) > 10_000:
            _BESIDE_MEMO.clear()
        _BESIDE_MEMO[key] = facts
    return facts


def _main_header_before_min_max(ctx: FileContext, first_main, outside) -> None:
    """The target's main header before a project header that defines ``min``/``max``
    macros (CP168). HIP's hip_runtime.h includes C++ standard headers (<limits>, and
    <thread> and <chrono> for HIP sources) whose ``min()``/``max()`` members such a macro
    breaks; CUDA's runtime header includes none, so tpruvot/ccminer's .cpp files, which
    include miner.h (``#define max(a, b)``) and then cuda_runtime.h, compiled for CUDA
    only. Included first, the header has read those members before the macros exist."""
    for inc in ctx.scan.includes:
        if inc.start >= first_main.start:
            return
        beside = None if inc.branch else _beside(ctx, inc)
        macro = beside.min_max if beside is not None else None
        if macro is None:
            continue
        at = _insertion_before(ctx, outside, inc.start)
        header = ctx.compiled.target.main_header
        ctx.edits.append(Edit(at, at, b"#include <" + header.encode() + b">" + ctx.eol(),
                              f"{ctx.compiled.target.name}/main-header"))
        shown = inc.name.decode(errors="replace")
        ctx.find("CP168", inc.name_start, f"{shown} defines a {macro.decode()}() macro, which "
                 f"breaks the C++ standard headers {header} includes: {header} is included "
                 "before it", shown)
        return


def _cxx_only(ctx: FileContext, inc, effective: bytes) -> None:
    """CP169: the target header does not compile as C (``cxx_only_headers`` in the hazards
    facts). An error in a C file; information in a header written for C too (it tests
    ``__cplusplus``), whose C includers a checked set then reports blocked."""
    why = (target_facts(ctx.compiled.target).get("cxx_only_headers") or {}).get(
        effective.decode(errors="replace"))
    if why is None:
        return
    header = effective.decode()
    if ctx.path.endswith(".c"):
        ctx.find("CP169", inc.name_start, f"{header} does not compile as C ({why})", header,
                 severity="error")
    elif ctx.path.endswith(".h") and b"__cplusplus" in ctx.src:
        ctx.find("CP169", inc.name_start, f"{header} does not compile as C ({why}): a C "
                 "file that includes this header does not compile", header)


def _own_header(ctx: FileContext, inc) -> bool:
    """A quoted include of a CUDA header's name that finds a file of the project next to
    the including file: the compiler reads that file, not CUDA's. A copy of NVIDIA's
    header there (it names NVIDIA near its top) is CUDA's all the same."""
    beside = _beside(ctx, inc)
    return beside is not None and not beside.nvidia


@register_final("main-header")
def main_header(ctx: FileContext) -> None:
    """Add the target's main header once, after every pass had its say: passes that
    see runtime or device use ask for it (``ctx.uses_runtime``), and macros the target's
    headers need defined first (``ctx.defines``) go before the file's first include."""
    has_main, early, translated_main, has_target_main, before_main = ctx.main_header
    insert = ctx.options.insert_main_header
    main = f"{ctx.compiled.target.name}/main-header"
    header = b"#include <" + ctx.compiled.target.main_header.encode() + b">" + ctx.eol()
    top = b""
    always = ctx.options.main_header == "always" and not has_target_main and _cuda_source(ctx)
    # Kernel code needs the target's own main header: a library header that counts as
    # main (hipfft/hipfft.h, hipblas/hipblas.h) declares the runtime API only, and nvcc
    # includes cuda_runtime.h in every .cu file (cuda-samples' oceanFFT_kernel.cu includes
    # only cufft.h).
    kernels = ctx.uses_device and not has_target_main
    # nvcc includes cuda_runtime.h before anything else in a .cu unit: a project header
    # included first (`#include "common.h"` with __forceinline__ __device__ functions, then
    # <cuda_runtime.h>) compiled there, and needs the target's main header first too.
    force_included = before_main and ctx.path.endswith(".cu") and (
        has_main or ctx.uses_runtime or ctx.uses_device)
    inserted_at_top = (ctx.uses_runtime and not has_main or kernels or always
                       or force_included) and insert
    defines = set(ctx.defines)
    # A translation unit that includes none of the target's headers itself still gets the
    # macros when a project header it includes may use the intrinsics: that header (or
    # another before it) may include the main header first, and the macros only count
    # when they come before its first reading (faiss's GpuIndexFlat.cu).
    if has_main or inserted_at_top or ctx.path.endswith(".cu"):
        defines.update(ctx.defines_with_main)
    for macro in sorted(m for m in defines if m not in ctx.src):  # not defined already
        eol = ctx.eol()
        top += b"#ifndef " + macro + eol + b"#define " + macro + eol + b"#endif" + eol
    if inserted_at_top:
        top += header + _companions(ctx)
    elif translated_main is not None:
        after = _companions(ctx)
        if after:
            pos = ctx.src.find(b"\n", translated_main.end) + 1 or len(ctx.src)
            lead = b"" if ctx.src[pos - 1:pos] == b"\n" else ctx.eol()
            ctx.edits.append(Edit(pos, pos, lead + after, f"{ctx.compiled.target.name}/main-header"))
    if has_main and early is not None and insert:
        pos = _insertion_before(ctx, OutsideBlocks(ctx.src, ctx.code, ctx.scan.literals), early.start)
        ctx.edits.append(Edit(pos, pos, header, main))
    if top:
        pos, prefix = top_insertion_point(ctx)
        ctx.edits.append(Edit(pos, pos, prefix + top,
                              main if inserted_at_top
                              else f"{ctx.compiled.target.name}/target-macros"))


@register_final("library-companions")
def library_companions(ctx: FileContext) -> None:
    """Headers the CUDA library's other headers bring in and the target's do not
    (``library_companions`` in target.yaml): added after the last include of the same
    folder (``thrust/``) when the file calls one of their names without including them."""
    table = ctx.compiled.target.extra.get("library_companions") or {}
    if not table:
        return
    src = ctx.src
    included = {inc.name for inc in ctx.scan.includes}
    for header, names in table.items():
        folder = header.encode().rsplit(b"/", 1)[0] + b"/"
        # (the includes first: a search of the file only where one of the folder's is)
        same = [inc for inc in ctx.scan.includes if inc.name.startswith(folder) and not inc.branch]
        if not same or header.encode() in included \
                or not any(n.encode() in src for n in names):
            continue
        pattern = re.compile(rb"(?<![\w:])(?:" + b"|".join(
            rb"\s*::\s*".join(re.escape(part.encode()) for part in n.split("::"))
            for n in names) + rb")\s*\(")
        if not any(ctx.in_code(m.start(), m.end()) for m in pattern.finditer(src)):
            continue
        pos = src.find(b"\n", same[-1].end) + 1 or len(src)
        lead = b"" if src[pos - 1:pos] == b"\n" else ctx.eol()
        ctx.edits.append(Edit(pos, pos, lead + b"#include <" + header.encode() + b">" + ctx.eol(),
                              f"{ctx.compiled.target.name}/library-companions"))


def _uses_any(ctx: FileContext, seen: frozenset[bytes], names) -> bool:
    """The file names one of ``names`` in code: a table name the scan found, or another
    word (cuda_fp16.h's `half`, which no rule claims: a project may name its own so) that
    the code holds as a whole word."""
    others = []
    for name in names:
        word = name.encode()
        if word in seen:
            return True
        if word not in ctx.compiled.identifiers:
            others.append(word)
    return bool(others) and re.search(rb"(?<![\w$])(?:" + b"|".join(others) + rb")(?![\w$])",
                                      ctx.code) is not None


@register_final("library-types")
def library_types(ctx: FileContext) -> None:
    """The target's complex, half and bfloat16 headers after a library header whose CUDA
    form brought them in and whose translation does not (``library_brings`` in
    target.yaml): cublas_api.h includes cuComplex.h, cuda_fp16.h and cuda_bf16.h, so a
    file that includes cublas_v2.h uses ``cuDoubleComplex`` and ``__half`` freely, while
    rocblas.h declares neither hipDoubleComplex nor __half (nor does hipblas.h __half)."""
    facts = ctx.compiled.target.extra.get("library_brings")
    if not facts or not ctx.scan.includes:
        return
    brings, names, declared = facts["headers"], facts["names"], facts.get("declared", {})
    included = {inc.name for inc in ctx.scan.includes}
    wanted: dict[str, object] = {}  # CUDA type header -> the last include that brought it
    for inc in ctx.scan.includes:
        types = brings.get(inc.name.decode(errors="replace"))
        if not types or inc.branch:
            continue
        r = ctx.compiled.header(inc.name)
        if r is None or r.status != "converted" or not r.replacement:
            continue
        for header in types:
            if header not in declared.get(r.replacement.decode(), ()):
                wanted[header] = inc
    if not wanted:
        return
    seen = ctx.names
    added: dict[int, bytes] = {}
    for header, inc in wanted.items():
        r = ctx.compiled.header(header.encode())
        if r is None or not r.replacement or header.encode() in included \
                or r.replacement in included \
                or not _uses_any(ctx, seen, names.get(header, ())):
            continue
        line = b"#include <" + r.replacement + b">" + ctx.eol()
        added[inc.end] = added.get(inc.end, b"") + line
    for end, text in added.items():
        pos = ctx.src.find(b"\n", end) + 1 or len(ctx.src)
        lead = b"" if ctx.src[pos - 1:pos] == b"\n" else ctx.eol()
        ctx.edits.append(Edit(pos, pos, lead + text,
                              f"{ctx.compiled.target.name}/library-types"))


_CUDA_SOURCES = (".cu", ".cuh")


def _cuda_source(ctx: FileContext) -> bool:
    """A CUDA source the translation changes (``--main-header always``)."""
    return ctx.path.endswith(_CUDA_SOURCES) and bool(ctx.edits)


def _inline_text(ctx: FileContext, text: bytes) -> bytes:
    """Definitions that replace an include line, in the file's line endings, without
    their final line break (the include line keeps its own)."""
    text = text.rstrip(b"\r\n").replace(b"\r\n", b"\n")
    return text.replace(b"\n", ctx.eol())


def _companions(ctx: FileContext) -> bytes:
    """Includes of the headers CUDA's runtime header brings in and the target's main
    header does not (``main_header_companions`` in target.yaml), for those the file needs:
    it calls one of their names unqualified (or as ``::name``) in code, and does not
    include the header itself."""
    table = ctx.compiled.derived("_main_header_companions", lambda: _companion_table(
        ctx.compiled.target.extra.get("main_header_companions") or {}))
    out = b""
    included = {inc.name for inc in ctx.scan.includes}
    seen = ctx.names.union(word for _, word in ctx.scan.marks)  # (words the scan saw)
    for header, names, pattern in table:
        if header in included or seen.isdisjoint(names):
            continue
        if any(ctx.in_code(m.start(), m.end()) for m in pattern.finditer(ctx.src)):
            out += b"#include <" + header + b">" + ctx.eol()
    return out


def _companion_table(table: dict) -> list[tuple[bytes, frozenset[bytes], re.Pattern]]:
    """(header, its names, the pattern of their calls) of ``main_header_companions``."""
    return [(header.encode(), frozenset(n.encode() for n in names),
             re.compile(rb"(?:" + b"|".join(  # (each name first, then what stands before it)
                 re.escape(n.encode()) + rb"(?<![\w.>$]" + re.escape(n.encode()) + rb")(?<!\w::"
                 + re.escape(n.encode()) + rb")" for n in names) + rb")\s*\("))
            for header, names in table.items()]


class _Deletable:
    """Tells whether an include line may be deleted without changing other passes.

    Deleting a directive changes what other passes see: a launch or call template left
    alone because a directive cuts it (``k<<<g, b>>>(`` then ``#include`` lines) would
    be rewritten on the next run, so translation would not be idempotent. A duplicate
    include is harmless, so a line is deleted only where a statement can end: no ``(``
    or ``<<<`` open, and the code before it ends with ``;``, ``{`` or ``}`` (or there is
    none). Asked about offsets in ascending order, it reads the file only up to the last
    one; brackets are counted with ``bytes.count`` between literals, so the cost is per
    comment or string, not per bracket."""

    def __init__(self, src: bytes) -> None:
        self.src = src
        self.literals = lexer.literals(src)  # brackets inside them do not count
        self.pending: re.Match[bytes] | None = None
        self.done = 0  # brackets are counted up to here
        self.parens = 0
        self.chevrons = 0
        self.comment_starts: list[int] = []  # comments read so far, for the walk back
        self.comment_ends: list[int] = []
        self.walked: dict[int, bool] = {}  # see _statement_may_end

    def _count(self, start: int, end: int) -> None:
        count = self.src.count  # (a stray closer does not cancel a later opener)
        self.parens = max(0, self.parens + count(b"(", start, end) - count(b")", start, end))
        self.chevrons = max(0, self.chevrons + count(b"<<<", start, end)
                            - count(b">>>", start, end))

    def __call__(self, pos: int) -> bool:
        while True:
            m = self.pending or next(self.literals, None)
            self.pending = None
            if m is None or m.start() >= pos:
                self.pending = m
                break
            self._count(self.done, m.start())
            self.done = max(self.done, m.end())
            if m.group()[:1] == b"/":
                self.comment_starts.append(m.start())
                self.comment_ends.append(m.end())
        if self.done < pos:
            self._count(self.done, pos)
            self.done = pos
        if self.parens > 0 or self.chevrons > 0:
            return False
        return _statement_may_end(self.src, pos, self.comment_starts, self.comment_ends,
                                  self.walked)


def _statement_may_end(src: bytes, pos: int, starts: list[int], ends: list[int],
                       walked: dict[int, bool]) -> bool:
    """Whether the last code byte before ``pos`` (skipping blanks, comments and directive
    lines) is ``;``, ``{`` or ``}``, or there is no code before it. ``starts``/``ends``
    are the comments before ``pos``, in order.

    The answer from any point of the backward walk is the answer from ``pos``, so the
    points where the walk jumps (to a directive line's or a comment's start) are kept in
    ``walked`` with it: a later walk, from further down, stops where an earlier one has
    been. 8,000 include lines in a row then cost 8,000 short walks, not 8,000 walks to
    the top of the file."""
    i = pos
    visited = [pos]
    answer = True
    while i > 0:
        if i in walked:
            answer = walked[i]
            break
        i -= 1
        byte = src[i]
        if byte in b" \t\r\n\f\v":
            continue
        c = bisect.bisect_right(starts, i) - 1
        if c >= 0 and i < ends[c]:
            i = starts[c]
            visited.append(i)
            continue
        line_start = src.rfind(b"\n", 0, i) + 1
        while line_start > 1 and src[line_start - 2:line_start - 1] == b"\\" or \
                line_start > 2 and src[line_start - 3:line_start - 1] == b"\\\r":
            line_start = src.rfind(b"\n", 0, line_start - 1) + 1  # a continued line
        if src[line_start:i + 1].lstrip(b" \t\f\v\xef\xbb\xbf").startswith(b"#"):
            i = line_start
            visited.append(i)
            continue
        answer = byte in b";{}"
        break
    walked.update(dict.fromkeys(visited, answer))
    return answer


_TRAILING_COMMENTS = lazy(rb"\s*(?:/\*(?:[^*\n]|\*(?!/))*\*/\s*)*(?://[^\n]*\s*)?")


def _deletion_span(src: bytes, start: int, end: int) -> tuple[int, int] | None:
    """What to delete to drop a directive: its whole line with the line ending, or, when
    comments follow it on the line, the directive and the blanks after it (the comments
    stay, on a line of their own). None if code shares the line: deleting only the
    directive would turn that text into a line of its own, maybe a new directive, and
    the next run would see a different file."""
    line_start = src.rfind(b"\n", 0, start) + 1
    nl = src.find(b"\n", end)
    line_end = len(src) if nl < 0 else nl + 1
    # Trailing comments count only if they close on the line too.
    if src[line_start:start].strip() or not _TRAILING_COMMENTS.fullmatch(src, end, line_end) \
            or src[max(0, line_end - 3):line_end].rstrip(b"\r\n").endswith(b"\\"):  # continued
        return None
    rest = len(src[end:line_end]) - len(src[end:line_end].lstrip(b" \t"))
    if src[end + rest:line_end].strip():
        return line_start, end + rest
    return line_start, line_end


def top_insertion_point(ctx: FileContext) -> tuple[int, bytes]:
    """Where lines that must precede the file's headers go, and the line break to put
    before them (when a guard line ends the file without one)."""
    src = ctx.src
    pos = _after_guard_or_pragma(src, ctx.in_code)
    if pos is not None:
        return pos, b"" if pos == 0 or src[pos - 1:pos] == b"\n" else ctx.eol()
    if ctx.scan.includes:
        top_level = [inc for inc in ctx.scan.includes if not inc.branch]
        first = (top_level or ctx.scan.includes)[0]
        return _insertion_before(ctx, OutsideBlocks(src, ctx.code, ctx.scan.literals), first.start), b""
    return _line_for_insertion(ctx, _LEADING_COMMENTS.match(src).end()), b""


def _line_for_insertion(ctx: FileContext, pos: int) -> int:
    """Where lines put at the line start ``pos`` go: after a byte order mark (it stays
    first), and at the start of the logical line when the line before ``pos`` ends with a
    backslash.
    (Spliced into that line, a directive would be none; put after a break there, it would
    cut the logical line, and what followed it would read differently in a second run.)"""
    src = ctx.src
    while pos > 0 and src[pos - 1:pos] == b"\n" \
            and src[max(0, pos - 3):pos].rstrip(b"\r\n").endswith(b"\\"):
        pos = src.rfind(b"\n", 0, pos - 1) + 1  # (the continued line's start)
    return len(lexer.BOM) if pos == 0 and src.startswith(lexer.BOM) else pos


_CONDITIONAL = lazy(lexer.CONDITIONAL)


def _insertion_before(ctx: FileContext, outside: OutsideBlocks, start: int) -> int:
    """Where a line that must come before the line holding ``start`` goes (before the
    block that line is in, after a byte order mark, before a continued line)."""
    line = ctx.src.rfind(b"\n", 0, start) + 1
    return _line_for_insertion(ctx, _before_block(ctx, outside, line))


def _before_block(ctx: FileContext, outside: OutsideBlocks, line: int) -> int:
    """``outside(line)``, unless that line start is inside a comment (a comment that
    ends on the line where the block's declaration begins): then ``line`` itself, for
    a line put there would be commented out."""
    pos = outside(line)
    return pos if ctx.in_code(pos, pos) else line


class OutsideBlocks:
    """Maps a line start to itself if no brace is open there, else to the start of the
    line where the outermost open block's declaration begins: a header included inside
    ``extern "C" {`` (or a namespace, or a function) would not compile, templates need
    C++ linkage. The declaration begins at the line of its first token after the last
    ``;``, ``}`` or directive line before its ``{``. When a conditional opened before
    that ``{`` ends inside the block (``#ifdef __cplusplus`` / ``extern "C" {`` /
    ``#endif``), the answer is the conditional's ``#if`` line: inside it, the block
    would open under the condition only. Braces in directives do not count. Asked
    about offsets in ascending order, it reads the file once, up to the last one, and
    only at its braces, ``;`` and ``#``: ``code`` is the file with comments and literals
    blanked (``ctx.code``), ``literals`` the scan's spans of them (a string literal is
    a token a declaration may begin with; a comment is not)."""

    def __init__(self, src: bytes, code: bytes, literals: list[tuple[int, int]]) -> None:
        self.src = src
        self.code = code
        self.literals = literals
        self.done = 0  # read up to here
        self.depth = 0
        self.boundary = 0  # where the last ';', '}' or directive line at file level ended
        self.block: tuple[int, int] | None = None  # (its start, conditionals open at "{")
        self.conditionals: list[int] = []  # line starts of the open #if lines
        self.escaped: int | None = None  # a conditional around the "{" that ends inside

    def __call__(self, pos: int) -> int:
        if self.done == 0 and self.src.find(b"{", 0, pos) < 0:
            return pos
        src, code = self.src, self.code
        at = self.done
        while at < pos:
            m = _BLOCK_EVENT.search(code, at, pos)
            if m is None:
                break
            at = m.end()
            c = m.group()
            if c == b"#":
                if not lexer.starts_logical_line(src, m.start()):
                    continue
                at = max(at, _next_line(src, m.start()))
                d = _CONDITIONAL.match(src, m.start())
                cond = d.group("cond") if d else b""
                if cond in (b"if", b"ifdef", b"ifndef"):
                    self.conditionals.append(src.rfind(b"\n", 0, m.start()) + 1)
                elif cond == b"endif" and self.conditionals:
                    opened = self.conditionals.pop()
                    if self.block is not None and len(self.conditionals) < self.block[1]:
                        self.escaped = opened  # the last one popped is the outermost
                if self.depth == 0:
                    self.boundary = at
            elif c == b"{":
                if self.depth == 0:
                    self.block = (self._declaration(m.start()), len(self.conditionals))
                    self.escaped = None
                self.depth += 1
            elif c == b"}":
                if self.depth:
                    self.depth -= 1
                    if self.depth == 0:
                        self.block = None
                        self.boundary = at
            elif self.depth == 0:  # ;
                self.boundary = at
        self.done = max(self.done, at, pos)
        if self.block is None:
            return pos
        return self.block[0] if self.escaped is None else self.escaped

    def _declaration(self, brace: int) -> int:
        """The line start of the first token after the last boundary (the brace itself
        when nothing stands between)."""
        first = brace
        m = _NOT_BLANK.search(self.code, self.boundary, brace)
        if m is not None:
            first = m.start()
        k = bisect.bisect_left(self.literals, (self.boundary,))
        while k < len(self.literals) and self.literals[k][0] < first:
            start = self.literals[k][0]
            if self.src[start:start + 2] not in (b"//", b"/*"):
                first = start  # (a string or character literal: a token)
                break
            k += 1
        return self.src.rfind(b"\n", 0, first) + 1


_BLOCK_EVENT = lazy(rb"[{};#]")
_NOT_BLANK = lazy(rb"[^ \t\r\n\f\v]")


_PRAGMA_ONCE = lazy(rb"#[ \t]*pragma[ \t]+once(?![\w$])")


def _after_guard_or_pragma(src: bytes, in_code) -> int | None:
    """Offset of the line after ``#pragma once`` or after a leading ``#ifndef X`` /
    ``#define X`` guard; None if the file has neither. ``in_code(start, end)`` tells
    whether a span is code (not a comment or literal): ``FileContext.in_code``."""
    # `#pragma once` is searched for, not reached by tokenizing: a file that says
    # "pragma" (#pragma unroll) and "once" (a comment) without it was tokenized whole.
    if b"once" in src:
        for m in _PRAGMA_ONCE.finditer(src):
            if lexer.starts_logical_line(src, m.start()) and in_code(m.start(), m.end()):
                after = _next_line(src, m.end())
                # (`#pragma once /* ...` with the comment running on: its next line is
                # inside the comment, no place for a line of code)
                if after >= len(src) or in_code(after - 1, after + 1):
                    return after
    code: list[lexer.Token] = []
    pos = 0
    while len(code) < 4:  # the first four tokens that are no comment or blank
        tok = lexer.next_token(src, pos)
        if tok is None:
            break
        code.append(tok)
        pos = tok.end
    if len(code) >= 4 and code[0].kind == "directive" and code[2].kind == "directive":
        first = code[0].text.split(b"#", 1)[1].strip()
        second = code[2].text.split(b"#", 1)[1].strip()
        if first == b"ifndef" and second == b"define" and code[1].text == code[3].text:
            return _next_line(src, code[3].end)
    return None


def _next_line(src: bytes, pos: int) -> int:
    """Start of the line after the logical line containing ``pos``."""
    while True:
        nl = src.find(b"\n", pos)
        if nl < 0:
            return len(src)
        if src[nl - 1:nl] == b"\\" or src[nl - 2:nl] == b"\\\r":
            pos = nl + 1
            continue
        return nl + 1


def _libcudacxx_used(ctx: FileContext, memo: list[bool]) -> bool:
    """Whether the file names anything libcu++ declares (a libcu++ include in a file that
    does not is dropped: any header it reaches that uses libcu++ reports that itself)."""
    if not memo:
        memo.append(uses_libcudacxx(ctx))
    return memo[0]
