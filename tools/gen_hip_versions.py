#!/usr/bin/env python3
"""Write the HIP-version facts that tools/gen_hip_rules.py applies to the HIP packs.

Usage: python tools/gen_hip_versions.py [--rocm-include DIR] [--hip52-include DIR]
                                         [--reference ../shared/reference] [--out rules/hip]

Two tab-separated tables, each row with the version and the source of its fact:

``header-paths.tsv``: where each HIP library header that HIPIFY's header map names lives
in the ROCm 6.4 headers (default: the Debian unstable folder that tools/setup-system.sh
makes, /var/cache/cudaport/rocm-6.4/usr/include). ROCm 5.2 moved every library's headers
into a folder of the library's name (``hipblas.h`` -> ``hipblas/hipblas.h``). The old
paths became wrapper headers behind the CMake option BUILD_FILE_REORG_BACKWARD_COMPATIBILITY
(checked in the ROCm/<library> repositories at tags rocm-5.2.0, rocm-5.7.0, rocm-6.0.0):
default ON from rocm-5.2.0 and OFF from rocm-6.0.0 for hipBLAS, hipSPARSE, rocSPARSE and
hipBLASLt (first tagged rocm-5.7.0), OFF from the start for rocBLAS; hipSOLVER made it a
dependent option at 5.7. So the new path is right from 5.2 on and the old one only before
(ROCm 6.4's Debian packages have no old path at all). Where Debian 12's HIP 5.2 packages
carry the library, the new path is checked there too.

``hipblas-v2.tsv``: hipBLAS 2.x (ROCm 6.0-6.4) declares the hipDataType/hipComplex forms of
its functions as ``NAME_v2`` and, with HIPBLAS_V2 defined, ``#define NAME NAME_v2``; hipBLAS
3.0 (ROCm 7.0) keeps only those forms, under the plain names, and drops the ``_v2``
spellings (hipBLAS CHANGELOG "hipBLAS 3.0.0 for ROCm 7.0"; header hipblas.h in
ROCm/rocm-libraries commit 07f33d227e74 has no ``_v2`` name). The table lists each pair
from the ROCm 6.4 header's HIPBLAS_V2 block.

``hip52-present.tsv``: types and constants HIPIFY dates HIP 5.2 or later that Debian 12's
HIP 5.2.3 headers declare (``HIP_R_32F``). ``hip-spellings.tsv``: HIP names HIPIFY spells
with other letter case than the ROCm 6.4 headers declare them.

Deterministic: the same headers give byte-identical files.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from gen_hip_rules import HEADER_APIS, LIBRARIES, _default_reference, parse_table  # noqa: E402

ROCM_INCLUDE = Path("/var/cache/cudaport/rocm-6.4/usr/include")
HIP52_INCLUDE = Path("/usr/include")
REORG = "5.2.0"  # ROCm's file reorganisation: library headers moved into <library>/
REORG_SOURCE = ("ROCm 5.2 file reorganisation (BUILD_FILE_REORG_BACKWARD_COMPATIBILITY in "
                "ROCm/hipBLAS, hipSPARSE, hipSOLVER, rocBLAS, rocSPARSE at rocm-5.2.0..6.0.0)")
V2_REMOVED = "7.0.0"
V2_SOURCE = "hipblas/hipblas.h of ROCm 6.4 (hipBLAS 2.4) HIPBLAS_V2 block; hipBLAS 3.0 CHANGELOG"
_V2_DEFINE = re.compile(r"^#define (hipblas\w+) (hipblas\w+_v2(?:_64)?)$", re.M)


def header_paths(reference: Path, rocm: Path, hip52: Path) -> list[str]:
    """Rows: old path, path in ROCm 6.4, version the old path applies before, source."""
    paths = set()
    with open(reference / "hipify-headers.tsv", encoding="utf-8", newline="") as fh:
        for rec in csv.DictReader(fh, delimiter="\t"):
            if rec["api"] in HEADER_APIS:
                paths.update((rec["hip_header"], rec["roc_header"]))
    rows = []
    for path in sorted(p for p in paths if p):
        if (rocm / path).is_file():
            continue
        name = Path(path).name
        found = sorted(str(p.relative_to(rocm)) for p in rocm.glob(f"*/{name}"))
        if len(found) != 1:
            print(f"note: {path}: not in the ROCm 6.4 headers ({len(found)} candidates)",
                  file=sys.stderr)
            continue
        new = found[0]
        folder = new.split("/", 1)[0]
        moved = "/" not in path and Path(name).stem == folder  # the 5.2 reorganisation
        checked = " (also in Debian 12's HIP 5.2 headers)" if (hip52 / new).is_file() else ""
        if moved:
            rows.append(f"{path}\t{new}\t{REORG}\t{REORG_SOURCE}{checked}")
        else:  # never at the old path
            rows.append(f"{path}\t{new}\t\tROCm 6.4 headers{checked}")
    return rows


def hipblas_v2(rocm: Path) -> list[str]:
    text = (rocm / "hipblas" / "hipblas.h").read_text(encoding="utf-8")
    block = text[text.index("// HIPBLAS_V2 Ex functions"):]
    block = block[:block.index("#endif")]
    pairs = sorted(set(_V2_DEFINE.findall(block)))
    return [f"{plain}\t{v2}\t{V2_REMOVED}\t{V2_SOURCE}" for plain, v2 in pairs]


HIP52_FOLDERS = ("hip", "hipsparse", "hiprand", "rocrand", "rocsparse", "rocprim")


def hip52_present(rules: Path, hip52: Path) -> list[str]:
    """Types and constants HIPIFY dates HIP 5.2 or later that Debian 12's HIP 5.2.3 headers
    already declare (``HIP_R_32F``, ``hipDataType`` in hip/library_types.h): with
    ``--hip-version 5.2`` they are translated all the same."""
    text = "\n".join(p.read_text(encoding="utf-8", errors="replace")
                     for folder in HIP52_FOLDERS for p in sorted((hip52 / folder).rglob("*.h*"))
                     if p.is_file())
    declared = set(re.findall(r"\b[A-Za-z_]\w*\b", text))
    rows = set()
    entry = re.compile(r"kind: (?:type|constant), to: (\w+), to_since: \"(\d+)\.(\d+)")
    for pack in sorted(rules.glob("*.yaml")):
        for m in entry.finditer(pack.read_text(encoding="utf-8")):
            if (int(m.group(2)), int(m.group(3))) >= (5, 2) and m.group(1) in declared:
                rows.add(f"{m.group(1)}\t5.2.0\tDebian 12 libamdhip64-dev 5.2.3 and its "
                         "hipSPARSE/hipRAND/rocRAND/rocSPARSE/rocPRIM headers")
    return sorted(rows)


LIBRARY_OWNED = re.compile(r"hip|HIP|roc|ROC|miopen|MIOPEN")  # not C/C++ names (signbit)


def spellings(reference: Path, rocm: Path) -> list[str]:
    """HIP names HIPIFY's tables spell differently from the ROCm 6.4 headers, which declare
    exactly one identifier equal to it but for letter case
    (hipDeviceAttributeMultiGpuBoardGroupId -> ...GroupID)."""
    declared: dict[str, set[str]] = {}
    for folder in HIP52_FOLDERS:
        for path in sorted((rocm / folder).rglob("*.h*")):
            for word in set(re.findall(r"\b[A-Za-z_]\w*\b", path.read_text(errors="replace"))):
                declared.setdefault(word.lower(), set()).add(word)
    rows = set()
    for filename, _title, main, variants in LIBRARIES.values():
        for row in parse_table(reference / "hipify-tables" / filename):
            for column in (main, *variants.values()):
                name = row.columns.get(column, {}).get("to", "")
                same = declared.get(name.lower(), set())
                if name and LIBRARY_OWNED.match(name) and name not in same and len(same) == 1:
                    rows.add(f"{name}\t{next(iter(same))}\tROCm 6.4 headers")
    return sorted(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rocm-include", type=Path, default=ROCM_INCLUDE)
    parser.add_argument("--hip52-include", type=Path, default=HIP52_INCLUDE)
    parser.add_argument("--reference", type=Path, default=_default_reference())
    parser.add_argument("--out", type=Path, default=ROOT / "rules" / "hip")
    args = parser.parse_args(argv)
    if not (args.rocm_include / "hip" / "hip_version.h").is_file():
        print(f"error: {args.rocm_include}: no ROCm headers there (run tools/setup-system.sh)",
              file=sys.stderr)
        return 2
    head = "# Generated by tools/gen_hip_versions.py. Do not edit: rerun the script.\n"
    (args.out / "header-paths.tsv").write_text(
        head + "# old path\tROCm 6.4 path\told path before\tsource\n"
        + "".join(r + "\n" for r in header_paths(args.reference, args.rocm_include,
                                                  args.hip52_include)), encoding="utf-8")
    (args.out / "hipblas-v2.tsv").write_text(
        head + "# plain name\t_v2 name (hipBLAS 2.x)\t_v2 name before\tsource\n"
        + "".join(r + "\n" for r in hipblas_v2(args.rocm_include)), encoding="utf-8")
    (args.out / "hip-spellings.tsv").write_text(
        head + "# HIPIFY's spelling\tthe headers' spelling\tsource\n"
        + "".join(r + "\n" for r in spellings(args.reference, args.rocm_include)),
        encoding="utf-8")
    if (args.hip52_include / "hip" / "hip_version.h").is_file():
        (args.out / "hip52-present.tsv").write_text(
            head + "# HIP name\tdeclared since\tsource\n"
            + "".join(r + "\n" for r in hip52_present(args.out, args.hip52_include)),
            encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
