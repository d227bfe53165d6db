"""Report device functions the project defines that HIP already defines (CP115).

CUDA lacks ``atomicMax(float*, float)`` (and ``atomicAdd(double*, double)`` before sm_60),
so projects write their own; HIP's headers define both, so the translated file redefines
them and does not compile. The list of HIP's definitions comes from the target's rule
folder (``hip-device-functions.txt``, written by tools/gen_hip_device_functions.py from the
ROCm 6.4 headers); a definition matches when its name and parameter types are the same.
"""

from __future__ import annotations

import re

from ..context import FileContext
from .data import target_data
from .registry import register

_DEFINITION = re.compile(
    rb"\b__device__\b(?:[ \t\r\n]+[\w:*&<>,]+)*?[ \t\r\n*&]+([A-Za-z_]\w*)[ \t]*"
    rb"\(([^()]*)\)[ \t\r\n]*\{")
_SPACED_POINTER = re.compile(r"\s*([*&]+)\s*")
_NAMED = re.compile(r"(.*?[\w*&>])\s*\b([A-Za-z_]\w*)\Z")
_TYPE_WORDS = frozenset("int float double char long short unsigned signed bool const volatile "
                        "void size_t".split())


def parameter_types(params: str) -> list[str]:
    """``"float* addr, float val"`` -> ``["float*", "float"]``: names and defaults dropped,
    blanks normalised (``float *p`` and ``float* p`` are one type)."""
    out = []
    depth, start, parts = 0, 0, []
    for i, ch in enumerate(params):
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(params[start:i])
            start = i + 1
    parts.append(params[start:])
    for part in parts:
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
    """name -> {parameter types: header}"""
    lines = target_data(ctx, "hip-device-functions.txt")
    if lines not in _PARSED:
        out: dict[str, dict[tuple[str, ...], str]] = {}
        for line in lines:
            name, types, header = line.split("\t")
            key = tuple(t.strip() for t in types.split(",") if t.strip())
            out.setdefault(name, {})[key] = header
        _PARSED[lines] = out
    return _PARSED[lines]


_PARSED: dict[tuple[str, ...], dict[str, dict[tuple[str, ...], str]]] = {}


@register(42, "redefinitions")
def redefinitions(ctx: FileContext) -> None:
    if b"__device__" not in ctx.src:
        return
    known = _hip_functions(ctx)
    if not known:
        return
    from .hazards import blank_comments_and_literals
    code = blank_comments_and_literals(ctx.src)
    title = ctx.compiled.target.title
    for m in _DEFINITION.finditer(code):
        name = m.group(1).decode()
        overloads = known.get(name)
        if not overloads:
            continue
        types = tuple(parameter_types(m.group(2).decode()))
        header = overloads.get(types)
        if header is not None:
            ctx.find("CP115", m.start(1),
                     f"{name}({', '.join(types)}) is already defined by {title} ({header}); "
                     f"the translated file redefines it: keep this definition for CUDA only "
                     f"(#if !defined(__HIP_PLATFORM_AMD__))", name, "device")
