"""The ``cudaport`` program: the click commands of :mod:`cudaport.cli.main`, with the errors
of the standard streams turned into one-line errors and exit code 2.

A full disk behind stdout (``> /dev/full``), a reader that went away (``| head``), or a
stdout closed before the start (``>&-``) would otherwise end in a traceback, or in an
exit code 1 that reads as "findings". An ``OSError`` no command handled becomes a
one-line error too, naming its file.
"""

from __future__ import annotations

import errno
import os
import sys

import click
from click.utils import PacifyFlushWrapper

_REASONS = {errno.EPIPE: "it was closed before all output was written",
            errno.ENOSPC: "no space left on the device",
            errno.EBADF: "it is closed"}


def main(args: list[str] | None = None) -> None:
    from .main import main as commands

    _replace_closed_streams()
    try:
        try:
            code = commands.main(args=args, prog_name="cudaport", standalone_mode=False)
        except click.ClickException as exc:
            exc.show()
            code = exc.exit_code
        except click.Abort:
            click.echo("Aborted!", err=True)
            code = 1
        except SystemExit as exc:
            code = exc.code
            if isinstance(sys.stdout, PacifyFlushWrapper):  # click's exit 1 on a broken pipe
                raise BrokenPipeError(errno.EPIPE, "broken pipe") from None
        sys.stdout.flush()  # a full or closed stdout fails here, not at interpreter exit
    except OSError as exc:
        code = _report(exc)
    sys.exit(code if isinstance(code, int) else 0)


def _report(exc: OSError) -> int:
    if exc.filename is None:
        reason = _REASONS.get(exc.errno, exc.strerror or str(exc))
        where = "stdout"
        _silence_stdout()
    else:
        reason = exc.strerror or str(exc)
        where = os.fsdecode(exc.filename)
    try:
        click.echo(f"cudaport: error: {where}: cannot write: {reason}"
                   if where == "stdout" else f"cudaport: error: {where}: {reason}", err=True)
    except OSError:
        pass  # stderr is gone too: the exit code is all that is left
    return 2


def _silence_stdout() -> None:
    """After a failed write the buffered rest would fail again at exit: drop it."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        pass
    sys.stdout = open(os.devnull, "w")


def _replace_closed_streams() -> None:
    """A stream closed at start is None in Python: stdout becomes a pipe nobody reads,
    so the first write fails as for ``| head``; stderr becomes /dev/null."""
    if sys.stdout is None:
        read, write = os.pipe()
        os.close(read)
        sys.stdout = os.fdopen(write, "w")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")
