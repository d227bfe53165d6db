"""Warp matrix code (``nvcuda::wmma``) that rocWMMA cannot run as written (rules/hip/wmma.yaml
ports the rest: ``nvcuda::wmma`` becomes a name of namespace ``rocwmma``).

- CP112 (error) per fragment whose shape or element type rocWMMA lacks: a shape other than
  m16n16k16 (the one CUDA shape among rocWMMA's 16x16 and 32x32 blocks), ``double``,
  ``precision::tf32`` (CUDA's tf32 fragments load ``float``; rocWMMA's ``xfloat32_t``
  fragments load ``xfloat32_t``), ``__nv_bfloat16`` (rocWMMA's bfloat16 is
  ``hip_bfloat16``, another type than the ``__hip_bfloat16`` it becomes), unsigned 8-bit
  (rocWMMA multiplies signed 8-bit only), and the ``experimental`` 4-bit and 1-bit
  fragments and ``bmma_sync``. A shape spelled through a name is read from the file's
  ``#define NAME 16`` or ``NAME = 16``; one it cannot read is left alone.
- CP236 (warning) where a fragment's ``x[...]`` is indexed: each thread holds other
  elements than in CUDA (and a wavefront of 64 holds half as many per thread), so code
  that gives an element a meaning by its index is not portable; the same operation on
  every element is.
- CP238 (warning) on a signed 8-bit m16n16k16 fragment: rocWMMA builds it for gfx908,
  gfx90a and gfx11, not for gfx940 and later (K must be 32 there).
- CP237 (error) on a launch with a block of a multiple of 32 threads that is not a
  multiple of the wavefront: a fragment belongs to a whole wavefront in rocWMMA.
"""

from __future__ import annotations

import re

from ...source import lexer
from ..context import FileContext
from .registry import register
from ...source.lazy_re import lazy

_FRAGMENT = lazy(rb"\b(?:([A-Za-z_]\w*)\s*::\s*)?fragment\s*<")
_NAMESPACE_ALIAS = lazy(rb"\bnamespace\s+([A-Za-z_]\w*)\s*=\s*(?:::\s*)?nvcuda\s*::\s*wmma\b")
_ALIAS = lazy(rb"\busing\s+([A-Za-z_]\w*)\s*=\s*(?:typename\s+)?(?:::\s*)?"
              rb"(?:nvcuda\s*::\s*)?\Z")
_UNPORTED = lazy(rb"\bwmma\s*::\s*(?:experimental\b|bmma_sync\b)")
_WARP_INDEX = lazy(rb"\bthreadIdx\s*\.\s*x\s*/\s*([A-Za-z_]\w*|\d+)\b")
_INT8 = {b"signedchar", b"char", b"int8_t", b"std::int8_t"}
_SHAPES = {(16, 16, 16)}
# element type (as spelled, blanks removed) -> why rocWMMA cannot take it
_TYPES = {
    b"double": "rocWMMA's double fragments are 16x16x4, CUDA's m8n8k4",
    **{bf16: "rocWMMA takes hip_bfloat16, another type than the __hip_bfloat16 "
             f"{bf16.decode()} becomes" for bf16 in (b"__nv_bfloat16", b"nv_bfloat16")},
    **dict.fromkeys((b"unsignedchar", b"uint8_t"), "rocWMMA multiplies signed 8-bit integers only"),
}


def _values(code: bytes, name: bytes) -> set[int]:
    """What a shape spelled as ``name`` is: a number, or the file's definitions of it."""
    if name.isdigit():
        return {int(name)}
    if not re.fullmatch(rb"[A-Za-z_]\w*", name):
        return set()
    word = re.escape(name)
    return {int(m.group(1)) for m in re.finditer(
        rb"(?:#\s*define\s+" + word + rb"\s+\(?|\b" + word + rb"\s*=\s*)(\d+)\b", code)}


def _shape_problem(code: bytes, args: list[bytes]) -> str | None:
    kind = re.sub(rb"\s+", b"", args[4]) if len(args) > 4 else b""
    kind = kind.rsplit(b"::", 1)[-1] if b"precision::" in kind else kind
    if b"tf32" == kind:
        return ("precision::tf32: CUDA's tf32 fragments load float, rocWMMA's xfloat32_t "
                "fragments load xfloat32_t (and only on gfx940 and later)")
    if kind in (b"s4", b"u4", b"b1"):
        return f"{kind.decode()} fragments: rocWMMA has no 4-bit or 1-bit matrices"
    if kind in _TYPES:
        return f"{args[4].decode().strip()} fragment: {_TYPES[kind]}"
    values = [_values(code, a.strip()) for a in args[1:4]]
    if all(len(v) == 1 for v in values):
        shape = tuple(next(iter(v)) for v in values)
        if shape not in _SHAPES:
            return (f"shape m{shape[0]}n{shape[1]}k{shape[2]}: rocWMMA runs CUDA's shapes "
                    f"only as m16n16k16")
    return None


def _declared(code: bytes, start: int) -> list[bytes]:
    """The names a declaration declares from ``start`` (after its type) to its ``;``:
    ``a, b[2], &c`` gives a, b, c; nothing where a parenthesis or brace comes first."""
    end = code.find(b";", start)
    text = code[start:end] if end >= 0 else b""
    if re.search(rb"[(){}]", text):
        return []
    text = re.sub(rb"\[[^\]]*\]|=[^,]*", b"", text)
    return [m.group(1) for m in (re.match(rb"\s*[&*]*\s*([A-Za-z_]\w*)\s*\Z", part)
                                 for part in text.split(b",")) if m]


@register(43, "wmma")
def wmma(ctx: FileContext) -> None:
    if b"wmma" not in ctx.src or b"nvcuda" not in ctx.src:  # (else a project's own wmma)
        return
    header = ctx.compiled.headers.get(b"mma.h")
    if header is None or header.status != "inline":  # the target's rules do not port WMMA
        return
    code = ctx.code
    unqualified = re.search(rb"using\s+namespace\s+(?:nvcuda\s*::\s*)?wmma\b", code)
    fragments: set[bytes] = set()  # variables that are fragments
    aliases: set[bytes] = set()  # names of fragment types
    reported: list[tuple[int, int]] = []
    spellings = {b"wmma"} | set(_NAMESPACE_ALIAS.findall(code))  # `namespace w = nvcuda::wmma;`
    for m in _FRAGMENT.finditer(code):
        if (m.group(1) not in spellings) if m.group(1) else not unqualified:
            continue
        spans = lexer.template_arguments(code, m.end() - 1)
        if not spans or len(spans) < 4:
            continue
        args = [code[a:b] for a, b in spans]
        problem = _shape_problem(code, args)
        if problem:
            reported.append((m.start(), spans[-1][1]))
            ctx.find("CP112", m.start(), f"WMMA {problem}; port the kernel by hand or call "
                     "hipBLAS/hipBLASLt", "fragment", "device")
        elif len(args) > 4 and re.sub(rb"\s+", b"", args[4]) in _INT8:
            ctx.find("CP238", m.start(), f"WMMA {args[4].decode().strip()} fragment m16n16k16: "
                     "rocWMMA multiplies 8-bit 16x16 blocks with K 16 on gfx908, gfx90a and "
                     "RDNA3 (gfx11) only; gfx940 and later (gfx942) need K >= 32, and the "
                     "build for them fails", "fragment", "device")
        alias = _ALIAS.search(code, max(0, m.start() - 120), m.start())
        if alias:
            aliases.add(alias.group(1))
        else:
            fragments.update(_declared(code, spans[-1][1] + 1))
    for m in _UNPORTED.finditer(code):
        if not any(a <= m.start() < b for a, b in reported):
            ctx.find("CP112", m.start(), f"{m.group(0).decode()}: rocWMMA has no 4-bit or "
                     "1-bit matrices; port the kernel by hand", "wmma", "device")
    for name in sorted(aliases):  # `FragA a, b[2];`
        for d in re.finditer(rb"\b" + re.escape(name) + rb"\s+(?=[&*]*\s*[A-Za-z_])", code):
            fragments.update(_declared(code, d.end()))
    lines: set[int] = set()
    for name in sorted(fragments):
        pattern = rb"\b" + re.escape(name) + rb"(?:\s*\[[^\];]*\])?\s*\.\s*x\s*\["
        for x in re.finditer(pattern, code):
            line = ctx.linecol(x.start())[0]
            if line in lines:
                continue
            lines.add(line)
            ctx.find("CP236", x.start(), f"{name.decode()}.x[...]: each thread of a rocWMMA "
                     "fragment holds other elements than in CUDA; an operation applied alike to "
                     "every element is portable, one that gives an element a meaning by its "
                     "index (a row, a column) is not", "x", "device")
    _launches(ctx, code)


def _launches(ctx: FileContext, code: bytes) -> None:
    warp = ctx.options.warp_size or ctx.compiled.target.warp_size
    if warp <= 32 or not fragments_used(code):
        return
    why = (f"a fragment belongs to a whole {warp}-lane wavefront on AMD GPUs, so two 32-thread "
           f"warps share one and its loads and products mix both warps' tiles (the result is "
           f"wrong)")
    for at in ctx.scan.launches:
        config = lexer.split_arguments(ctx.src, at, end_token=b">>>", brackets=ctx.brackets)
        block = code[slice(*config[0][1])] if config and len(config[0]) > 1 else b""
        for value in sorted(_values(code, block.strip())) if block else ():
            if value % 32 == 0 and value % warp:
                ctx.find("CP237", at, f"a block of {value} threads in a file that uses WMMA: "
                         f"{why}; use a multiple of {warp} threads", "<<<", "device")
    for m in _WARP_INDEX.finditer(code):
        if 32 in _values(code, m.group(1)):
            ctx.find("CP237", m.start(), f"warp index threadIdx.x / {m.group(1).decode()} (32) "
                     f"in a file that uses WMMA: {why}; divide by warpSize", "threadIdx",
                     "device")


def fragments_used(code: bytes) -> bool:
    return _FRAGMENT.search(code) is not None
