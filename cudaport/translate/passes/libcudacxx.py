"""Report libcu++ names (``cuda::std::``, ``cuda::atomic_ref``, ``cuda::thread_scope_*``).

The identifier table cannot hold them: ``cuda`` alone is also PyTorch's ``at::cuda``,
Thrust's ``thrust::cuda`` and many projects' own namespace. So a use counts only where
``cuda::`` starts the qualification (not ``x::cuda::``, ``a.cuda::``) and the next name is
one libcu++ declares in namespace ``cuda``. The names come from the target's rule folder
(``libcudacxx-names.txt``, written by tools/gen_cccl_rules.py from the CUDA 13 headers); a
target that has libcu++ ships no such file and gets no findings.

``cuda::std::NAME`` becomes ``std::NAME`` where the target lists NAME in
``libcudacxx-std.txt``: standard names its device code accepts (constexpr ones, <cmath>);
``ports/libcudacxx.yaml`` maps their headers. ``cuda::NAME`` (or ``cuda::std::NAME``)
becomes a name of the target's portable header where ``libcudacxx-portable.tsv`` lists it
(``cuda::minimum``, ``cuda::std::declval``). Other libcu++ names stay reported.
"""

from __future__ import annotations


from ..context import FileContext
from ...source.edits import Edit
from ...source.spans import Inside
from ...symbols.namespaces import projects_in_shared
from . import atomic_ref
from . import thread_pipeline
from .block_barrier import block_barriers, provable
from .data import target_data, target_words
from .registry import register
from ...source.lazy_re import lazy

# (The lookbehinds come after the literal: a pattern that starts with one cannot use the
# regex engine's fast search for ``cuda``, which made this pass 30 times slower.)
_USE = lazy(rb"cuda(?<![\w:.$]cuda)(?<!->cuda)[ \t]*::[ \t]*([A-Za-z_]\w*)")
# cuda::std::NAME: NAME, and where `cuda::std` ends (it becomes `std`)
_STD = lazy(rb"cuda[ \t]*::[ \t]*std(?![\w$])[ \t]*::[ \t]*([A-Za-z_]\w*)")

_HINTS = {
    b"std": "use std:: where the code is constexpr or host-only (HIP has no device "
            "standard library beyond that)",
    b"atomic": "use HIP atomics (atomicAdd, __hip_atomic_fetch_add)",
    b"atomic_ref": "use HIP atomics (atomicAdd, __hip_atomic_fetch_add)",
    b"barrier": "use __syncthreads() or cooperative groups' sync()",
    b"memcpy_async": "copy with plain loads and __syncthreads()",
    b"pipeline": "copy with plain loads and __syncthreads()",
    b"ptx": "use HIP intrinsics",
}


@register(32, "libcudacxx")
def libcudacxx(ctx: FileContext) -> None:
    uses = ctx.marked(b"cuda")
    if not uses:
        return
    names = target_words(ctx, "libcudacxx-names.txt")
    if not names:
        return
    title = ctx.compiled.target.title
    # cuda::std names whose std:: form the target's device code accepts (libcudacxx-std.txt)
    to_std = target_words(ctx, "libcudacxx-std.txt")
    portable = _portable(ctx)
    ported = block_barriers(ctx) if ctx.options.hazards else []
    ported += thread_pipeline.thread_pipelines(ctx)
    rule = f"{ctx.compiled.target.name}/atomic-ref"
    for start, end, parts in atomic_ref.plan(ctx):
        ctx.edits.append(Edit(start, end, parts, rule))
        ported.append((start, end))
    inside_ported = None
    for m in (_USE.match(ctx.src, at) for at in uses):
        if m is None:
            continue
        name = m.group(1)
        if name not in names or not ctx.in_code(m.start(), m.end()):
            continue
        if projects_in_shared(ctx, b"cuda", name):
            continue  # (the project's own namespace cuda::device, cuda-api-wrappers')
        if inside_ported is None:
            inside_ported = Inside(_merged(ported))
        if inside_ported(m.start()):
            continue  # (a block-wide barrier, now __syncthreads())
        if name in portable:
            ctx.edits.append(Edit(m.start(), m.end(), portable[name],
                                  f"{ctx.compiled.target.name}/libcudacxx"))
            continue
        if name == b"std" and (to_std or portable):
            std = _STD.match(ctx.src, m.start())
            if std is not None and ctx.in_code(m.start(), std.end()):
                to = portable.get(b"std::" + std.group(1))
                if to is not None:
                    ctx.edits.append(Edit(m.start(), std.end(), to,
                                          f"{ctx.compiled.target.name}/libcudacxx"))
                    continue
                if std.group(1) in to_std:
                    ctx.edits.append(Edit(m.start(), m.end(), b"std",
                                          f"{ctx.compiled.target.name}/libcudacxx"))
                    continue
        used, message = _finding(title, name)
        ctx.find("CP110", m.start(), message, used, "cccl")


def _portable(ctx: FileContext) -> dict[bytes, bytes]:
    """``libcudacxx-portable.tsv`` of the target: the name after ``cuda::`` (``minimum``,
    ``std::declval``) -> the portable header's name that replaces ``cuda::NAME``."""
    lines = target_data(ctx, "libcudacxx-portable.tsv")
    out = _PORTABLE.get(lines)
    if out is None:
        out = _PORTABLE[lines] = {}
        for line in lines:
            name, _, to = line.partition("\t")
            if to.strip():
                out[name.strip().encode()] = to.strip().encode()
    return out


_PORTABLE: dict[tuple[str, ...], dict[bytes, bytes]] = {}  # (parsed once per data file)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, disjoint spans covering ``spans``."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def uses_libcudacxx(ctx: FileContext) -> bool:
    """Whether the file names anything libcu++ declares (``cuda::NAME``, ported or not),
    besides block-wide barriers (which become __syncthreads()), thread pipelines made
    synchronous copies, atomic_refs made builtins
    and ``cuda::std`` names that become ``std::``."""
    names = target_words(ctx, "libcudacxx-names.txt")
    to_std = target_words(ctx, "libcudacxx-std.txt")
    portable = _portable(ctx)
    barriers = None
    for at in ctx.marked(b"cuda"):
        m = _USE.match(ctx.src, at)
        if m is not None and m.group(1) in portable:
            continue
        if m is not None and m.group(1) == b"std" and (to_std or portable):
            std = _STD.match(ctx.src, m.start())
            if std is not None and (std.group(1) in to_std
                                    or b"std::" + std.group(1) in portable):
                continue
        if m is not None and m.group(1) in names and ctx.in_code(m.start(), m.end()) \
                and not projects_in_shared(ctx, b"cuda", m.group(1)):
            if barriers is None:
                barriers = Inside(_merged([found[0].span() for found in provable(ctx)] + [
                    (start, end) for start, end, _ in atomic_ref.plan(ctx)] + [
                    (start, end) for start, end, _, _ in thread_pipeline.plan(ctx)]))
            if not barriers(m.start()):
                return True
    return False


def _finding(title: str, name: bytes) -> tuple[str, str]:
    """The name and message of CP110 for ``cuda::name``."""
    if name.startswith(b"thread_scope_"):
        hint = "pass a __HIP_MEMORY_SCOPE_* scope to the __hip_atomic_* builtins"
    elif name.startswith(b"memory_order_"):
        hint = "use the __ATOMIC_* orders of the __hip_atomic_* builtins"
    else:
        hint = _HINTS.get(name, "rewrite it with HIP or standard C++")
    used = f"cuda::{name.decode()}"
    return used, f"{used} (libcu++) has no {title} equivalent; {hint}"
