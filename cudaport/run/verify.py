"""Prove a translation compiles: run a real HIP compiler on translated files and report its
diagnostics on the CUDA lines the user wrote.

The CUDA inputs (and the project headers they include) are translated into a private
workspace that mirrors their absolute paths, so ``#include "local.cuh"`` finds the
translated header. Each translation unit is compiled in its own process (in parallel);
every ``workspace/file:line:col`` in the compiler's output is mapped back through the
translation's edits to ``original/file:line:col``.

"Compiles" means object code: each unit is compiled with ``-c`` (device code generated, so
inline assembly is assembled) unless ``syntax_only`` asks for the quick ``-fsyntax-only``
check, which never looks inside ``asm("...")`` strings. Inline PTX (which no AMD GPU
assembles) is also found lexically and reported on its CUDA line.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable

from ..preprocessor import platform_branches
from ..translate.context import LineIndex
from ..project.files import read_input
from ..findings import Finding
from ..source.linemap import PositionMap
from ..options import Options
from ..translate.ptx import PTX_MESSAGE, inline_ptx
from ..rules.compiled import get_compiled
from ..source.scan import scan
from .kinds import FileOutcome, translate_file
from ..source.lazy_re import lazy

# The ROCm toolchains tools/setup-rocm.sh installs (Debian roots holding ROCm 7.2 from
# experimental and 6.4 from unstable), newest first, each with the environment variable
# that moves it, and the wrapper written in each, which runs that root's hipcc on files of
# this machine.
ROCM_ROOTS = (("7.2", "CUDAPORT_ROCM72_DIR", "/var/cache/cudaport/rocm-7.2"),
              ("6.4", "CUDAPORT_ROCM64_DIR", "/var/cache/cudaport/rocm-6.4"))
ROCM_WRAPPER = "cudaport-hipcc"
TOOLCHAINS = ("auto", "rocm", "system")
DEFAULT_STD = "-std=c++17"  # nvcc's default dialect since CUDA 11; clang's HIP default is older
COMPILE_TIMEOUT = 300
OBJECT_MODE = ("-c",)  # object code: device code generated, inline assembly assembled
SYNTAX_MODE = ("-fsyntax-only",)
INSTALL_HINT = (
    "run tools/setup-system.sh (ROCm 7.2 and 6.4 from Debian's packages, into "
    "/var/cache/cudaport/rocm-7.2 and rocm-6.4), "
    "install ROCm (it provides hipcc), or on Debian 12 / Ubuntu: "
    "`apt-get install clang-15 libamdhip64-dev` (add libhiprand-dev, libhipsparse-dev, "
    "librocprim-dev, librocrand-dev, librocsparse-dev for the math libraries)"
)
# Headers whose library Debian does not package: a "file not found" names what to install.
MISSING_HEADER_HINTS = {
    "hipblas": "hipBLAS (ROCm package hipblas-dev; not in Debian 12)",
    "rocblas": "rocBLAS (librocblas-dev; Debian 13 or ROCm)",
    "hipfft": "hipFFT (ROCm package hipfft-dev; not in Debian 12)",
    "rocfft": "rocFFT (librocfft-dev; Debian 13 or ROCm)",
    "miopen": "MIOpen (ROCm package miopen-hip-dev; not in Debian 12)",
    "hipcub": "hipCUB (ROCm package hipcub-dev; not in Debian 12)",
    "thrust": "rocThrust (ROCm package rocthrust-dev; not in Debian 12)",
    "rccl": "RCCL (ROCm package rccl-dev; not in Debian 12)",
    "hipsolver": "hipSOLVER (ROCm package hipsolver-dev; not in Debian 12)",
    "hiprand": "hipRAND (Debian package libhiprand-dev)",
    "rocrand": "rocRAND (Debian package librocrand-dev)",
    "hipsparse": "hipSPARSE (Debian package libhipsparse-dev)",
    "rocsparse": "rocSPARSE (Debian package librocsparse-dev)",
    "rocprim": "rocPRIM (Debian package librocprim-dev)",
    "omp": "OpenMP (Debian package libomp-15-dev, and -fopenmp)",
}
CUDA_SUFFIXES = (".cu", ".hip")
CPP_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++", ".c")
C_SUFFIXES = (".c",)  # compiled as C (Compiler.for_host)
HEADER_SUFFIXES = (".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl", ".inc")
_DIAG = lazy(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
             r"(?P<sev>fatal error|error|warning): (?P<msg>.*)$")
_INCLUDED = lazy(r"^(?:In file included from|\s+from) (?P<path>[^:\s][^:]*):(?P<line>\d+):")
_IGNORED_STATUS = lazy(r"ignoring return value of (?:type|function) .*'nodiscard'")
_NOT_FOUND = lazy(r"'([^']+)' file not found")


class VerifyError(Exception):
    """A usage or input problem (no compiler, unreadable input): exit code 2."""


@dataclass(frozen=True)
class Compiler:
    """How to run the HIP compiler: the command prefix and extra environment."""

    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    hip_version: str | None = None  # "5.2", read from the HIP headers the compiler uses

    @property
    def objects(self) -> bool:
        """True when the compiler makes object code (``-c``), not a syntax check."""
        return "-c" in self.argv

    def command(self, source: str | os.PathLike, output: str | os.PathLike | None = None,
                flags: Iterable[str] = ()) -> list[str]:
        """The command line compiling ``source``: in object mode the object goes to
        ``output`` (default: discarded)."""
        out = ["-o", str(output) if output is not None else os.devnull] if self.objects else []
        return [*self.argv, *flags, str(source), *out]

    @property
    def label(self) -> str:
        """'HIP 6.4' (or 'HIP of unknown version'): what the report says compiled a file."""
        return f"HIP {self.hip_version}" if self.hip_version else "HIP of unknown version"

    def for_host(self, language: str) -> Compiler:
        """The same compiler run on a host source (``language``: "c"), as a HIP build
        compiles one: for the host only, with the platform macro hipcc defines only for
        HIP sources (HIP's runtime and library headers are C headers there). Compiled as
        HIP, C that C++ rejects (``float* p = calloc(n, 4)``) would fail for reasons no
        build has."""
        argv: list[str] = []
        skip = False
        for arg in self.argv:
            if skip:
                skip = False
            elif arg == "-x":
                argv += ["-x", language]
                skip = True
            elif arg.startswith("--rocm-path="):
                rocm = arg.split("=", 1)[1]
                if os.path.realpath(rocm) != "/usr":
                    argv += ["-isystem", os.path.join(rocm, "include")]
            elif not arg.startswith(("--offload-arch=", "--hip-version=", "-nogpulib")):
                argv.append(arg)
        return replace(self, argv=tuple(argv) + ("-D__HIP_PLATFORM_AMD__",))

    @property
    def description(self) -> str:
        env = " ".join(f"{k}={v}" for k, v in self.env)
        return (env + " " if env else "") + " ".join(self.argv)


def _rocm_path(clang: str) -> str | None:
    """The prefix holding include/hip/hip_runtime.h (ROCm or Debian's /usr)."""
    candidates = [os.environ.get("ROCM_PATH", ""), "/opt/rocm", "/usr"]
    return next((p for p in candidates
                 if p and os.path.isfile(os.path.join(p, "include/hip/hip_runtime.h"))), None)


def hip_version(prefix: str | None) -> str | None:
    """MAJOR.MINOR from ``prefix``/include/hip/hip_version.h, if it is there."""
    if not prefix:
        return None
    try:
        text = Path(prefix, "include/hip/hip_version.h").read_text(errors="replace")
    except OSError:
        return None
    major = re.search(r"#define\s+HIP_VERSION_MAJOR\s+(\d+)", text)
    minor = re.search(r"#define\s+HIP_VERSION_MINOR\s+(\d+)", text)
    return f"{major.group(1)}.{minor.group(1)}" if major and minor else None


def _hipcc(path: str, arch: str, mode: tuple[str, ...]) -> Compiler:
    env = (("HIP_PLATFORM", "amd"),) if shutil.which("nvcc") else ()
    prefix = os.path.dirname(os.path.dirname(os.path.realpath(path)))
    version = hip_version(prefix) or hip_version(_rocm_path(path))
    return Compiler((path, "-x", "hip", f"--offload-arch={arch}") + mode, env, version)


def rocm_roots() -> list[tuple[str, Path]]:
    """(ROCm line, folder) of each toolchain tools/setup-rocm.sh installs, newest first."""
    return [(line, Path(os.environ.get(var) or default)) for line, var, default in ROCM_ROOTS]


def rocm_dir(explicit: str | os.PathLike | None = None) -> Path:
    """The ROCm toolchain folder: ``explicit`` (a folder, or a ROCm line such as "6.4"),
    else $CUDAPORT_ROCM_DIR, else the newest installed root (7.2 before 6.4)."""
    chosen = explicit or os.environ.get("CUDAPORT_ROCM_DIR")
    roots = rocm_roots()
    if chosen:
        return next((folder for line, folder in roots if str(chosen) == line), Path(chosen))
    return next((folder for _, folder in roots if os.access(folder / ROCM_WRAPPER, os.X_OK)),
                roots[0][1])


def default_arch() -> str:
    """The GPU architecture verify compiles for when none is named: the HIP target's
    ``offload_arch`` (rules/hip/target.yaml), the one translated Makefiles and CMake files
    build for."""
    from ..rules.compiled import offload_arch

    return offload_arch(Options())


def rocm_compiler(root: str | os.PathLike, arch: str | None = None,
                  syntax_only: bool = False) -> Compiler | None:
    """The hipcc of a folder tools/setup-rocm.sh set up (through its wrapper), or None."""
    arch = arch or default_arch()
    wrapper = Path(root, ROCM_WRAPPER)
    if not os.access(wrapper, os.X_OK):
        return None
    mode = SYNTAX_MODE if syntax_only else OBJECT_MODE
    return Compiler((str(wrapper), "-x", "hip", f"--offload-arch={arch}") + mode,
                    (), hip_version(str(Path(root, "usr"))))


def find_compiler(explicit: str | None = None, arch: str | None = None,
                  toolchain: str = "auto", rocm: str | os.PathLike | None = None,
                  syntax_only: bool = False) -> Compiler | None:
    """The HIP compiler verify runs; None if there is none.

    ``explicit`` (a hipcc, clang++ or cudaport-hipcc path; else $CUDAPORT_HIP_COMPILER)
    wins. Otherwise ``toolchain`` picks: "rocm" a folder tools/setup-rocm.sh installs
    (``rocm``: a folder or a ROCm line such as "6.4"; else $CUDAPORT_ROCM_DIR; else the
    newest installed, 7.2 before 6.4); "system" hipcc on PATH or in /opt/rocm, else a
    clang++ that knows HIP with a ROCm path (Debian 12: clang-15 and HIP 5.2); "auto" a
    ROCm folder when one is set up, else the system's.

    ROCm's compilers make object code (``-c``) unless ``syntax_only``. A bare clang++ with
    Debian 12's HIP 5.2 always checks with ``-fsyntax-only``: generating device code
    needs device libraries that Debian 12's clang-15 cannot link.
    """
    arch = arch or default_arch()
    if toolchain not in TOOLCHAINS:
        raise ValueError(f"toolchain {toolchain!r}: expected one of {', '.join(TOOLCHAINS)}")
    explicit = explicit or os.environ.get("CUDAPORT_HIP_COMPILER") or None
    if explicit is None and toolchain != "system":
        found = rocm_compiler(rocm_dir(rocm), arch, syntax_only)
        if found is not None or toolchain == "rocm":
            return found
    mode = SYNTAX_MODE if syntax_only else OBJECT_MODE
    names = [explicit] if explicit else None
    if names is None:
        hipcc = shutil.which("hipcc") or ("/opt/rocm/bin/hipcc"
                                          if os.access("/opt/rocm/bin/hipcc", os.X_OK) else None)
        if hipcc:
            return _hipcc(hipcc, arch, mode)
        names = [f"clang++-{v}" for v in range(20, 13, -1)] + ["clang++"]
    for name in names:
        path = name if os.path.sep in name and os.access(name, os.X_OK) else shutil.which(name)
        if path is None:
            continue
        if os.path.basename(path) == ROCM_WRAPPER:
            return rocm_compiler(os.path.dirname(os.path.abspath(path)), arch, syntax_only)
        if os.path.basename(path).startswith("hipcc"):
            return _hipcc(path, arch, mode)
        rocm = _rocm_path(path)
        if rocm is None:
            continue
        version = hip_version(rocm)
        # clang 15 reads the HIP version only from bin/.hipVersion, which Debian does not
        # ship; it then assumes HIP 3.5 and skips its HIP wrapper header (no __managed__,
        # no device math overloads). Telling it the version from hip_version.h fixes that.
        pinned = (f"--hip-version={version}.0",) if version else ()
        return Compiler((path, "-x", "hip", f"--offload-arch={arch}", f"--rocm-path={rocm}")
                        + pinned + ("-nogpulib",) + SYNTAX_MODE, (), version)
    return None


@dataclass
class _Mapped:
    display: str  # the original path as shown to the user
    positions: PositionMap | None  # None: the file was compiled as given


@dataclass
class Outcome:
    """One translation unit: compiled or not, with findings on the original lines."""

    path: str
    ok: bool
    findings: list[Finding] = field(default_factory=list)
    output: str = ""  # the compiler's output, locations mapped to the original files
    command: tuple[str, ...] = ()
    seconds: float = 0.0
    compiled_with: str = ""  # "HIP 6.4": the HIP version of the compiler that ran
    # The translation of the unit and of each project header it includes, however
    # indirectly (unit first): the findings and verdict cudaport's reports give them.
    translated: list[FileOutcome] = field(default_factory=list)


def _display(path: Path) -> str:
    """Relative to the current folder when inside it, else absolute."""
    cwd = os.getcwd()
    absolute = os.path.abspath(path)
    if absolute.startswith(cwd.rstrip(os.sep) + os.sep):
        return os.path.relpath(absolute, cwd)
    return absolute


def _is_cuda_toolkit_dir(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "cuda_runtime.h"))


class Workspace:
    """Translated copies of the inputs and of the project headers they include."""

    def __init__(self, root: Path, options: Options, translate: bool = True) -> None:
        self.root = root
        self.options = options
        self.translate = translate
        self.files: dict[str, _Mapped] = {}  # workspace path → original
        # keyed by (original path, the -D set of the unit that reached it): a header shared
        # by units with different defines is judged once per set (its branches differ)
        self._done: dict[tuple[Path, tuple[str, ...]], Path] = {}
        self._written: dict[Path, bytes] = {}  # mirror path -> what was written there
        self.outcomes: dict[tuple[Path, tuple[str, ...]], FileOutcome] = {}
        self.headers: dict[tuple[Path, tuple[str, ...]], list[Path]] = {}  # -> local headers
        self._unit_defines: dict[Path, tuple[str, ...]] = {}
        self._location = re.compile(re.escape(str(root)) + r"(/[^:\s]+)(?::(\d+)(?::(\d+))?)?")

    def mirror(self, path: Path) -> Path:
        return self.root / str(path).lstrip(os.sep)

    def add(self, path: Path, include_dirs: list[str], display: str | None = None,
            defines: tuple[str, ...] = (), unit: bool = True) -> Path:
        """Translate ``path`` (and, recursively, the local headers it includes), with the
        macros its compile defines (``-D``): the translation reads the branches the
        compiler takes; a header reached by units with different defines is translated for
        each set, its findings counted for the units of that set (the mirror holds the first
        translation: the output rarely depends on the defines, the findings do)."""
        path = Path(os.path.abspath(path))
        key = (path, defines)
        if unit:
            self._unit_defines[path] = defines
        if key in self._done:
            return self._done[key]
        try:
            data = read_input(path)
        except OSError as exc:
            raise VerifyError(str(exc)) from None
        target = self.mirror(path)
        self._done[key] = target
        shown = display or _display(path)
        if self.translate:
            options = self.options
            if defines:
                options = replace(options, defines=tuple(dict.fromkeys(options.defines + defines)))
            translated, outcome = translate_file(data, "source", options, shown, named=True,
                                                 keep_references=True)
            if translated is None:
                raise VerifyError(outcome.message)
            output, positions = translated, PositionMap(data, outcome.edits, translated)
            self.outcomes[key] = outcome
        else:
            output, positions = data, None
        if path not in self._written:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(output)
            self._written[path] = output
            self.files[str(target)] = _Mapped(shown, positions)
        self.headers[key] = []
        for header in self._local_includes(path, data, include_dirs):
            self.headers[key].append(Path(os.path.abspath(header)))
            self.add(header, include_dirs, defines=defines, unit=False)
        return target

    def translations(self, unit: Path) -> list[FileOutcome]:
        """The translation outcomes of ``unit`` and of the local headers it reaches."""
        unit = Path(os.path.abspath(unit))
        defines = self._unit_defines.get(unit, ())
        order: dict[Path, None] = {}
        stack = [unit]
        while stack:
            path = stack.pop()
            if path not in order:
                order[path] = None
                stack.extend(reversed(self.headers.get((path, defines), [])))
        return [self.outcomes[p, defines] for p in order if (p, defines) in self.outcomes]

    def _local_includes(self, path: Path, data: bytes, include_dirs: list[str]) -> Iterable[Path]:
        for inc in scan(data, get_compiled(self.options)).includes:
            try:
                name = inc.name.decode()
            except UnicodeDecodeError:
                continue
            quoted = data[inc.name_start - 1:inc.name_start] == b'"'
            dirs = ([str(path.parent)] if quoted else []) + include_dirs
            for folder in dirs:
                candidate = Path(folder) / name
                if candidate.is_file():
                    yield candidate
                    break

    def map_location(self, path: str, line: int, col: int) -> tuple[str, int, int] | None:
        mapped = self.files.get(os.path.normpath(path))
        if mapped is None:
            return None
        if mapped.positions is None:
            return mapped.display, line, col
        return (mapped.display, *mapped.positions.to_input(line, col))

    def rewrite(self, text: str) -> str:
        """Replace every workspace location in compiler output with the original one; a
        workspace path without a line (hipcc echoing its command) becomes the original path.
        Under a diagnostic mapped into a translated file, clang's snippet (``  12 | code``
        and its caret line) shows the original line, so line, text and caret agree."""
        snippet: list = []  # (line, col, text) of the original, for the lines that follow

        def repl(m: re.Match) -> str:
            ws = str(self.root) + m.group(1)
            if m.group(2) is None:
                mapped = self.files.get(os.path.normpath(ws))
                return mapped.display if mapped else m.group(1)
            col = int(m.group(3)) if m.group(3) else 1
            loc = self.map_location(ws, int(m.group(2)), col)
            if loc is None:
                return m.group(0)
            positions = self.files[os.path.normpath(ws)].positions
            if positions is not None and m.group(3) and m.start() == 0:
                snippet[:] = [(loc[1], loc[2], positions.input_line(loc[1]))]
            return f"{loc[0]}:{loc[1]}" + (f":{loc[2]}" if m.group(3) else "")

        out = []
        for line in text.split("\n"):
            code = _SNIPPET_CODE.match(line) if snippet else None
            caret = _SNIPPET_CARET.match(line) if snippet else None
            if code is not None:
                number, col, original = snippet[0]
                gutter = len(code.group(1))
                line = f"{number:>{gutter}} | {original.decode('utf-8', 'replace')}"
            elif caret is not None:
                number, col, original = snippet.pop()
                # (tabs kept, so the caret stands under the column wherever tabs go)
                lead = "".join("\t" if c == 0x09 else " " for c in original[:col - 1])
                line = f"{caret.group(1)}| {lead}^"
            else:
                snippet.clear()
                line = self._location.sub(repl, line)
            out.append(line)
        return "\n".join(out)


# clang's source snippet under a diagnostic: `   12 |   code` and `      |   ^~~~`
_SNIPPET_CODE = lazy(r"( *\d+) \| ")
_SNIPPET_CARET = lazy(r"( +)\| ")


def _flag_values(flags: list[str], separate: tuple[str, ...], joined: str) -> list[str]:
    """The values of the flags spelled ``-I DIR`` (one of ``separate``, the value next) or
    ``-IDIR`` (``joined`` and the value in one word), in order."""
    values = []
    i = 0
    while i < len(flags):
        f = flags[i]
        if f in separate and i + 1 < len(flags):
            values.append(flags[i + 1])
            i += 2
            continue
        if f.startswith(joined) and len(f) > len(joined):
            values.append(f[len(joined):])
        i += 1
    return values


def include_dirs_of(flags: list[str]) -> list[str]:
    """The project include folders named by ``-I``/``-iquote``/``-isystem`` flags."""
    return [d for d in _flag_values(flags, ("-isystem", "-iquote", "-I"), "-I")
            if not _is_cuda_toolkit_dir(d)]


def defines_of(flags: list[str]) -> tuple[str, ...]:
    """The macros ``-D`` flags define (``NAME`` or ``NAME=VALUE``), in order: the
    translation reads the branches they select as the compiler does (marian's ``#ifdef
    CUDNN`` with -DCUDNN: an error there is one of this build, not a latent one)."""
    return tuple(_flag_values(flags, ("-D",), "-D"))


def compiler_flags(ws: Workspace, flags: list[str]) -> list[str]:
    """``flags`` with each project include folder preceded by its translated mirror, and
    CUDA toolkit include folders dropped (their headers would shadow HIP's)."""
    out: list[str] = []
    i = 0
    while i < len(flags):
        f = flags[i]
        kind, value = None, None
        if f in ("-isystem", "-iquote", "-I") and i + 1 < len(flags):
            kind, value = f, flags[i + 1]
            i += 2
        elif f.startswith("-I") and len(f) > 2:
            kind, value = "-I", f[2:]
            i += 1
        else:
            out.append(f)
            i += 1
            continue
        if _is_cuda_toolkit_dir(value):
            continue
        mirror = str(ws.mirror(Path(os.path.abspath(value))))
        out += [kind, mirror, kind, value] if kind != "-I" else [f"-I{mirror}", f"-I{value}"]
    return out


def _ptx_findings(data: bytes, display: str, options: Options,
                  translated: Iterable = ()) -> list[Finding]:
    """PTX ``asm`` statements of a unit, which a syntax check would not assemble; not those
    in branches the target never compiles (bitsandbytes' ``#if BNB_HIP`` ... ``#else``), nor
    those the translation rewrote (CP230, at the statement's line and column)."""
    offsets = inline_ptx(data)
    dead = platform_branches.dead_test(data, display, options) if offsets else None
    rewritten = {(f.line, f.col) for o in translated if o.shown == display
                 for f in o.findings if f.code == "CP230"} if offsets else set()
    lines = LineIndex(data)
    out = []
    for offset in offsets:
        if dead is not None and dead(offset) or lines.linecol(offset) in rewritten:
            continue
        line, col = lines.linecol(offset)
        out.append(Finding("CP503", PTX_MESSAGE, display, line, col, engine="verify",
                           offset=offset))
    return out


def parse_diagnostics(ws: Workspace, text: str, unit: str) -> list[Finding]:
    """Findings for the compiler's errors and warnings, on the original lines.

    A diagnostic inside a header outside the workspace (a HIP header, say) is reported at
    the innermost workspace file that includes it; if there is none, on the unit itself.
    """
    findings: list[Finding] = []
    seen: set[tuple] = set()
    chain: list[tuple[str, int]] = []
    for raw in text.splitlines():
        inc = _INCLUDED.match(raw)
        if inc:
            chain.append((inc.group("path"), int(inc.group("line"))))
            continue
        m = _DIAG.match(raw)
        if not m:
            if not raw.startswith(" "):
                chain = [] if not raw.startswith("In file included") else chain
            continue
        line, col = int(m.group("line")), int(m.group("col"))
        loc = ws.map_location(m.group("path"), line, col)
        message = m.group("msg")
        if m.group("sev") == "warning" and (loc is None or _IGNORED_STATUS.match(message)):
            # A library header's own warning says nothing about the port, nor does CUDA code
            # ignoring a status (clang 15 says -Wunused-result, clang 21 -Wunused-value).
            chain = []
            continue
        if loc is None:
            where = f"{m.group('path')}:{line}"
            loc = next((ws.map_location(p, n, 1) for p, n in reversed(chain)
                        if ws.map_location(p, n, 1)), None) or (unit, 0, 0)
            message = f"{message} (in {where})"
        chain = []
        severity = "warning" if m.group("sev") == "warning" else "error"
        code = "CP502" if severity == "warning" else "CP501"
        missing = _NOT_FOUND.search(message)
        if missing and severity == "error":
            code = "CP504"
            lib = missing.group(1).split("/")[0].split(".")[0].lower()
            hint = MISSING_HEADER_HINTS.get(lib) or next(
                (v for k, v in MISSING_HEADER_HINTS.items() if k in missing.group(1).lower()), None)
            if hint:
                message += f"; needs {hint}"
        key = (loc, code, message)
        if key in seen:  # host and device compilations report the same error twice
            continue
        seen.add(key)
        findings.append(Finding(code, message, loc[0], loc[1], loc[2], engine="verify"))
    return findings


def _compile(compiler: Compiler, ws: Workspace, unit: Path, display: str,
             flags: list[str]) -> Outcome:
    command = tuple(compiler.command(unit, unit.with_name(unit.name + ".o"), flags))
    env = dict(os.environ, **dict(compiler.env)) if compiler.env else None
    start = time.perf_counter()
    try:
        proc = subprocess.run(command, capture_output=True, text=True, errors="replace",
                              env=env, timeout=COMPILE_TIMEOUT, stdin=subprocess.DEVNULL)
        output, rc = proc.stdout + proc.stderr, proc.returncode
    except subprocess.TimeoutExpired:
        output, rc = f"timed out after {COMPILE_TIMEOUT} s", -1
    except OSError as exc:
        output, rc = f"cannot run {command[0]}: {exc}", -1
    seconds = time.perf_counter() - start
    mapped = ws.rewrite(output)
    findings = parse_diagnostics(ws, output, display)
    if rc != 0 and not any(f.severity == "error" for f in findings):
        last = (mapped.strip().splitlines() or ["no output"])[-1]
        findings.append(Finding("CP505", f"the HIP compiler failed (exit {rc}): {last}",
                                display, 0, 0, engine="verify"))
    return Outcome(display, rc == 0, findings, mapped, command, seconds, compiler.label)


def verify_paths(paths: list[Path], options: Options, compiler: Compiler,
                 flags_for: Callable[[Path], list[str]] = lambda p: [],
                 translate: bool = True, jobs: int | None = None,
                 workdir: Path | None = None, shim: Path | None = None) -> list[Outcome]:
    """Translate (unless ``translate`` is false) and compile each path; one Outcome each,
    in input order. ``flags_for`` gives a file's -I/-D/-std flags. ``shim``: a folder
    ``cudaport shim`` wrote, put first on the include path and its cuda_runtime.h read
    into every unit (as nvcc reads CUDA's)."""
    owned = workdir is None
    root = Path(tempfile.mkdtemp(prefix="cudaport-verify-")) if owned else workdir
    try:
        ws = Workspace(root.resolve(), options, translate)
        units = []
        for path in paths:
            flags = list(flags_for(path))
            dirs = include_dirs_of(flags)
            display = _display(Path(os.path.abspath(path)))
            target = ws.add(path, dirs, display, defines_of(flags))
            # HIP marks hipError_t [[nodiscard]]; CUDA code that ignores a status is not a
            # porting problem, so that warning would only bury the real ones.
            extra = ["-iquote", str(Path(os.path.abspath(path)).parent), "-Wno-unused-result"]
            if shim is not None:
                extra[:0] = shim_flags(shim)
            data = read_input(path)
            host = _host_language(path)
            if host != "c" and not any(f.startswith(("-std=", "--std")) for f in flags):
                extra.append(DEFAULT_STD)
            if path.suffix in HEADER_SUFFIXES:
                extra.append("-Wno-pragma-once-outside-header")
            ptx = _ptx_findings(data, display, options, ws.translations(path))
            units.append((target, display, compiler_flags(ws, flags) + extra, ptx,
                          ws.translations(path), compiler.for_host(host) if host else compiler))
        workers = max(1, min(jobs or os.cpu_count() or 1, len(units) or 1))
        with ThreadPoolExecutor(workers) as pool:
            outcomes = list(pool.map(lambda u: _compile(u[5], ws, u[0], u[1], u[2]), units))
        for outcome, unit in zip(outcomes, units):
            outcome.translated = unit[4]
            if unit[3]:
                outcome.findings[:0] = unit[3]
                outcome.ok = False
        return outcomes
    finally:
        if owned:
            shutil.rmtree(root, ignore_errors=True)


def shim_flags(shim: Path) -> list[str]:
    """What a build adds to use a shim folder (see :mod:`cudaport.shim`)."""
    return ["-I", str(Path(os.path.abspath(shim))), "-include", "cuda_runtime.h"]


def _host_language(path: Path) -> str | None:
    """"c" for a source a build compiles as C for the host, None for one compiled as HIP
    (C++ sources too: hipcc compiles them as HIP, and they may hold device code)."""
    return "c" if path.suffix in C_SUFFIXES else None


def collect(paths: Iterable[Path]) -> list[Path]:
    """Files as given; folders are walked as every command walks them (``.gitignore``,
    no links out of the folder) for translation units (headers are compiled through the
    units that include them)."""
    from ..project.ignore import PatternList
    from ..project.walk import list_tree

    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            for rel in list_tree(path, PatternList([])).files:
                candidate = path / rel
                if rel.endswith(CUDA_SUFFIXES) or _is_cuda_cpp(candidate):
                    out.append(candidate)
        else:
            out.append(path)
    return out


def _is_cuda_cpp(path: Path) -> bool:
    """A C++ source that uses CUDA (includes a CUDA header or launches a kernel)."""
    if not path.name.endswith(CPP_SUFFIXES):
        return False
    try:
        head = path.read_bytes()
    except OSError:
        return False
    return bool(re.search(rb"#\s*include\s*[<\"](?:cuda|cu[a-z]+)[\w.]*\.h|<<<", head))
