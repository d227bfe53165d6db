"""Namespaces and classes the project opens inside a namespace an API owns as well: the
project's own ``namespace cuda { namespace device { ... } }`` (eyalroz/cuda-api-wrappers)
makes ``cuda::device::id_t`` the project's, though libcu++ declares a ``cuda::device`` too.
Read from the file's brace blocks (one pass over them) and, for the other files of a run,
carried with the run's declarations (``project_names.declarations``)."""

from __future__ import annotations

from .skeleton import CLASS, ENUM, NAMESPACE, Skeleton

SHARED = (b"cuda",)  # API namespaces a project may extend with names of its own


def opened_in_shared(skeleton: Skeleton) -> set[tuple[bytes, bytes]]:
    """(``cuda``, NAME) for each namespace, class or enum the file opens directly inside
    one of :data:`SHARED` (``namespace cuda { namespace device {``, ``namespace
    cuda::device {``, ``namespace cuda { class stream_t {``)."""
    found: set[tuple[bytes, bytes]] = set()
    for i, block in enumerate(skeleton.blocks):
        if block.kind not in (NAMESPACE, CLASS, ENUM) or not block.name:
            continue
        if block.kind == NAMESPACE:
            qualified = skeleton.namespace_of(i)  # (itself included)
        else:
            outer = skeleton.namespace_of(block.parent)
            qualified = outer + b"::" + block.name if outer else block.name
        parts = [p.strip() for p in qualified.split(b"::")]
        if len(parts) >= 2 and parts[0] in SHARED:
            found.add((parts[0], parts[1]))
    return found


def projects_in_shared(ctx, root: bytes, name: bytes) -> bool:
    """Whether ``root::name`` (``cuda::device``) is a namespace, class or enum this file or
    another file of the run opens itself: the project's name, not the API's."""
    from .project import project_declarations

    if (root, name) in project_declarations(ctx.options):
        return True
    own = getattr(ctx, "_opened_in_shared", None)
    if own is None:
        own = ctx._opened_in_shared = opened_in_shared(ctx.skeleton) \
            if b"namespace" in ctx.src else set()
    return (root, name) in own
