#!/usr/bin/env python3
"""Regenerate rules/musa/<library>.yaml from the Moore Threads MUSA mapping facts.

Usage: python tools/gen_musa_rules.py [--reference ../shared/reference] [--out rules/musa]

Facts come from two places and nothing is invented:

- ``musa-mapping/general.json`` and ``dnn-naming.json`` (CUDA name -> MUSA name) and
  ``include.json`` / ``dnn-header.json`` (CUDA header -> MUSA header), from
  MooreThreads/torch_musa (BSD-3-Clause); ``extra.json`` is PyTorch-internal and unused.
- The CUDA side of every name (library, kind, CUDA versions) is read from the HIP rule
  tables this project generates from HIPIFY's documentation, so the two targets report
  the same CUDA facts. A CUDA name those tables know but the MUSA facts do not map is
  written without ``to`` (reported as having no MUSA equivalent), except kernel-language
  names without a CUDA prefix that HIP keeps as written (``__syncthreads``, ``atomicAdd``,
  math functions; see ``keeps_spelling``): MUSA C++ keeps CUDA's kernel language and the
  vendor's porting rules leave those names as written.

Hand-written packs in the output folder (target.yaml, extra.yaml, nccl.yaml, ...) win:
the generator skips the names they define. Rerunning on the same facts gives identical files.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cudaport.rules.loader import load_table  # noqa: E402
from cudaport.rules.model import Entry  # noqa: E402

SOURCE = "MooreThreads/torch_musa torch_musa/utils/mapping at 8b583b3f2fd0, BSD-3-Clause"
TITLES = {
    "runtime": "CUDA Runtime API", "driver": "CUDA Driver API",
    "device": "CUDA device functions and types", "complex": "cuComplex", "nvrtc": "NVRTC",
    "cublas": "cuBLAS, cuBLASLt and cuBLASXt", "cudnn": "cuDNN (to muDNN)", "cufft": "cuFFT",
    "curand": "cuRAND", "cusparse": "cuSPARSE", "cusolver": "cuSOLVER", "cub": "CUB",
    "npp": "NPP", "cupti": "CUPTI", "other": "Other CUDA names",
}
# Library of a name the HIP tables do not list, from its spelling (first match wins).
LIBRARY_BY_PREFIX = [
    (re.compile(r"npp|NPP|NV_NPP"), "npp"),
    (re.compile(r"cupti|CUPTI|CUpti|Cupti"), "cupti"),
    (re.compile(r"cublas|CUBLAS|nvblas"), "cublas"),
    (re.compile(r"cudnn|CUDNN"), "cudnn"),
    (re.compile(r"cufft|CUFFT"), "cufft"),
    (re.compile(r"_?curand|CURAND"), "curand"),
    (re.compile(r"cusparse|CUSPARSE"), "cusparse"),
    (re.compile(r"cusolver|CUSOLVER"), "cusolver"),
    (re.compile(r"nvrtc|NVRTC"), "nvrtc"),
    (re.compile(r"cuComplex|cuCmul|cuCadd|cuCsub|cuCdiv|cuCreal|cuCimag|cuConj|cuCabs"),
     "complex"),
    (re.compile(r"__nv|__NV|crt/|nvfunctional"), "device"),
    (re.compile(r"cuda[A-Z_]|CUDART|__CUDA|_CUDA|CR_CUDART|cuda_|cudart|device_|driver_|"
                r"vector_types|surface_|texture_|channel_|math_|library_types"), "runtime"),
    (re.compile(r"cu[A-Z]|CU[A-Za-z_]|PFN_|CUDA_|cuda\.h|cuda[A-Z]|generated_cuda"), "driver"),
]
# Libraries whose language-level names stay as written when HIP keeps them as written.
LANGUAGE_LIBRARIES = frozenset({"device", "runtime", "driver", "complex"})
PLAIN = re.compile(r"[A-Za-z_$][\w$:]*\Z")
PYTORCH_ONLY_HEADERS = {"SparseCUDAApplyUtils"}  # a PyTorch path piece, not a header


def keeps_spelling(entry: Entry, cuda_looking: re.Pattern[str]) -> bool:
    """Whether a CUDA name with no vendor rename stays as written on the vendor target.

    True for language-level names without a CUDA prefix that HIP also keeps as written
    (``__syncthreads``, ``atomicAdd``, math functions): the vendor's CUDA porting rules
    leave them unchanged, so its compiler takes them as written. Vendor-prefixed API
    (``cudaFoo``, ``__nv_foo``) and library names never qualify.
    """
    return (entry.main.to == entry.name and entry.library in LANGUAGE_LIBRARIES
            and not cuda_looking.fullmatch(entry.name))


def classify(name: str) -> str:
    for pattern, library in LIBRARY_BY_PREFIX:
        if pattern.match(name):
            return library
    return "other"


def infer_kind(name: str) -> str:
    """Kind of a name the HIP tables do not list, inferred from its spelling."""
    if re.fullmatch(r"[A-Z0-9_]+", name):
        return "constant"
    if name.endswith("_t") or name.startswith(("PFN_", "CU")) or re.match(r"[A-Z][a-z]", name):
        return "type"
    return "function"


def _q(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(name: str, kind: str, to: str | None, hip: Entry | None) -> str:
    parts = [f"kind: {kind}"]
    if to is not None:
        parts.append(f"to: {to}")
    if hip is not None:
        for label in ("since", "deprecated", "changed", "removed"):
            value = getattr(hip, f"cuda_{label}")
            if value:
                parts.append(f"cuda_{label}: {_q(value)}")
    key = name if PLAIN.match(name) else _q(name)
    return f"  {key}: {{{', '.join(parts)}}}"


def load_json(path: Path) -> dict[str, str]:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def merged(*maps: dict[str, str]) -> dict[str, str]:
    """Union of fact maps; a name mapped two different ways is a data error."""
    out: dict[str, str] = {}
    for m in maps:
        for key, value in m.items():
            if out.setdefault(key, value) != value:
                raise SystemExit(f"conflicting facts for {key}: {out[key]} vs {value}")
    return out


def hand_written(out_dir: Path) -> tuple[set[str], set[str]]:
    """Identifier and header names defined by hand-written packs of the output folder."""
    names: set[str] = set()
    headers: set[str] = set()
    for path in sorted(out_dir.glob("*.yaml")):
        if path.name == "target.yaml":
            continue
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if data.get("generated"):
            continue
        for section in ("identifiers", "macros", "calls"):
            names |= set(data.get(section) or {})
        names |= set(data.get("keep") or [])
        headers |= set(data.get("headers") or {})
    return names, headers


def _is_generated(path: Path) -> bool:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return bool(data.get("generated"))


def generate(reference: Path, out_dir: Path) -> list[Path]:
    facts = reference / "musa-mapping"
    names = merged(load_json(facts / "general.json"), load_json(facts / "dnn-naming.json"))
    header_facts = merged(load_json(facts / "include.json"), load_json(facts / "dnn-header.json"))
    banner = ("# Generated by tools/gen_musa_rules.py from MUSA mapping facts (MooreThreads/torch_musa,\n"
              "# BSD-3-Clause) and the CUDA-side facts of rules/hip. Do not edit: rerun the script.")
    return write_packs(out_dir, names, header_facts, banner, SOURCE)


# HIP packs that hold ROCm facts only (what hipCUB, rocThrust and HIP 6.4 ship for CCCL,
# libcu++, <nv/target>, WMMA, CUTLASS): MUSA's facts say nothing about these families.
HIP_ONLY_PACKS = ("cccl.yaml", "cutlass.yaml")


def _hip_only(source: str) -> bool:
    return Path(source.rsplit(":", 1)[0]).name in HIP_ONLY_PACKS


def write_packs(out_dir: Path, names: dict[str, str], header_facts: dict[str, str],
                banner: str, source: str) -> list[Path]:
    """Write one pack per library: every name of ``names`` plus every CUDA name the HIP
    tables know, the latter without ``to`` unless it is a language-level name."""
    hip = load_table("hip", [ROOT / "rules"], use_cache=False)
    cuda_looking = hip.unknown_regex()
    skip_names, skip_headers = hand_written(out_dir)
    hip_identifiers = {n: e for n, e in hip.identifiers.items() if not _hip_only(e.source)}
    hip_headers = {n: h for n, h in hip.headers.items() if not _hip_only(h.source)}

    packs: dict[str, list[str]] = {}
    header_lines: dict[str, list[str]] = {}
    for name in sorted(set(names) | set(hip_identifiers)):
        if name in skip_names:
            continue
        entry = hip_identifiers.get(name)
        library = entry.library if entry else classify(name)
        kind = entry.kind if entry else infer_kind(name)
        to = names.get(name)
        if to is None and entry is not None and keeps_spelling(entry, cuda_looking):
            to = name  # a kernel-language name the vendor's porting rules leave as written
        packs.setdefault(library, []).append(render(name, kind, to, entry))
    for header in sorted(set(header_facts) | set(hip_headers)):
        if header in skip_headers or header in PYTORCH_ONLY_HEADERS:
            continue
        hentry = hip_headers.get(header)
        library = hentry.library if hentry else classify(header)
        parts = []
        if header in header_facts:
            parts.append(f"to: {_q(header_facts[header])}")
        if hentry is not None and hentry.is_main:
            parts.append("main: true")
        value = f"{{{', '.join(parts)}}}" if parts else "null"
        header_lines.setdefault(library, []).append(f"  {header}: {value}")

    written = []
    for library in sorted(set(packs) | set(header_lines)):
        lines = [
            banner,
            f"library: {library}",
            f"title: {_q(TITLES.get(library, library))}",
            f"source: {_q(source)}",
            "generated: true",
        ]
        if library in header_lines:
            lines.append("headers:")
            lines += header_lines[library]
        if library in packs:
            lines.append("identifiers:")
            lines += packs[library]
        path = out_dir / f"{library}.yaml"
        if path.exists() and not _is_generated(path):
            # A hand-written pack owns this library's name: the rest goes beside it.
            path = out_dir / f"{library}-generated.yaml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, default=ROOT.parent / "shared" / "reference")
    parser.add_argument("--out", type=Path, default=ROOT / "rules" / "musa")
    args = parser.parse_args(argv)
    if not (args.reference / "musa-mapping").is_dir():
        print(f"error: {args.reference}/musa-mapping not found", file=sys.stderr)
        return 2
    for path in generate(args.reference, args.out):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
