"""Calls CUDA's device math shares its name with: the host's C and C++ library wherever nvcc
compiles the call for the host. Such a call is not CUDA's and asks for no runtime header
(a host-only file that gets one no longer compiles with g++)."""

from __future__ import annotations

from . import scopes


def host_library_call(ctx, start: int, name: bytes, entry) -> bool:
    """``std::atan2`` anywhere, or a plain ``atan2(y, x)`` inside a function body nvcc
    compiles for the host only (DualSPHysics's JDsDamping.cpp): C++'s and C's own function.
    CUDA's intrinsics (``__float_as_uint``) are no C library's, wherever they stand."""
    if entry.library != "device" or entry.kind != "function":
        return False
    src = ctx.src
    if src[start - 2:start] == b"::":
        return scopes.word_before(src, start - 2)[1] == b"std"
    return not name.startswith(b"__") and ctx.skeleton.host_only(start)
