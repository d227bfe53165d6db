"""Sub-commands beyond ``translate``: each module here defines ``command`` (a click
command or group) and is added to the CLI automatically, so a new command touches no
central list."""

from __future__ import annotations

import importlib
import pkgutil

import click


def add_all(group: click.Group) -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        command = getattr(module, "command", None)
        if isinstance(command, click.Command):
            group.add_command(command)
