"""The one list of file kinds and one function per kind that turns a file's bytes into
its output and a :class:`FileOutcome`: CUDA/C++ sources, CMake files, Makefiles, and the Python side
of a PyTorch project (``.py`` files, ``setup.py``, ``pyproject.toml``). Every command
(translate, check, report, verify, the hooks) gets a file's findings from here."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field

from ..findings import Finding, Reference
from ..options import Options
from ..report.verdict import unported_keys, unreferenced_blockers

SOURCE_SUFFIXES = frozenset({
    ".cu", ".cuh", ".hip", ".h", ".hh", ".hpp", ".hxx", ".h++", ".c", ".cc", ".cpp", ".cxx",
    ".c++", ".inl", ".inc", ".ipp", ".tcc", ".tpp", ".cuinl",
})
ALWAYS_WRITTEN = frozenset({".cu", ".cuh", ".hip"})  # GPU sources by name: always mirrored
KINDS = ("source", "cmake", "make", "python", "copy")
MAKE_NAMES = frozenset({"Makefile", "makefile", "GNUmakefile", "make.config", "make.inc"})
NOT_MAKEFILES = (".in", ".am", ".ac")  # autotools inputs


def is_cmake(name: str) -> bool:
    return name == "CMakeLists.txt" or name.endswith(".cmake")


def is_makefile(name: str) -> bool:
    """``Makefile``, ``makefile``, ``GNUmakefile``, ``Makefile.*``/``Makefile_*`` (not
    autotools' ``Makefile.in``/``.am``), ``*.mk``, ``*.make``, ``make.config``, ``make.inc``."""
    if name in MAKE_NAMES or name.endswith((".mk", ".make")):
        return True
    return name.startswith(("Makefile.", "Makefile_", "makefile.")) and not name.endswith(
        NOT_MAKEFILES)


def is_python_side(name: str) -> bool:
    """Python files and ``pyproject.toml``: translated with ``--framework`` (see
    :mod:`cudaport.builds.python_side`), else copied like any other file."""
    return name.endswith(".py") or name == "pyproject.toml"


def kind_of(name: str, framework: str | None = None) -> str:
    """The kind of a file by its name (the last path component): ``python`` only under a
    framework (otherwise such a file is copied like any other)."""
    if is_cmake(name):
        return "cmake"
    if is_makefile(name):
        return "make"
    if is_python_side(name):
        return "python" if framework else "copy"
    return "source" if os.path.splitext(name)[1].lower() in SOURCE_SUFFIXES else "copy"


@dataclass
class FileOutcome:
    """What happened to one file; the same value for every command."""

    shown: str
    kind: str
    status: str = "unchanged"  # written, unchanged, stale, skipped, failed, cached
    changed: bool = False  # translation differs from the input
    wanted: bool = False  # the file belongs in the output (uses CUDA, or --copy-all)
    findings: list[Finding] = field(default_factory=list)
    tally: Counter = field(default_factory=Counter)  # (library, status) -> count
    references: list[Reference] | None = None
    edits: list = field(default_factory=list)  # kept only with the references (reports)
    diff: bytes = b""
    message: str = ""
    digest: bytes = b""  # of the input, for the cache
    own_names: frozenset[bytes] = frozenset()  # see cudaport.symbols.own_names
    includes: tuple[str, ...] = ()  # every #include'd name, for verdicts across files
    include_lines: tuple[int, ...] = ()  # the line of each, for the chain of a verdict
    blockers: int = 0  # error findings no unported reference stands for (cudaport.report.verdict)
    # (line, name) of each unported reference, kept when the file has an error finding:
    # the policy may drop findings, and blockers are counted again from what it keeps
    unported: tuple[tuple[int, str], ...] = ()
    checked: object = None  # the policy's record (cudaport.report.model.FileReport)


def binary_finding(message: str, shown: str) -> Finding:
    """The finding for a file met while walking that is not text; ``message`` is the
    :class:`~cudaport.translate.pipeline.InputError` for ``shown`` (``shown[:line]: why``)."""
    rest = message[len(shown) + 1:] if message.startswith(shown + ":") else message
    line, sep, why = rest.partition(": ")
    if not (sep and line.isdigit()):
        line, why = "1", rest.strip()
    return Finding("CP930", f"not C/C++ text, skipped: {why}", shown, int(line), 1)


def translate_file(data: bytes, kind: str, options: Options, shown: str, *,
                   named: bool = False, copy_all: bool = False, rel: str = "",
                   rename: tuple[tuple[str, str], ...] = (), renamed: frozenset[str] = frozenset(),
                   keep_references: bool = False) -> tuple[bytes | None, FileOutcome]:
    """The output (None for a file that is skipped or fails) and the outcome of one file.

    ``named``: the user gave this file by name (an input error is then a failure, and
    the file is always part of the output). ``rename``/``renamed``: the suffix map and
    the files it renames, for local ``#include`` paths."""
    outcome = FileOutcome(shown, kind)
    if kind == "copy":
        outcome.wanted = copy_all or named
        return data, outcome
    if kind == "cmake":
        return _cmake(data, options, shown, outcome, named, copy_all, bool(rename), rel,
                      renamed)
    if kind == "make":
        return _make(data, options, shown, outcome, named, copy_all, bool(rename))
    if kind == "python":
        return _python(data, options, shown, outcome, named, copy_all)
    return _source(data, options, shown, outcome, named, copy_all, rel, rename, renamed,
                   keep_references)


def _source(data: bytes, options: Options, shown: str, outcome: FileOutcome, named: bool,
            copy_all: bool, rel: str, rename: tuple, renamed: frozenset[str],
            keep_references: bool) -> tuple[bytes | None, FileOutcome]:
    from ..translate.pipeline import InputError, translate_bytes

    try:
        result = translate_bytes(data, options, shown)
    except InputError as exc:
        return _not_text(data, str(exc), shown, outcome, named, copy_all)
    output = result.output
    if renamed:
        from ..translate.renames import rewrite_includes

        output = rewrite_includes(output, rel, renamed, dict(rename))
    outcome.findings.extend(result.findings)
    outcome.own_names = result.own_names
    # (with the includes of the branches the target's compiler selects: a build for the
    # target includes those, `#elif defined __HIP__` / `#include "rocm_metrics.hpp"`)
    included = sorted(list(result.scan.includes) + list(result.portable_includes),
                      key=lambda inc: inc.start) if result.portable_includes \
        else result.scan.includes
    outcome.includes = tuple(inc.name.decode("utf-8", "surrogateescape") for inc in included)
    if outcome.includes:
        from ..translate.context import LineIndex

        at = LineIndex(data)
        outcome.include_lines = tuple(at.linecol(inc.start)[0] for inc in included)
    if any(f.severity == "error" for f in result.findings):
        outcome.unported = unported_keys(result.references)
        outcome.blockers = unreferenced_blockers(result.findings, unported=outcome.unported)
    _tally(result, outcome.tally)
    if keep_references:
        outcome.references, outcome.edits = result.references, result.edits
    outcome.changed = output != data
    outcome.wanted = (outcome.changed or bool(outcome.tally) or copy_all or named
                      or os.path.splitext(shown)[1] in ALWAYS_WRITTEN)
    return output, outcome


def _not_text(data: bytes, message: str, shown: str, outcome: FileOutcome, named: bool,
              copy_all: bool) -> tuple[bytes | None, FileOutcome]:
    if named:  # asked for by name: an input error
        outcome.status = "failed"
        outcome.message = message
        return None, outcome
    outcome.findings.append(binary_finding(message, shown))
    outcome.status = "skipped"
    outcome.wanted = copy_all
    return (data if copy_all else None), outcome


def _cmake(data: bytes, options: Options, shown: str, outcome: FileOutcome, named: bool,
           copy_all: bool, renaming: bool, rel: str,
           renamed: frozenset[str]) -> tuple[bytes | None, FileOutcome]:
    from ..builds.cmake import translate_cmake

    return _build_file(lambda: translate_cmake(data, options, shown, renaming, rel, renamed),
                       data, shown, outcome, named, copy_all)


def _make(data: bytes, options: Options, shown: str, outcome: FileOutcome, named: bool,
          copy_all: bool, renaming: bool) -> tuple[bytes | None, FileOutcome]:
    """A Makefile: nvcc command lines for the target's compiler (cudaport.builds.makefile); a
    generated one passes through with a note."""
    from ..builds.makefile import translate_makefile

    return _build_file(lambda: translate_makefile(data, options, shown, renaming),
                       data, shown, outcome, named, copy_all)


def _build_file(translate, data: bytes, shown: str, outcome: FileOutcome, named: bool,
                copy_all: bool) -> tuple[bytes | None, FileOutcome]:
    """A build file (CMake, Makefile): ``translate()`` gives its result (output, findings,
    uses_cuda); a file that is not text is skipped like a source."""
    from ..translate.pipeline import InputError

    try:
        result = translate()
    except InputError as exc:
        return _not_text(data, str(exc), shown, outcome, named, copy_all)
    except Exception as exc:  # noqa: BLE001 - a bug on one file must not stop the run
        outcome.findings.append(Finding("CP908", f"cudaport could not translate this file "
                                        f"({type(exc).__name__}: {str(exc)[:200]}); left as it is",
                                        shown, 1, 1))
        outcome.wanted = True
        return data, outcome
    outcome.findings.extend(result.findings)
    outcome.changed = result.output != data
    outcome.wanted = outcome.changed or copy_all or result.uses_cuda or named
    return result.output, outcome


def _python(data: bytes, options: Options, shown: str, outcome: FileOutcome, named: bool,
            copy_all: bool) -> tuple[bytes | None, FileOutcome]:
    """A ``.py`` file, ``setup.py`` or ``pyproject.toml`` under ``--framework``; a file that
    does not parse is copied as it is, with the reason."""
    from ..builds.python_side import translate_python_file
    from ..translate.pipeline import InputError

    try:
        result = translate_python_file(data, options, shown)
    except InputError as exc:
        outcome.message = str(exc)
        outcome.wanted = copy_all or named
        return data, outcome
    outcome.findings.extend(result.findings)
    outcome.changed = result.output != data
    outcome.wanted = outcome.changed or copy_all or named
    return result.output, outcome


def _tally(result, tally: Counter) -> None:
    """Count (library, status) of the file's code and include references, from the raw
    scan hits: building every Reference object only to count them cost more than the
    rest of a warm run."""
    lookup = result.lookup or {}
    for _, name, context, resolved in result.extra_references:
        if context in ("code", "include"):
            tally[(resolved.entry.library, resolved.status) if resolved is not None
                  else ("", "unknown")] += 1
    if result.scan is None:
        return
    for _, name, context in result.scan.idents:
        if context in ("code", "include"):
            resolved = lookup.get(name)
            tally[(resolved.entry.library, resolved.status) if resolved is not None
                  else ("", "unknown")] += 1
    for _, _, context in result.scan.unknown:
        if context in ("code", "include"):
            tally[("", "unknown")] += 1
