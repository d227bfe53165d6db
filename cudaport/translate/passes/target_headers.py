"""Target headers the target does not install (CP178).

The project's own ROCm code (a file written for HIP, or the branch a HIP build takes:
``#elif defined __HIP__``) may include a ROCm header that the target's packages lack:
ROCProfiler's ``rocprofiler.h`` in ROCm 7.2 from Debian's packages. The translation
leaves such an include as it is, so nothing else reports it, and the unit then stops at
"file not found". The headers, with the component, why it is missing and what to use
instead, are ``absent_headers`` in target.yaml.

This runs after the already-portable regions are set aside (``portability_layers``): a
HIP branch's includes are looked at here as the target's compiler reads them. An include
in a branch only a project switch selects is softened to a warning by ``latent``, one
in the branch of another platform dropped by ``platform_branches``.
"""

from __future__ import annotations

import os

from ..context import FileContext

CODE = "CP178"


def absent_headers(ctx: FileContext) -> None:
    table = ctx.compiled.target.extra.get("absent_headers")
    if not table:
        return
    includes = list(ctx.scan.includes) + list(ctx.portable_includes)
    if not includes:
        return
    title = ctx.compiled.target.title
    version = ctx.options.target_version or ctx.compiled.target.version or ""
    for inc in sorted(includes, key=lambda i: i.start):
        try:
            name = inc.name.decode("utf-8")
        except UnicodeDecodeError:
            continue
        facts = table.get(name)
        if facts is None or _beside(ctx, inc, name):
            continue
        instead = f"; use {facts['instead']}" if facts.get("instead") else ""
        ctx.find(CODE, inc.name_start, f"{name} ({facts['component']}) is not installed by "
                 f"the {title} {version} target's packages ({facts['why']}): the include "
                 f"fails there{instead}", name, "", "error")


def _beside(ctx: FileContext, inc, name: str) -> bool:
    """A quoted include that names a file next to the including one: the project's own."""
    if ctx.path.startswith("<") or ctx.src[inc.name_start - 1:inc.name_start] != b'"':
        return False
    try:
        return os.path.isfile(os.path.join(os.path.dirname(ctx.path), name))
    except (OSError, ValueError):
        return False
