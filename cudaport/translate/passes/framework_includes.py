"""Include paths of a framework's own CUDA headers (``--framework pytorch``).

Exact header renames are rule-table entries and handled by the includes pass. This pass
covers the rest of the framework's header folders (``include-paths.yaml``): for ROCm
PyTorch it renames ``cuda``/``CUDA`` in the path (``ATen/native/cuda/Loops.cuh`` ->
``ATen/native/hip/Loops.cuh``); where the target's layout is not known by pattern
(torch_musa) it reports the header instead of guessing (CP600).
"""

from __future__ import annotations

from pathlib import Path

from ..context import FileContext
from ...source.edits import Edit
from ...rules.frameworks import include_paths
from .registry import register


@register(21, "framework-includes")
def framework_includes(ctx: FileContext) -> None:
    framework = ctx.options.framework
    if not framework:
        return
    paths = include_paths(str(Path(ctx.compiled.table.files[0]).parent), framework)
    if paths is None:
        return
    target = ctx.compiled.target
    for inc in ctx.scan.includes:
        if inc.name in ctx.compiled.headers:
            continue
        name = inc.name.decode("utf-8", "surrogateescape")
        if not name.startswith(paths.folders):
            continue
        if paths.rewrite:
            new = name
            for old, repl in paths.replace:
                new = new.replace(old, repl)
            if new != name:
                ctx.edits.append(Edit(inc.name_start, inc.name_end,
                                      new.encode("utf-8", "surrogateescape"),
                                      f"{target.name}/{framework}/include-paths"))
            continue
        ctx.find("CP600", inc.name_start,
                 f"{name}: {framework} header with no known {target.title} equivalent; "
                 "include the matching header of the target's framework port", name, framework)
