"""Sub-commands beyond ``translate``: each module here defines ``command`` (a click
command or group) named as the module, and is added to the CLI automatically, so a new
command touches no central list.

The modules load on first use: ``cudaport check one.cu`` imports ``check`` only, not
``verify`` or ``report`` and what they need (the pre-commit case runs once per commit).
"""

from __future__ import annotations

import importlib
import pkgutil

import click


def module_names() -> list[str]:
    return sorted(info.name for info in pkgutil.iter_modules(__path__))


def load(name: str) -> click.Command | None:
    command = getattr(importlib.import_module(f"{__name__}.{name}"), "command", None)
    return command if isinstance(command, click.Command) else None


class LazyGroup(click.Group):
    """A group whose commands beyond its own are this package's modules, imported when
    named (or all of them, for ``--help``)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx))
                      | {name.replace("_", "-") for name in module_names()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        module = cmd_name.replace("-", "_")  # (`portable-header` is portable_header.py)
        if command is None and module in module_names():
            command = load(module)
            if command is not None:
                self.add_command(command)
        return command
