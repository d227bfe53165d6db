"""What the files of one run declare that the others see: the names the project declares in
its namespaces, collected by the run's pre-pass (``project_names.project_options``) and
carried to every file's model in the options."""

from __future__ import annotations

OPTION = "project_declarations"


def project_declarations(options) -> frozenset[tuple[bytes, bytes]]:
    """The (namespace, name) pairs the run's pre-pass found."""
    return frozenset((ns.encode(), n.encode())
                     for ns, n in dict(options.extra).get(OPTION, ()))
