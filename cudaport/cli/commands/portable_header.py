"""``cudaport portable-header``: write the target's portable header on its own."""

from __future__ import annotations

import sys

import click

from ..main import UsageError
from ...translate.portable import HEADER_NAME, load
from ...rules.loader import default_rules_root, resolve_target_dir
from ...rules.schema import RuleError


@click.command("portable-header")
@click.option("--target", "-t", default="hip", show_default=True,
              help="Target whose header to write.")
def command(target: str) -> None:
    """Write cudaport's portable header for a target to standard output: the device
    functions CUDA has and the target lacks, each written from CUDA's documented
    definition, that translations call (`cudaport_vadd4` for `__vadd4`) and copy the
    needed parts of. `cudaport portable-header --target hip > cudaport_portable.h`."""
    try:
        folder = resolve_target_dir(target, [default_rules_root()])
    except RuleError as exc:
        raise UsageError(str(exc)) from None
    header = load(folder / "ports" / HEADER_NAME)
    if header is None:
        raise UsageError(f"target {target!r} has no portable header (ports/{HEADER_NAME})")
    sys.stdout.buffer.write(header.text)
