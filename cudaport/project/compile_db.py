"""Preprocessor flags from ``compile_commands.json``.

Only what changes how a file preprocesses and parses is kept (include paths, macros,
forced includes, the language standard); code-generation flags of nvcc or the host
compiler mean nothing to the HIP compiler and are dropped. Relative paths are resolved
against the entry's ``directory``.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path


class CompileDbError(Exception):
    """compile_commands.json is missing or malformed; the message names the file."""


# flag → (kind, takes a path)
_WITH_VALUE = {
    "-I": ("-I", True), "--include-path": ("-I", True),
    "-isystem": ("-isystem", True), "--system-include": ("-isystem", True),
    "-iquote": ("-iquote", True),
    "-D": ("-D", False), "--define-macro": ("-D", False),
    "-U": ("-U", False), "--undefine-macro": ("-U", False),
    "-include": ("-include", True), "--pre-include": ("-include", True),
    "-std": ("-std=", False), "--std": ("-std=", False),
}


def locate(path: Path) -> Path:
    """``path`` itself, or ``compile_commands.json`` inside it when it is a folder."""
    candidate = path / "compile_commands.json" if path.is_dir() else path
    if not candidate.is_file():
        raise CompileDbError(f"{candidate}: no such file")
    return candidate


def load(path: Path) -> dict[str, list[str]]:
    """Map each source file (resolved path) to the flags the HIP compiler should get."""
    db_path = locate(path)
    try:
        entries = json.loads(db_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise CompileDbError(f"{db_path}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise CompileDbError(f"{db_path}:{exc.lineno}: not valid JSON: {exc.msg}") from None
    if not isinstance(entries, list):
        raise CompileDbError(f"{db_path}: expected a JSON array of compile commands")
    result: dict[str, list[str]] = {}
    for n, entry in enumerate(entries):
        if not isinstance(entry, dict) or "file" not in entry or "directory" not in entry:
            raise CompileDbError(f"{db_path}: entry {n} lacks 'file' or 'directory'")
        directory = Path(entry["directory"])
        if "arguments" in entry:
            argv = [str(a) for a in entry["arguments"]]
        else:
            try:
                argv = shlex.split(str(entry.get("command", "")))
            except ValueError as exc:
                raise CompileDbError(f"{db_path}: entry {n}: bad command: {exc}") from None
        source = Path(entry["file"])
        if not source.is_absolute():
            source = directory / source
        result[os.path.normpath(source)] = preprocessor_flags(argv[1:], directory)
    return result


def _expand_response_files(argv: list[str], directory: Path, depth: int = 0) -> list[str]:
    """Inline ``--options-file FILE`` (nvcc; CMake puts include flags there) and ``@FILE``."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        name = None
        if arg in ("--options-file", "-optf") and i < len(argv):
            name = argv[i]
            i += 1
        elif arg.startswith("--options-file="):
            name = arg.split("=", 1)[1]
        elif arg.startswith("@") and len(arg) > 1:
            name = arg[1:]
        if name is None or depth > 4:
            out.append(arg)
            continue
        try:
            text = (directory / name).read_text(encoding="utf-8", errors="replace")
            out += _expand_response_files(shlex.split(text), directory, depth + 1)
        except (OSError, ValueError):
            pass  # an unreadable response file only loses its flags
    return out


def preprocessor_flags(argv: list[str], directory: Path) -> list[str]:
    """The include, macro and standard flags of one command line, paths made absolute."""
    argv = _expand_response_files(argv, directory)
    flags: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        name, value = arg, None
        if "=" in arg and arg.startswith("--"):
            name, value = arg.split("=", 1)
        elif arg.startswith("-std="):
            name, value = "-std", arg[5:]
        else:
            for short in ("-isystem", "-iquote", "-include", "-I", "-D", "-U"):
                if arg.startswith(short) and arg != short:
                    # nvcc also spells these `-isystem=/path`
                    name, value = short, arg[len(short):].removeprefix("=")
                    break
        spec = _WITH_VALUE.get(name)
        if spec is None:
            continue
        if value is None:
            if i >= len(argv):
                break
            value = argv[i]
            i += 1
        kind, is_path = spec
        if is_path and not os.path.isabs(value):
            value = os.path.normpath(directory / value)
        if kind == "-std=":
            flags.append("-std=" + value)
        elif kind in ("-I", "-D", "-U"):
            flags.append(kind + value)
        else:
            flags.extend([kind, value])
    return flags
