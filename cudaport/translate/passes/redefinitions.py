"""Device functions and vector operators the project defines that HIP already defines (CP115).

CUDA lacks ``atomicMax(float*, float)`` (and ``atomicAdd(double*, double)`` before sm_60),
so projects write their own; HIP's headers define both, so the translated file redefines
them and does not compile. The list of HIP's definitions comes from the target's rule
folder (``hip-device-functions.txt``, written by tools/gen_hip_device_functions.py from the
ROCm 6.4 headers); a definition matches when its name and parameter types are the same.
Likewise CUDA's vector types have no arithmetic operators, so projects define them
(cuda-samples' helper_math.h: ``float2 operator*(float2, float2)``, ``operator+=``); HIP's
vector types have some as non-template members and friends, and every use of the
operator becomes ambiguous (``vector_operators`` in the target's hazards facts).

Likewise host code may declare CUDA's built-in variables for itself (tpruvot/ccminer's
cuda_helper.h: ``extern const dim3 blockDim;`` where nvcc's host pass lacks them); HIP
declares them for host and device code with types of its own, so the declaration is a
conflicting redeclaration (``builtin_variables`` in the target's hazards facts).

The translation keeps each such definition for CUDA only: ``#if !defined(<guard>)`` ...
``#endif`` around it, the guard being the target's platform macro, so the target's own
definition is used (they compute the same thing) and the file still builds for CUDA.
"""

from __future__ import annotations

import functools
import re

from .. import collisions
from ...source import lexer
from ...preprocessor import platform_branches
from ..context import FileContext
from ...source.edits import Edit
from ...rules.hazards import target_facts
from ...rules.model import version_tuple
from .data import target_data
from .registry import register
from ...source.lazy_re import lazy

_DEFINITION = lazy(
    lexer.word(b"__device__") + rb"\b(?:[ \t\r\n]+[\w:*&<>,]+)*?[ \t\r\n*&]+([A-Za-z_]\w*)[ \t]*"
    rb"\(([^()]*)\)[ \t\r\n]*\{")
_OPERATOR = lazy(
    rb"(?:" + lexer.word(b"__host__") + rb"|" + lexer.word(b"__device__") + rb")\b[^;{}()]*?\boperator[ \t]*([-+*/%^|&]=|<<=|>>=|[*/])[ \t]*"
    rb"\(([^()]*)\)[ \t\r\n]*\{")
_PREFIX_WORDS = frozenset(b"inline static __forceinline__ __inline__ __host__ __device__ "
                          b"constexpr".split())
_SPACED_POINTER = lazy(r"\s*([*&]+)\s*")
_NAMED = lazy(r"(.*?[\w*&>])\s*\b([A-Za-z_]\w*)\Z")
_TYPE_WORDS = frozenset("int float double char long short unsigned signed bool const volatile "
                        "void size_t".split())


def parameter_types(params: str) -> list[str]:
    """``"float* addr, float val"`` -> ``["float*", "float"]``: names and defaults dropped,
    blanks normalised (``float *p`` and ``float* p`` are one type)."""
    out = []
    for part in lexer.split_top_level(params, "<(", ">)"):
        text = " ".join(part.split("=", 1)[0].split())
        text = _SPACED_POINTER.sub(r"\1 ", text).strip()
        m = _NAMED.match(text)
        if m and m.group(2) not in _TYPE_WORDS and (" " in text or m.group(1)[-1] in "*&"):
            text = m.group(1).strip()
        text = text.replace(" *", "*").replace(" &", "&")
        if text and text != "void":
            out.append(text)
    return out


def _hip_functions(ctx: FileContext) -> dict[str, dict[tuple[str, ...], str]]:
    """name -> {parameter types: header}, for the functions the target version's headers
    define (a row may be dated: defined since one version, or only before one)."""
    lines = target_data(ctx, "hip-device-functions.txt")
    version = ctx.compiled.version
    # (keyed by the cached tuple itself, not its value: hashing thousands of lines per
    # translated file cost more than the pass)
    parsed = _PARSED.get((id(lines), version))
    if parsed is None or parsed[0] is not lines:
        out: dict[str, dict[tuple[str, ...], str]] = {}
        for line in lines:
            name, types, header, *dated = line.split("\t")
            since, before = (dated + ["", ""])[:2]
            if version is not None and ((since and version < version_tuple(since))
                                        or (before and version >= version_tuple(before))):
                continue
            key = tuple(t.strip() for t in types.split(",") if t.strip())
            out.setdefault(name, {})[key] = header
        parsed = _PARSED[(id(lines), version)] = (lines, out)
    return parsed[1]


_PARSED: dict[tuple, tuple[tuple[str, ...], dict[str, dict[tuple[str, ...], str]]]] = {}


@register(42, "redefinitions")
def redefinitions(ctx: FileContext) -> None:
    facts = target_facts(ctx.compiled.target)
    merged = _may_merge_overloads(ctx)
    device = b"__device__" in ctx.names
    builtins = facts.get("builtin_variables")
    declares_builtins = builtins and any(n.encode() in ctx.names for n in builtins["names"]) \
        and _builtin_declaration(tuple(builtins["names"])).search(ctx.src) is not None
    if not (device or merged or declares_builtins):
        return
    code = ctx.code
    guard = _guard(ctx)
    spans: list[tuple[int, int]] = []
    cuda_only = _CudaOnly(ctx)
    if declares_builtins:
        _builtin_declarations(ctx, code, builtins, guard, spans, cuda_only)
    if device or merged:
        _defined_by_target(ctx, code, facts, guard, spans, cuda_only)
    if merged:
        _merged_overloads(ctx, code, guard, spans, cuda_only)
    if spans:
        _keep_for_cuda_only(ctx, spans, guard)


def _defined_by_target(ctx: FileContext, code: bytes, facts: dict, guard: bytes | None,
                       spans: list[tuple[int, int]], cuda_only: "_CudaOnly") -> None:
    """Device functions and vector operators the target's headers define too (CP115)."""
    known = _hip_functions(ctx)
    for m in _DEFINITION.finditer(code) if known else ():
        name = m.group(1).decode()
        overloads = known.get(name)
        if not overloads or ctx.symbols.is_project(m.start(1)):
            continue  # (`namespace mine { __device__ float atomicMin(...) }` is mine::)
        types = tuple(parameter_types(m.group(2).decode("latin-1")))
        header = overloads.get(types)
        if header is not None:
            _report(ctx, code, m, guard, f"{name}({', '.join(types)})", header, name, spans, cuda_only)
    vector = facts.get("vector_operators")
    if vector and b"operator" in code:
        for m in _OPERATOR.finditer(code):
            types = tuple(parameter_types(m.group(2).decode("latin-1")))
            if _is_target_operator(m.group(1).decode(), types, vector):
                _report(ctx, code, m, guard, f"operator{m.group(1).decode()}({', '.join(types)})",
                        vector["header"], "operator" + m.group(1).decode(), spans, cuda_only)


@functools.cache
def _builtin_declaration(names: tuple[str, ...]) -> re.Pattern[bytes]:
    """``extern ... blockDim;`` and the rest of its line (starting with the literal, which
    the regex engine finds fast)."""
    return re.compile(rb"extern\b[^;{}()=\n]*?[ \t*&](" + b"|".join(n.encode() for n in names)
                      + rb")[ \t]*;[ \t]*\r?(?:\n|\Z)")


def _builtin_declarations(ctx: FileContext, code: bytes, facts: dict, guard: bytes | None,
                          spans: list[tuple[int, int]], cuda_only: "_CudaOnly") -> None:
    """``extern const dim3 blockDim;`` on a line of its own: kept for CUDA only (CP115)."""
    title = ctx.compiled.target.title
    for m in _builtin_declaration(tuple(facts["names"])).finditer(code):
        line = code.rfind(b"\n", 0, m.start()) + 1
        if code[line:m.start()].strip(b" \t") or cuda_only(m.start()):
            continue  # (not the first word of its line; or not compiled for the target)
        name = m.group(1).decode()
        what = (f"{name} is a built-in variable {title} declares for host and device code "
                f"({facts['header']}), with a type of its own; this declaration redeclares it")
        if guard is None:
            ctx.find("CP115", m.start(1), f"{what}: keep it for CUDA only (#if !defined(...))",
                     name, "device")
        else:
            spans.append((line, m.end()))
            ctx.find("CP115", m.start(1), f"{what}: the translation keeps it for CUDA only "
                     f"(#if !defined({guard.decode()}))", name, "device", "info")


def _may_merge_overloads(ctx: FileContext) -> bool:
    """Whether the file uses a CUDA name that shares its target name with another
    (cudaError_t and CUresult are both hipError_t): only then can overloads merge."""
    merging = collisions.merging_names(ctx.compiled)
    used = {name for _s, name, _c in ctx.scan.idents if name in merging}
    # Two spellings of one target name are needed: cudaError_t alone merges nothing.
    targets: set[bytes] = set()
    for name in used:
        target = ctx.compiled.identifiers[name].replacement
        if target in targets or ctx.holds(target):
            return True
        targets.add(target)
    return False


_FUNCTION = lazy(
    rb"(?m)^[ \t]*(?:(?:static|inline|extern|__host__|__device__|__forceinline__)[ \t]+)*"
    rb"[A-Za-z_][\w:<>, \t]*[ \t*&]+([A-Za-z_]\w*)[ \t]*\(([^()]*)\)[ \t\r\n]*\{")


def _merged_overloads(ctx: FileContext, code: bytes, guard: bytes | None,
                      spans: list[tuple[int, int]], cuda_only: "_CudaOnly") -> None:
    """Overloads the renaming makes one: cuda-samples' helper_cuda.h defines
    ``_cudaGetErrorEnum(cudaError_t)`` and ``_cudaGetErrorEnum(CUresult)``, both
    ``(hipError_t)`` on HIP. The first stays; the later ones are kept for CUDA only
    (CP163), which keeps every call meaning what it meant (an error name either way)."""
    lookup = ctx.compiled.identifiers
    first: dict[tuple[bytes, tuple[str, ...]], tuple[int, tuple[str, ...]]] = {}
    for m in _FUNCTION.finditer(code):
        params = m.group(2)
        renamed = _IDENT.sub(lambda w: _renamed(lookup, w.group()), params)
        if renamed == params:
            continue
        before = tuple(parameter_types(params.decode("latin-1")))
        after = tuple(parameter_types(renamed.decode("latin-1")))
        key = (m.group(1), after)
        seen = first.setdefault(key, (m.start(), before))
        if seen[1] == before:
            continue
        span = _definition_span(ctx, code, m) if guard is not None else None
        if span is not None and cuda_only(span[0]):
            continue
        line, _col = ctx.linecol(seen[0])
        name = m.group(1).decode()
        what = f"{name}({', '.join(before)}) becomes {name}({', '.join(after)}), like the one at line {line}"
        if span is None:
            ctx.find("CP163", m.start(1), f"{what}; keep one of them for CUDA only", name)
        else:
            spans.append(span)
            ctx.find("CP163", m.start(1), f"{what}: the translation keeps this one for CUDA "
                     f"only (#if !defined({guard.decode()}))", name, "", "info")


_IDENT = lazy(rb"[A-Za-z_]\w*")


def _renamed(lookup, word: bytes) -> bytes:
    r = lookup.get(word)
    return r.replacement if r is not None and r.renames and r.replacement else word


def _is_target_operator(op: str, types: tuple[str, ...], facts: dict) -> bool:
    """``float2 operator*(float2, const float2&)``, ``operator+=(float2&, float2)``: an
    operator the target defines as a non-template for its vector types."""
    if len(types) != 2:
        return False
    first, second = (t.removeprefix("const ").removesuffix("&").strip() for t in types)
    if first != second or first not in facts["types"]:
        return False
    if op.endswith("=") and op not in ("<=", ">="):
        return op in facts["compound"] and types[0] == first + "&"
    return op in facts["binary"] and (not types[0].endswith("&")
                                      or types[0] == f"const {first}&")


def _report(ctx: FileContext, code: bytes, m: re.Match[bytes], guard: bytes | None,
            what: str, header: str, name: str, spans: list[tuple[int, int]],
            cuda_only: _CudaOnly) -> None:
    """CP115: an error when the definition stays as it is, information when the
    translation keeps it for CUDA only (its extent is plain to see: ``spans``)."""
    title = ctx.compiled.target.title
    span = _definition_span(ctx, code, m) if guard is not None else None
    if span is not None and cuda_only(span[0]):
        return  # in a branch the target does not compile (e.g. guarded by a first run)
    if span is None:
        done, severity = f"keep this definition for CUDA only (#if !defined(...))", ""
    else:
        spans.append(span)
        done = f"the translation keeps it for CUDA only (#if !defined({guard.decode()}))"
        severity = "info"
    ctx.find("CP115", m.start(), f"{what} is already defined by {title} ({header}); the "
             f"translated file would redefine it: {done}", name, "device", severity)


def _keep_for_cuda_only(ctx: FileContext, spans: list[tuple[int, int]], guard: bytes) -> None:
    """One ``#if !defined(guard)`` ... ``#endif`` around each run of adjacent definitions."""
    runs: list[list[int]] = []
    for start, end in sorted(set(spans)):
        if runs and start <= runs[-1][1]:
            runs[-1][1] = max(end, runs[-1][1])
        else:
            runs.append([start, end])
    rule, eol = f"{ctx.compiled.target.name}/redefinition", ctx.eol()
    for start, end in runs:
        ctx.edits.append(Edit(start, start, b"#if !defined(" + guard + b")" + eol, rule))
        ctx.edits.append(Edit(end, end, b"#endif" + eol, rule))


def _guard(ctx: FileContext) -> bytes | None:
    """The macro only the target's compiler defines (``cuda_only_guard`` in its hazard
    facts); without one, redefinitions are reported and left alone."""
    macro = target_facts(ctx.compiled.target).get("cuda_only_guard")
    return macro.encode() if macro else None


def _definition_span(ctx: FileContext, code: bytes, m: re.Match[bytes]) -> tuple[int, int] | None:
    """Whole lines from the definition's first line to the line of its closing brace, when
    the first line holds only specifiers before it and nothing follows the brace."""
    line = code.rfind(b"\n", 0, m.start()) + 1
    if not set(code[line:m.start()].split()) <= _PREFIX_WORDS:
        return None
    end = ctx.brackets.close_end(m.end() - 1)
    if end is None:
        return None
    stop = code.find(b"\n", end)
    stop = len(code) if stop < 0 else stop + 1
    if code[end:stop].strip() or stop == len(code) and not code.endswith(b"\n"):
        return None
    return line, stop


class _CudaOnly:
    """Whether an offset is in a branch the target does not compile (a first run's guard,
    ``#ifndef USE_ROCM``); the branches are found on the first question, as few files
    define anything the target has."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx, self.test, self.built = ctx, None, False

    def __call__(self, offset: int) -> bool:
        if not self.built:
            self.test, self.built = platform_branches.other_platform_test(self.ctx), True
        return self.test is not None and self.test(offset)
