"""Prove a ported project builds: translate a tree, run the project's own build (make, or
CMake's configure and build) against an installed ROCm, and report per project folder:
built, or the first error mapped back to the CUDA file and line, with the finding of the
translation that explains it when there is one.

The builds run inside the ROCm root tools/setup-rocm.sh installs (ROCm 7.2 from Debian
experimental, with make and CMake), through its ``cudaport-run`` wrapper: a chroot in a
private mount namespace where the host's folders keep their paths, so the build's messages
name the translated files as they are on this machine. There, ``/opt/rocm`` is the root's
ROCm (a link to ``/usr``), as ported Makefiles' ``ROCM_PATH ?= /opt/rocm`` expects.
"""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..findings import SEVERITY_RANK, Finding
from ..run.kinds import FileOutcome, kind_of, translate_file
from ..options import Options
from ..source.lazy_re import lazy

ROCM72_DIR = "/var/cache/cudaport/rocm-7.2"
RUN_WRAPPER = "cudaport-run"
BUILD_TIMEOUT = 1800
MAKEFILES = ("GNUmakefile", "makefile", "Makefile")  # the names make itself looks for
# compiler diagnostics; linker and make errors
_DIAG = lazy(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?:(?P<col>\d+):)? "
             r"(?P<sev>fatal error|error): (?P<msg>.*)$")
_LINK = lazy(r"(?:ld(?:\.lld)?|collect2|clang\S*|hipcc|/usr/bin/ld)(?::| error:).*"
             r"|.*undefined reference to .*|.*cannot find -l\S+.*"
             r"|.*unable to find library -l\S+.*|.*undefined symbol: .*")
_MAKE = lazy(r"^(?:g?make(?:\[\d+\])?: \*\*\*|CMake Error).*")
_LIBRARY = lazy(r"(?:cannot find|unable to find library) (-l\S+)")
_SYMBOL = lazy(r"(?:undefined reference to|undefined symbol:) [`']?([^'`\s]+)")


class BuildError(Exception):
    """No ROCm root to build with, or an input that is not a folder: exit code 2."""


@dataclass
class Built:
    """One project folder's build."""

    folder: str  # as shown: relative to the tree given
    system: str  # make | cmake
    ok: bool
    seconds: float = 0.0
    command: str = ""
    error: Finding | None = None  # the first error, on the CUDA file's line when mapped
    explained_by: list[Finding] = field(default_factory=list)
    output: str = ""  # the build's output (its tail)


def rocm72_dir(explicit: str | os.PathLike | None = None) -> Path:
    """The ROCm 7.2 root: ``explicit``, else $CUDAPORT_ROCM72_DIR, else ROCM72_DIR."""
    return Path(explicit or os.environ.get("CUDAPORT_ROCM72_DIR") or ROCM72_DIR)


def runner(root: Path) -> Path:
    wrapper = root / RUN_WRAPPER
    if not os.access(wrapper, os.X_OK):
        raise BuildError(f"no {wrapper}: run `bash tools/setup-rocm.sh 7.2` (layout 4 or "
                         "later writes it)")
    return wrapper


def projects(tree: Path) -> list[tuple[Path, str]]:
    """The project folders below ``tree`` (itself included): the topmost folders with a
    Makefile make would read, or else a CMakeLists.txt; (folder, "make" | "cmake")."""
    found: list[tuple[Path, str]] = []
    for folder, dirs, files in os.walk(tree):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        system = ("cmake" if "CMakeLists.txt" in files else
                  "make" if any(m in files for m in MAKEFILES) else None)
        if system == "cmake" and any(m in files for m in MAKEFILES):
            system = "make"  # a project with both: its Makefile is the way it documents
        if system:
            found.append((Path(folder), system))
            dirs[:] = []  # a sub-folder's build belongs to this one's
    return found


def translate_tree(src: Path, out: Path, options: Options) -> list[FileOutcome]:
    """``cudaport translate SRC --out-dir OUT``: every file, translated or copied."""
    from ..run.driver import Request, plan, run

    jobs = plan([src], out, copy_all=True, framework=options.framework).jobs
    return run(jobs, Request(options, copy_all=True), cache_scope=None)


def _shim_outcomes(src: Path, options: Options) -> list[FileOutcome]:
    """The shim's findings on ``src`` (what needs a source edit), as outcomes per file, to
    explain a shim build's errors."""
    from ..shim import generate

    by_file: dict[str, FileOutcome] = {}
    for f in generate([str(src)], options).findings:
        by_file.setdefault(f.path, FileOutcome(f.path, "source")).findings.append(f)
    return list(by_file.values())


def _restore_sources(src: Path, out: Path, options: Options) -> None:
    """Put the untranslated bytes of every source back in ``out`` (a shim build ports
    the build files only)."""
    from ..run.driver import plan

    for job in plan([src], out, copy_all=True, framework=options.framework).jobs:
        if job.kind == "source" and job.target is not None:
            job.target.write_bytes(job.source.read_bytes())


def build(folder: Path, system: str, root: Path, jobs: int = 2, timeout: int = BUILD_TIMEOUT,
          arch: str | None = None, variables: tuple[str, ...] = (),
          env: dict[str, str] | None = None) -> tuple[int, str, str, float]:
    """Run the project's own build in ``folder`` with the root's make or CMake; (exit status,
    output, command, seconds). ``variables``: ``NAME=VALUE`` for make's command line;
    ``env``: variables added to the build's environment."""
    wrapper = str(runner(root))
    if not folder.is_dir():
        return 2, f"{folder}: no such folder", "", 0.0
    if system == "make":
        steps = [[wrapper, "make", "-C", str(folder), f"-j{jobs}", *variables]
                 + ([f"HIP_ARCH={arch}"] if arch else [])]
    else:
        build_dir = folder / "build-hip"
        steps = [[wrapper, "cmake", "-S", str(folder), "-B", str(build_dir),
                  "-DCMAKE_BUILD_TYPE=Release"]
                 + ([f"-DCMAKE_HIP_ARCHITECTURES={arch}"] if arch else []),
                 [wrapper, "cmake", "--build", str(build_dir), f"-j{jobs}"]]
    start = time.perf_counter()
    output, rc = "", 0
    for step in steps:
        try:
            proc = subprocess.run(step, capture_output=True, text=True, errors="replace",
                                  timeout=timeout, stdin=subprocess.DEVNULL, cwd=folder,
                                  env={**os.environ, **env} if env else None)
            output += proc.stdout + proc.stderr
            rc = proc.returncode
        except subprocess.TimeoutExpired as exc:
            output += f"{exc.stdout or ''}{exc.stderr or ''}\ntimed out after {timeout} s\n"
            rc = 124
        if rc != 0:
            break
    command = " && ".join(" ".join(s[1:]) for s in steps)
    return rc, output, command, time.perf_counter() - start


def first_error(output: str) -> tuple[str, str | None, int, int]:
    """The first error line of a build's output: (line, path or None, line, column)."""
    fallback = None
    lines = output.splitlines()
    for at, raw in enumerate(lines):
        m = _DIAG.match(raw)
        if m:
            return raw, m.group("path"), int(m.group("line")), int(m.group("col") or 1)
        if _LINK.fullmatch(raw.strip()) and ("error" in raw or "undefined" in raw
                                             or "cannot find" in raw):
            return raw.strip(), None, 0, 0
        if fallback is None and _MAKE.match(raw):
            fallback = raw.strip()
            if raw.startswith("CMake Error"):  # the message is on the lines below
                fallback += " " + " ".join(x.strip() for x in lines[at + 1:at + 4] if x.strip())
    if fallback:
        return fallback, None, 0, 0
    lines = [x for x in lines if x.strip()]
    return (lines[-1].strip() if lines else "no output"), None, 0, 0


class Mapper:
    """Maps a location in the translated tree to the CUDA file it came from, and finds the
    translation's finding that explains an error there."""

    def __init__(self, src: Path, out: Path, options: Options,
                 outcomes: list[FileOutcome] | None = None, sources_kept: bool = False) -> None:
        self.src, self.out, self.options = src.resolve(), out.resolve(), options
        self.sources_kept = sources_kept  # a shim build: sources are the originals
        self.findings: dict[str, list[Finding]] = {}  # by the source's resolved path
        for outcome in outcomes or ():
            key = str(Path(outcome.shown).resolve())
            self.findings.setdefault(key, []).extend(outcome.findings)

    def original(self, path: str, folder: Path) -> Path | None:
        """The source file a path in a build message (absolute, or relative to the project
        folder or a folder below it) was translated from."""
        candidate = Path(path)
        if not candidate.is_absolute():
            candidate = folder / candidate
        try:
            rel = candidate.resolve().relative_to(self.out)
        except (ValueError, OSError):
            return None
        original = self.src / rel
        return original if original.is_file() else None

    def locate(self, original: Path, line: int, col: int) -> tuple[int, int]:
        from ..source.linemap import PositionMap

        data = original.read_bytes()
        kind = kind_of(original.name, self.options.framework)
        if kind not in ("source", "make", "cmake") or kind == "source" and self.sources_kept:
            return line, col
        translated, outcome = translate_file(data, kind, self.options, str(original),
                                             named=True, keep_references=True)
        if translated is None or not outcome.edits:
            return line, col
        return PositionMap(data, outcome.edits, translated).to_input(line, col)

    def explain(self, error: Finding, message: str, original: Path | None) -> list[Finding]:
        """Findings of the translation that explain ``error``: on its line, else the errors
        of its file; for a link error, those naming the missing library or symbol."""
        library = _LIBRARY.search(message)
        symbol = _SYMBOL.search(message)
        wanted = (library.group(1) if library else None) or (
            symbol.group(1).strip("'`") if symbol else None)
        everything = [f for fs in self.findings.values() for f in fs]
        if wanted:
            named = [f for f in everything if f.identifier and (
                f.identifier == wanted or wanted.startswith(f.identifier)
                or f.identifier.startswith(wanted))]
            if named:
                return named[:3]
        mine = self.findings.get(str(original.resolve()), []) if original else []
        same = [f for f in mine if f.line == error.line]
        if same:
            return same
        worst = [f for f in mine if SEVERITY_RANK[f.severity] >= SEVERITY_RANK["warning"]]
        return worst[:3]


def _display(path: Path) -> str:
    """Relative to the current folder when inside it, else absolute."""
    absolute = os.path.abspath(path)
    cwd = os.getcwd().rstrip(os.sep) + os.sep
    return os.path.relpath(absolute) if absolute.startswith(cwd) else absolute


def report(folder: Path, system: str, rc: int, output: str, command: str, seconds: float,
           mapper: Mapper, shown: str) -> Built:
    """The result of one build, its first error mapped to the CUDA file and line."""
    built = Built(shown, system, rc == 0, seconds, command, output=output[-8000:])
    if rc == 0:
        return built
    text, path, line, col = first_error(output)
    where, at_line, at_col = f"{shown}/{'Makefile' if system == 'make' else 'CMakeLists.txt'}", 0, 0
    original = mapper.original(path, folder) if path else None
    if original is not None:
        at_line, at_col = mapper.locate(original, line, col)
        where = _display(original)
        m = _DIAG.match(text)
        text = m.group("msg") if m else text
    elif path:
        where, at_line, at_col = path, line, col
    built.error = Finding("CP506", f"the build failed: {text}", where, at_line, at_col,
                          engine="build")
    built.explained_by = mapper.explain(built.error, text, original)
    return built


def build_tree(src: Path, out: Path, options: Options, root: Path, jobs: int = 2,
               arch: str | None = None, timeout: int = BUILD_TIMEOUT,
               translate: bool = True, shim: Path | None = None
               ) -> tuple[list[Built], list[FileOutcome]]:
    """Translate ``src`` into ``out`` (unless ``translate`` is false: ``out`` is already
    the translation) and build every project folder in it. ``shim``: a folder of
    `cudaport shim` headers; the sources keep their CUDA text (only build files are
    ported) and every HIP compile reads the shim (hipcc's HIPCC_COMPILE_FLAGS_APPEND,
    CMake's HIPFLAGS)."""
    runner(root)
    if not src.is_dir():
        raise BuildError(f"{src}: --build needs a folder (the project to build)")
    outcomes = translate_tree(src, out, options) if translate else []
    env = None
    if shim is not None:
        from ..run.verify import shim_flags

        if translate:
            _restore_sources(src, out, options)
        outcomes = [o for o in outcomes if o.kind != "source"] + _shim_outcomes(src, options)
        flags = " ".join(shim_flags(shim))
        env = {"HIPCC_COMPILE_FLAGS_APPEND": flags, "HIPFLAGS": flags}
    mapper = Mapper(src, out, options, outcomes, sources_kept=shim is not None)
    results = []
    for folder, system in projects(out):
        rel = folder.relative_to(out).as_posix()
        shown = str(src / rel) if rel != "." else str(src)
        rc, output, command, seconds = build(folder, system, root, jobs, timeout, arch,
                                             env=env)
        results.append(report(folder, system, rc, output, command, seconds, mapper, shown))
    return results, outcomes
