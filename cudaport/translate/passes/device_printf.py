"""``std::printf`` becomes ``::printf`` in device code.

CUDA declares ``printf`` for the device in the global namespace, and ``std::printf`` (the
``using ::printf`` of ``<cstdio>``) names that same function, so a kernel may call either.
HIP declares its device ``printf`` in the global namespace only (hip/amd_detail/
amd_device_functions.h, ROCm 6.4 and 7.2); ``std::printf`` there is the C library's host
function, and a kernel calling it does not compile ("reference to __host__ function
'printf' in __global__ function": nccl-tests' verifiable.cu). ``::printf`` names HIP's
device printf on the device and the C library's on the host (a ``__host__ __device__``
body is compiled for both), so the rewrite keeps what each side prints; no finding. Only
the bodies of ``__device__`` and ``__global__`` functions and lambdas are rewritten.
"""

from __future__ import annotations


from ..context import FileContext
from ...source.edits import Edit
from ...source.spans import Inside
from .registry import register
from ...source.lazy_re import lazy

# (each alternative starts with its literal, so the search skips to ':' or 's' instead of
# trying every byte; the look-behinds test what stands before the match, as one leading
# look-behind did)
_STD_PRINTF = lazy(rb"(?:::(?<![\w:]::)[ \t]*std|std(?<![\w:]std))[ \t]*::[ \t]*printf\b")
_DEVICE_CODE = (b"__device__", b"__global__")


_MARK = lazy(rb"(?<![\w$])(?:__device__|__global__)(?![\w$])")


def _device_bodies(ctx: FileContext) -> list[tuple[int, int]]:
    """(start, end) of the body of each function or lambda whose head is marked
    ``__device__``/``__global__`` (the file's skeleton; a declaration has no body), the
    outermost of nested ones."""
    bodies: list[tuple[int, int]] = []
    code = ctx.code
    for block in ctx.skeleton.function_bodies():
        if bodies and block.open < bodies[-1][1]:
            continue  # (inside a body already taken)
        if _MARK.search(code, block.head, block.open):
            bodies.append((block.open, block.close + 1))
    return bodies


@register(127, "device-printf")
def global_printf(ctx: FileContext) -> None:
    src = ctx.src
    if b"printf" not in src or not ctx.compiled.target.extra.get("device_printf_global") \
            or not any(word in src for word in _DEVICE_CODE):
        return
    calls = [m for m in _STD_PRINTF.finditer(src) if ctx.in_code(m.start(), m.end())]
    if not calls:
        return
    bodies = Inside(_device_bodies(ctx))
    rule = f"{ctx.compiled.target.name}/device-printf"
    for m in calls:
        if bodies(m.start()):
            ctx.edits.append(Edit(m.start(), m.end(), b"::printf", rule))
