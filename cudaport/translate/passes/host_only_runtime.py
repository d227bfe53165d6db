"""CUDA runtime calls in device code that the target has on the host only (CP228).

CUDA declares some runtime functions for device code too (cuda_device_runtime_api.h:
``cudaGetErrorString``, ``cudaGetLastError``, ``cudaMalloc`` ...); the target lists those
whose counterparts are host functions only (``host_only_runtime`` in target.yaml). A call
in a body the skeleton marks ``__device__``/``__global__`` is an error (the translation
does not compile there); in a ``__host__ __device__`` body a warning (it fails only where
device code calls that function). The call is renamed as elsewhere, except
``cudaGetErrorString``/``cudaGetErrorName``, which become the portable header's table of
the texts the target's host functions return.
"""

from __future__ import annotations

import functools

from ...source.edits import Edit
from ...symbols.skeleton import device_mark
from ..context import FileContext
from ..portable import header_path, load
from .registry import register


@register(35, "host-only-runtime")
def host_only_runtime(ctx: FileContext) -> None:
    names = _names(tuple(ctx.compiled.target.extra.get("host_only_runtime") or ()))
    if not names or not ctx.uses_device:
        return
    hits = [(s, n) for s, n, where in ctx.scan.idents if where == "code" and n in names]
    if not hits:
        return
    title = ctx.compiled.target.title
    for start, name in hits:
        mark = device_mark(ctx.skeleton, start)
        if mark is None:
            continue
        ref = ctx.symbols.ref(start)
        if ref is not None and ref.owner == "project":
            continue
        ported = _PORTED.get(name)
        if ported is not None and ported in _provided(ctx):
            # (the portable header's table of the host function's texts: the rename to the
            # host function at this name is replaced by it)
            ctx.edits[:] = [e for e in ctx.edits if e[0] != start]  # (some passes add plain tuples)
            ctx.edits.append(Edit(start, start + len(name), ported,
                                  f"{ctx.compiled.target.name}/device-error-strings"))
            continue
        shown = name.decode()
        where = "device code" if mark == "device" else "a __host__ __device__ function"
        ctx.find("CP228", start, f"{shown} called in {where}: {title}'s counterpart is a host "
                 "function only, so the kernel does not compile" if mark == "device" else
                 f"{shown} called in {where}: {title}'s counterpart is a host function only, "
                 "so device code that calls this function does not compile", shown, "runtime",
                 "error" if mark == "device" else "warning")


# CUDA's device-side error texts -> the portable header's functions giving the texts the
# target's host functions return (section device_error_strings)
_PORTED = {b"cudaGetErrorString": b"cudaport_device_error_string",
           b"cudaGetErrorName": b"cudaport_device_error_name"}


def _provided(ctx: FileContext) -> frozenset[bytes]:
    header = load(header_path(ctx.compiled.table.files))
    return frozenset(header.provides) if header is not None else frozenset()


@functools.cache
def _names(names: tuple[str, ...]) -> frozenset[bytes]:
    return frozenset(n.encode() for n in names)
