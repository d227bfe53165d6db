"""Translate the generated library calls (tests/data/libcalls/*.cu) and names
(tests/data/libnames/*.cu) and compile them.

Shared by tests/test_lib_calls.py, tests/test_lib_names.py and bench/lib_calls.py. For one
file, one library variant and one HIP version: keep the blocks (a call, or a use of a type,
enumerator, macro or field) whose CUDA name the rules map for that choice, translate them
with cudaport, set aside the blocks the translation reports with an error finding (a name
cudaport knows it cannot port), compile the rest to an object file with that ROCm's hipcc
(``-ferror-limit=0``) and attribute each error to the block it is in.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CALLS = ROOT / "tests" / "data" / "libcalls"
NAMES = ROOT / "tests" / "data" / "libnames"
# suite -> (folder of its generated files, the line that starts each block)
SUITES = {"calls": (CALLS, b"// call "), "names": (NAMES, b"// name ")}
MARKER = b"// call "
ARCH = "gfx942"
# HIP version -> the ROCm folder tools/setup-rocm.sh installs for it.
ROCM = {"7.2": Path("/var/cache/cudaport/rocm-7.2"), "6.4": Path("/var/cache/cudaport/rocm-6.4")}
VERSIONS = tuple(ROCM)
# Variant choices no ROCm toolchain here provides the headers of: translated, not compiled.
UNAVAILABLE = {"hipdnn": "hipDNN.h (ROCm's archived hipDNN) is in neither ROCm 6.4 nor 7.2"}
# (file stem, HIP version) whose target library the ROCm folder lacks (tools/setup-rocm.sh:
# RCCL, roctx and ROCm SMI only in 7.2's, as the identifier cross-check says).
UNAVAILABLE_AT = {("nccl", "6.4"): "RCCL is not in the ROCm 6.4 folder",
                  ("nvtx", "6.4"): "roctx is not in the ROCm 6.4 folder",
                  ("nvml", "6.4"): "ROCm SMI is not in the ROCm 6.4 folder"}

# file stem -> variant group (None: the library has no variants)
GROUPS = {"runtime": None, "driver": None, "cublas": "blas", "cublaslt": "blas",
          "cusparse": "sparse", "cusolver": "solver", "cufft": None, "curand": "rand",
          "cudnn": "dnn"}
# the names files: the same, and the libraries no call file has
NAME_GROUPS = {**GROUPS, "device": None, "complex": None, "nvrtc": None, "nccl": None,
               "nvml": None, "nvtx": None, "cub": None}


def stems(suite: str = "calls") -> dict[str, str | None]:
    return NAME_GROUPS if suite == "names" else GROUPS


def unavailable(stem: str, choice: str, version: str) -> str | None:
    """Why this file, choice and version is translated but not compiled (None: it is)."""
    return UNAVAILABLE.get(choice) or UNAVAILABLE_AT.get((stem, version))


def choices(stem: str) -> tuple[str, ...]:
    """The variant choices of a file's library ("default" when it has none)."""
    group = NAME_GROUPS[stem]
    if group is None:
        return ("default",)
    from cudaport.rules.loader import load_table
    return load_table("hip").target.variant_groups[group].choices


def compiler(version: str) -> Path | None:
    """The cudaport-hipcc of the ROCm folder for ``version``, once its setup finished."""
    root = ROCM[version]
    wrapper = root / "cudaport-hipcc"
    if (root / ".cudaport-rocm").exists() and os.access(wrapper, os.X_OK):
        return wrapper
    return None


@dataclass
class Outcome:
    stem: str
    choice: str
    version: str
    mapped: list[str] = field(default_factory=list)  # CUDA names this choice maps (and fields)
    findings: dict[str, str] = field(default_factory=dict)  # name -> error finding (left as is)
    errors: dict[str, str] = field(default_factory=dict)  # name -> first compile error
    file_errors: list[str] = field(default_factory=list)  # errors no call owns
    compiled: bool = False  # the compiler ran
    stderr: str = ""

    @property
    def compiling(self) -> list[str]:
        return [n for n in self.mapped if n not in self.findings and n not in self.errors]


def blocks(data: bytes, marker: bytes = MARKER) -> tuple[bytes, list[tuple[str, bytes]]]:
    """(preamble, [(CUDA name, block text)]) of a generated or translated file."""
    parts = re.split(rb"(?m)^(?=" + re.escape(marker) + rb")", data)
    out = []
    for part in parts[1:]:
        name = part[len(marker):part.index(b"\n")].decode()
        out.append((name, part))
    return parts[0], out


def options(stem: str, choice: str, version: str):
    from cudaport import Options
    group = NAME_GROUPS[stem]
    variants = ((group, choice),) if group else ()
    return Options(variants=variants, target_version=version)


def mapped(stem: str, choice: str, version: str, suite: str = "calls") -> list[str]:
    """The names of the file that the rules map for this choice and version (a field,
    ``TYPE::FIELD``, where its type is mapped)."""
    from cudaport.rules.compiled import get_compiled
    compiled = get_compiled(options(stem, choice, version))
    folder, marker = SUITES[suite]
    _, found = blocks((folder / f"{stem}.cu").read_bytes(), marker)
    names = dict.fromkeys(name for name, _ in found)
    out = []
    for name in names:
        r = compiled.identifiers.get(name.split("::")[0].encode())
        if r is not None and r.status in ("converted", "fallback", "same"):
            out.append(name)
    return out


def _owner(lines: list[int], names: list[str], line: int) -> str | None:
    owner = None
    for start, name in zip(lines, names):
        if start > line:
            break
        owner = name
    return owner


def _marker_lines(data: bytes, marker: bytes = MARKER) -> tuple[list[int], list[str]]:
    starts, names = [], []
    for number, text in enumerate(data.split(b"\n"), 1):
        if text.startswith(marker):
            starts.append(number)
            names.append(text[len(marker):].decode())
    return starts, names


def read_not_yet(path: Path) -> dict[tuple[str, str, str], dict[str, str]]:
    """(file stem, choice, version) -> {CUDA name: why} from a not-yet.tsv: the calls or
    names that do not compile yet (the tests hold it strict in both directions)."""
    out: dict[tuple[str, str, str], dict[str, str]] = {}
    if not path.is_file():
        return out
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        stem, choice, version, name, why = line.split("\t")
        out.setdefault((stem, choice, version), {})[name] = why
    return out


ERROR = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):\d+: (?:fatal )?error: (?P<msg>.*)$",
                   re.MULTILINE)


def run(stem: str, choice: str, version: str, hipcc: Path | None = None,
        keep: Path | None = None, suite: str = "calls") -> Outcome:
    """Translate and compile one file for one choice and version (see the module's text).
    ``hipcc`` None: translate only. ``keep``: write the translated file there."""
    from cudaport import translate_bytes
    folder, marker = SUITES[suite]
    out = Outcome(stem, choice, version, mapped(stem, choice, version, suite))
    if not out.mapped:  # (cuBLASLt under --blas rocblas: nothing to port, nothing to check)
        return out
    preamble, found = blocks((folder / f"{stem}.cu").read_bytes(), marker)
    wanted = set(out.mapped)
    source = preamble + b"".join(text for name, text in found if name in wanted)
    result = translate_bytes(source, options(stem, choice, version), f"{stem}.cu")
    starts, names = _marker_lines(source, marker)
    for f in result.findings:
        if f.severity != "error":
            continue
        owner = _owner(starts, names, f.line)
        if owner is not None:
            out.findings.setdefault(owner, f"{f.code} {f.message}")
        else:
            out.file_errors.append(f"finding {f.code} line {f.line}: {f.message}")
    head, translated = blocks(result.output, marker)
    text = head + b"".join(t for name, t in translated if name not in out.findings)
    if keep is not None:
        keep.write_bytes(text)
    if hipcc is None or not out.mapped or unavailable(stem, choice, version):
        return out
    with tempfile.TemporaryDirectory(prefix="libcalls-") as tmp:
        path = Path(tmp) / f"{stem}-{choice}-{version}.hip"
        path.write_bytes(text)
        proc = subprocess.run([str(hipcc), "-x", "hip", f"--offload-arch={ARCH}", "-std=c++17",
                               "-ferror-limit=0", "-w", "-c", str(path), "-o",
                               str(Path(tmp) / "out.o")], capture_output=True, text=True)
    out.compiled = True
    out.stderr = proc.stderr
    starts, names = _marker_lines(text, marker)
    for m in ERROR.finditer(proc.stderr):
        owner = None
        if Path(m.group("path")).name == path.name:
            owner = _owner(starts, names, int(m.group("line")))
        if owner is not None:
            out.errors.setdefault(owner, m.group("msg"))
        else:
            out.file_errors.append(f"{Path(m.group('path')).name}:{m.group('line')}: "
                                   f"{m.group('msg')}")
    if proc.returncode != 0 and not out.errors and not out.file_errors:
        out.file_errors.append(proc.stderr[-2000:] or f"exit status {proc.returncode}")
    return out
