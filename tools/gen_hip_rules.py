#!/usr/bin/env python3
"""Regenerate rules/hip/<library>.yaml from the HIPIFY fact tables.

Usage: python tools/gen_hip_rules.py [--reference ../shared/reference] [--out rules/hip]

Inputs are the Markdown tables in ``hipify-tables/`` (one row per CUDA identifier with
the CUDA and HIP/ROC/MIOpen versions) and ``hipify-headers.tsv``. The output is
deterministic: rerunning the script on the same facts gives byte-identical files.
Hand-written packs (target.yaml, calls.yaml, extra.yaml, ...) are never touched.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# library id -> (table file, title, main column, {variant name: column})
# Columns: "HIP", "ROC" or "MIOPEN" as the table headings name them.
LIBRARIES = {
    "runtime": ("CUDA_Runtime_API_functions_supported_by_HIP.md", "CUDA Runtime API", "HIP", {}),
    "driver": ("CUDA_Driver_API_functions_supported_by_HIP.md", "CUDA Driver API", "HIP", {}),
    "device": ("CUDA_Device_API_supported_by_HIP.md", "CUDA device functions and types", "HIP", {}),
    "complex": ("cuComplex_API_supported_by_HIP.md", "cuComplex", "HIP", {}),
    "nvrtc": ("CUDA_RTC_API_supported_by_HIP.md", "NVRTC", "HIP", {}),
    "cublas": ("CUBLAS_API_supported_by_HIP_and_ROC.md", "cuBLAS and cuBLASLt", "HIP",
               {"rocblas": "ROC"}),
    "cudnn": ("CUDNN_API_supported_by_HIP_and_MIOPEN.md", "cuDNN", "MIOPEN", {"hipdnn": "HIP"}),
    "cufft": ("CUFFT_API_supported_by_HIP.md", "cuFFT", "HIP", {}),
    "curand": ("CURAND_API_supported_by_HIP_and_ROC.md", "cuRAND", "HIP", {"rocrand": "ROC"}),
    "cusparse": ("CUSPARSE_API_supported_by_HIP_and_ROC.md", "cuSPARSE", "HIP",
                 {"rocsparse": "ROC"}),
    "cusolver": ("CUSOLVER_API_supported_by_HIP_and_ROC.md", "cuSOLVER", "HIP",
                 {"rocsolver": "ROC"}),
    "cub": ("CUB_API_supported_by_HIP.md", "CUB", "HIP", {}),
}
# hipify-headers.tsv "api" column -> library id; the ROC header column is this variant.
HEADER_APIS = {
    "runtime": ("runtime", None), "driver": ("driver", None), "complex": ("complex", None),
    "rtc": ("nvrtc", None), "blas": ("cublas", "rocblas"), "rand": ("curand", "rocrand"),
    "fft": ("cufft", None), "dnn": ("cudnn", "miopen"), "sparse": ("cusparse", "rocsparse"),
    "solver": ("cusolver", "rocsolver"), "cub": ("cub", None),
}
# A tabled name absent from every CUDA 13 header (rules/hip/cuda13-names.txt) is marked
# removed in 13.0 -- unless it belongs to headers that list cannot see: graphics interop
# (Direct3D is Windows-only; GL, EGL, VDPAU need their own SDKs), CUB's C++ templates,
# or macros the compiler itself predefines (__CUDACC__, __NVCC__, __CUDA_ARCH__, ...).
CUDA13_REMOVED = "13.0"
NOT_ENUMERATED = re.compile(r"D3D|[Dd]3[Dd]|GL|EGL|[Ee]gl|VDPAU|Vdpau|NvSci|^CUB_|^cub::"
                            r"|^__(?:CUDACC|NVCC|CUDA_ARCH)\w*__$")
# Only CUDA-prefixed names are marked: a generic name (saturate, isnan) may be the user's
# own, and a CP103 warning on it would be noise; such names are listed in
# rules/hip/known-differences.tsv instead.
CUDA_OWNED = re.compile(r"cu|CU|nv|NV|__")
TYPE_SECTION = re.compile(r"types?\b|types references", re.IGNORECASE)
PLAIN_NAME = re.compile(r"[A-Za-z_$][\w$:]*")
ROW = re.compile(r"^\|`([^`]+)`\|")
HEADING = re.compile(r"^## \*\*\d+\. (.*?)\*\*")


@dataclass
class Row:
    name: str
    kind: str
    cuda: dict[str, str]
    columns: dict[str, dict[str, str]]  # column -> {"to", "A", "D", "C", "R", "E"}


def parse_table(path: Path) -> list[Row]:
    rows: list[Row] = []
    section = ""
    header: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        h = HEADING.match(line)
        if h:
            section = h.group(1)
            continue
        if line.startswith("|**CUDA**"):
            header = [c.strip("*") for c in line.strip("|").split("|")]
            continue
        if not ROW.match(line):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        cuda = dict(zip(("A", "D", "C", "R"), cells[1:5]))
        columns: dict[str, dict[str, str]] = {}
        i = 5
        while i < len(header):
            col = header[i]
            values = dict(zip(("to", "A", "D", "C", "R", "E"), cells[i:i + 6]))
            values["to"] = values.get("to", "").strip("`")
            columns[col] = values
            i += 6
        name = cells[0].strip("`")
        rows.append(Row(name, _kind(name, section), cuda, columns))
    return rows


def _kind(name: str, section: str) -> str:
    if "::" in name:
        return "name"
    if TYPE_SECTION.search(section):
        return "constant" if name.upper() == name else "type"
    return "function"


def _q(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _version_facts(name: str) -> dict[str, tuple[str, str]]:
    """``old -> (new, before)`` from a table tools/gen_hip_versions.py writes: the newest
    spelling of a target name or header path, and the version the old one applies before."""
    path = ROOT / "rules" / "hip" / name
    out = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                cols = line.split("\t")
                out[cols[0]] = (cols[1], cols[2])
    return out


# hipBLAS 2.x `_v2` names whose hipBLAS 3.0 spelling is the plain name, and HIP library
# header paths by version (see tools/gen_hip_versions.py).
V2_NAMES = {v2: (plain, before) for plain, (v2, before) in _version_facts("hipblas-v2.tsv").items()}
HEADER_PATHS = _version_facts("header-paths.tsv")
# Types and constants Debian's HIP 5.2 headers declare though HIPIFY dates them later.
HIP52_PRESENT = _version_facts("hip52-present.tsv")
# Names HIPIFY spells with other letter case than the HIP headers declare them.
SPELLINGS = {old: new for old, (new, _source) in _version_facts("hip-spellings.tsv").items()}


def _newest(value: str, table: dict[str, tuple[str, str]], quote: bool) -> str:
    """``value`` rendered with its newest spelling, and the older one under ``before``."""
    new, before = table.get(value, (value, ""))
    text = _q(new) if quote or not PLAIN_NAME.fullmatch(new) else new
    if new == value:
        return text
    if not before:
        return text
    old = _q(value) if quote or not PLAIN_NAME.fullmatch(value) else value
    return f"{text}, before: {{{_q(before)}: {old}}}"


def _header(value: str) -> str:
    """A header entry's target path, as ``"path"`` or ``"path", before: {...}``."""
    return _newest(value, HEADER_PATHS, quote=True)


def _target_fields(values: dict[str, str], prefix: str = "to") -> list[str]:
    to = _newest(SPELLINGS.get(values["to"], values["to"]), V2_NAMES, quote=False)
    out = [f"{prefix}: {to}"]
    for key, label in (("A", "since"), ("D", "deprecated"), ("R", "removed")):
        if values.get(key):
            value = values[key]
            if key == "A" and values["to"] in HIP52_PRESENT:
                value = HIP52_PRESENT[values["to"]][0]
            out.append(f"{prefix}_{label}: {_q(value)}")
    if values.get("E"):
        out.append("experimental: true")
    return out


def render_entry(row: Row, main: str, variants: dict[str, str],
                 cuda13: set[str] | None = None) -> str:
    parts = [f"kind: {row.kind}"]
    m = row.columns.get(main, {})
    if m.get("to"):
        parts += _target_fields(m)
    cuda = dict(row.cuda)
    if cuda13 is not None and not cuda.get("R") and row.name not in cuda13 \
            and not NOT_ENUMERATED.search(row.name) and CUDA_OWNED.match(row.name):
        cuda["R"] = CUDA13_REMOVED  # tabled up to 12.6, gone from the CUDA 13 headers
    for key, label in (("A", "since"), ("D", "deprecated"), ("C", "changed"), ("R", "removed")):
        if cuda.get(key):
            parts.append(f"cuda_{label}: {_q(cuda[key])}")
    vparts = []
    for vname, col in variants.items():
        v = row.columns.get(col, {})
        if v.get("to"):
            fields = _target_fields(v)
            vparts.append(f"{vname}: {fields[0][4:]}" if len(fields) == 1 and ", " not in fields[0]
                          else f"{vname}: {{{', '.join(fields)}}}")
    if vparts:
        parts.append("variants: {" + ", ".join(vparts) + "}")
    key = row.name if PLAIN_NAME.fullmatch(row.name) else _q(row.name)
    return f"  {key}: {{{', '.join(parts)}}}"


def load_headers(reference: Path) -> dict[str, list[tuple[str, str]]]:
    """library id -> [(cuda header, rendered entry)] from hipify-headers.tsv."""
    out: dict[str, list[tuple[str, str]]] = {}
    with open(reference / "hipify-headers.tsv", encoding="utf-8", newline="") as fh:
        for rec in csv.DictReader(fh, delimiter="\t"):
            api = HEADER_APIS.get(rec["api"])
            if api is None:
                continue  # caffe2 paths belong to the PyTorch rules
            library, roc_variant = api
            parts = []
            if rec["unsupported"] == "yes":
                parts.append("status: unsupported")
            else:
                parts.append(f"to: {_header(rec['hip_header'])}")
            if rec["main_header"] == "yes":
                parts.append("main: true")
            if library == "cudnn":
                # cuDNN's main column is MIOpen; hipDNN is the variant.
                parts = [p for p in parts if not p.startswith("to:")]
                parts.insert(0, f"to: {_header(rec['roc_header'])}")
                parts.append(f"variants: {{hipdnn: {_q(rec['hip_header'])}}}")
            elif roc_variant and rec["roc_header"]:
                roc = _header(rec["roc_header"])
                parts.append(f"variants: {{{roc_variant}: {{to: {roc}}}}}" if ", " in roc
                             else f"variants: {{{roc_variant}: {roc}}}")
            out.setdefault(library, []).append(
                (rec["cuda_header"], f"  {rec['cuda_header']}: {{{', '.join(parts)}}}"))
    return out


def generate(reference: Path, out_dir: Path) -> list[Path]:
    tables = reference / "hipify-tables"
    headers = load_headers(reference)
    written = []
    seen: dict[str, str] = {}
    hand_written = _hand_written_names(out_dir)
    hand_headers = _hand_written_names(out_dir, "headers")
    cuda13 = _cuda13_names(out_dir)
    for library, (filename, title, main, variants) in LIBRARIES.items():
        rows = parse_table(tables / filename)
        lines = [
            f"# Generated by tools/gen_hip_rules.py from HIPIFY's {filename}",
            "# (ROCm/HIPIFY docs/tables, MIT licence). Do not edit: rerun the script.",
            f"library: {library}",
            f"title: {_q(title)}",
            f"source: {_q('HIPIFY ' + filename)}",
            "generated: true",
        ]
        if library in headers:
            lines.append("headers:")
            lines += [text for name, text in sorted(headers[library]) if name not in hand_headers]
        lines.append("identifiers:")
        for row in sorted(rows, key=lambda r: r.name):
            if row.name in seen or row.name in hand_written:
                continue  # the first library that lists a name owns it
            seen[row.name] = library
            lines.append(render_entry(row, main, variants, cuda13 if library != "cub" else None))
        path = out_dir / f"{library}.yaml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        written.append(path)
    return written


# Packs derived from these tables (this script's own output, and the CUDA 13 names the
# tables lack). Every other pack, hand-written or generated from other facts
# (gen_hip_extra_rules.py), takes precedence over the tables.
DERIVED_PACKS = ("# Generated by tools/gen_hip_rules.py", "# Generated by tools/gen_cuda13_names.py")


def _cuda13_names(out_dir: Path) -> set[str] | None:
    path = out_dir / "cuda13-names.txt"
    if not path.is_file():
        return None
    return {line.split("\t")[1] for line in path.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")}


def _hand_written_names(out_dir: Path, section: str = "identifiers") -> set[str]:
    """Names (or, with section "headers", headers) defined in packs that take precedence
    over the tables."""
    names: set[str] = set()
    # (ports/: the hand-written packs of ported constructs, read by the loader too)
    for path in [*out_dir.glob("*.yaml"), *out_dir.glob("ports/*.yaml")]:
        text = path.read_text(encoding="utf-8")
        if text.startswith(DERIVED_PACKS) or path.name == "target.yaml":
            continue
        in_identifiers = False
        for line in text.splitlines():
            if re.match(rf"^{section}:", line):
                in_identifiers = True
            elif re.match(r"^\S", line):
                in_identifiers = False
            elif in_identifiers:
                m = re.match(r"^  ([A-Za-z_$][\w$:./+-]*):", line) or re.match(r'^  "([^"]+)":', line)
                if m:
                    names.add(m.group(1))
    return names


def _default_reference() -> Path:
    """shared/reference beside the checkout (main) or beside the worktrees' parent."""
    for base in (ROOT.parent, ROOT.parent.parent):
        if (base / "shared" / "reference" / "hipify-tables").is_dir():
            return base / "shared" / "reference"
    return ROOT.parent / "shared" / "reference"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, default=_default_reference())
    parser.add_argument("--out", type=Path, default=ROOT / "rules" / "hip")
    args = parser.parse_args(argv)
    if not (args.reference / "hipify-tables").is_dir():
        print(f"error: {args.reference}/hipify-tables not found", file=sys.stderr)
        return 2
    for path in generate(args.reference, args.out):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
