#!/usr/bin/env python3
"""Write the HIP packs the HIPIFY tables lack: NCCL -> RCCL, bfloat16 and FP8 types.

Usage:
  python tools/gen_hip_extra_rules.py --rccl /work/.mirror/ROCm+rccl/repo \\
                                      --clr /work/.mirror/ROCm+clr/repo \\
                                      [--rocm72 /var/cache/cudaport/rocm-7.2] [--out rules/hip]

Facts come from the projects' own public headers, read from git snapshots (bare git
directories; the ``fetch`` tool or ``git clone --bare`` provides them):
- RCCL (ROCm/rccl, MIT): ``src/nccl.h.in`` becomes ``rccl/rccl.h`` (CMakeLists.txt
  ``configure_file``) and declares the NCCL API under NCCL's own names; the snapshot's
  names map with no version; names only ROCm 7.2's installed ``rccl/rccl.h`` declares
  (the root tools/setup-rocm.sh 7.2 makes, ``--rocm72``; its librccl-dev version is read
  from the root's dpkg status) map from 7.2.0 (older versions were not compiled here);
- HIP (ROCm/clr, MIT): ``amd_hip_bf16.h`` (``__hip_bfloat16`` and the bf16 intrinsics
  under CUDA's names, present at tag rocm-5.7.0) and ``amd_hip_fp8.h`` (FNUZ FP8 types
  from rocm-6.2.0; the OCP types CUDA's ``__nv_fp8_*`` correspond to arrive after
  rocm-6.2.2, in ROCm 6.3).

The CUDA side is ``rules/hip/cuda13-names.txt`` (every public CUDA 13 name). Only names
present on both sides are written; everything else stays with the other packs. Run it
before tools/gen_hip_rules.py (which skips names these packs define) and
tools/gen_cuda13_names.py. Rerunning gives identical files.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
WORD = re.compile(r"[A-Za-z_]\w*")

RCCL_HEADER = "src/nccl.h.in"
BF16_HEADER = "hipamd/include/hip/amd_detail/amd_hip_bf16.h"
FP8_HEADER = "hipamd/include/hip/amd_detail/amd_hip_fp8.h"
BF16_SINCE = "rocm-5.7.0"
BF16_RAW = "rocm-6.2.0"  # the header's rewrite: __hip_bfloat16_raw, __hip_bfloat162_raw
FP8_FIRST = "rocm-6.2.0"  # FNUZ types, conversion helpers, interpretation/saturation enums
FP8_OCP_VERSION = "6.3.0"
# Before 5.7, HIP's only bfloat16 is rocBLAS's hip_bfloat16 (hip/hip_bfloat16.h, in the
# Debian HIP 5.2.3 headers): same storage, but none of CUDA's bf16 intrinsics.
BF16_FALLBACK = ("HIP before 5.7 has only hip_bfloat16 (hip/hip_bfloat16.h): it converts "
                 "from and to float, but CUDA's bf16 intrinsics do not take it")  # OCP structs: in ROCm/clr after rocm-6.2.2


def git_show(git_dir: Path, rev: str, path: str) -> str:
    return subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{rev}:{path}"],
                          check=True, capture_output=True, text=True).stdout


def git_head(git_dir: Path) -> str:
    return subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()


def cuda_names(library: str) -> dict[str, str]:
    """name -> kind of the library's public CUDA 13 names."""
    path = ROOT / "rules" / "hip" / "cuda13-names.txt"
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            lib, name, kind = line.split("\t")
            if lib == library:
                out[name] = kind
    return dict(sorted(out.items()))


# NCCL names RCCL spells differently, with the same enum value (NCCL 2.24+ nccl.h and
# RCCL src/nccl.h.in both give 10 and 11), and what to know about them.
NCCL_RENAMED = {
    "ncclFloat8e4m3": ("ncclFp8E4M3", "RCCL declares it only when built with RCCL_FLOAT8"),
    "ncclFloat8e5m2": ("ncclFp8E5M2", "RCCL declares it only when built with RCCL_FLOAT8"),
}


# NCCL's opaque struct behind a handle typedef (nccl.h: `typedef struct ncclWindow_vidmem*
# ncclWindow_t;`, the struct defined only in nccl_device/impl/core__types.h). Code that
# names the struct (TransformerEngine's comm_window.h declares `struct ncclWindow_vidmem;`
# to hold an ncclWindow_t) gets the struct the installed rccl/rccl.h's typedef points to.
NCCL_HANDLE_STRUCTS = {"ncclWindow_vidmem": "ncclWindow_t"}

INSTALLED_RCCL = "usr/include/rccl/rccl.h"
DPKG_STATUS = "var/lib/dpkg/status"


def installed_package_version(root: Path, package: str) -> str:
    """The version dpkg records for ``package`` in the root (``7.2.4-1~exp3``)."""
    text = (root / DPKG_STATUS).read_text(encoding="utf-8", errors="replace")
    for stanza in text.split("\n\n"):
        if re.search(rf"(?m)^Package: {re.escape(package)}$", stanza):
            m = re.search(r"(?m)^Version: (\S+)$", stanza)
            if m:
                return m.group(1)
    raise SystemExit(f"error: {root / DPKG_STATUS} has no version of {package}")


def nccl_pack(rccl: Path, rocm72: Path) -> str:
    commit = git_head(rccl)
    header = git_show(rccl, "HEAD", RCCL_HEADER)
    rccl_names = set(WORD.findall(header))
    installed_text = (rocm72 / INSTALLED_RCCL).read_text(encoding="utf-8")
    installed = set(WORD.findall(installed_text))
    handle_structs = {}
    for struct, handle in NCCL_HANDLE_STRUCTS.items():
        m = re.search(rf"typedef\s+struct\s+(\w+)\s*\*\s*{handle}\s*;", installed_text)
        if m:
            handle_structs[struct] = (m.group(1), handle)
    version = installed_package_version(rocm72, "librccl-dev")
    lines = [
        "# Generated by tools/gen_hip_extra_rules.py. Do not edit: rerun the script.",
        f"# Facts: RCCL (ROCm/rccl, MIT) {RCCL_HEADER} at commit {commit[:12]}, installed",
        "# as rccl/rccl.h, declares these NCCL names (unchanged, or renamed with a note);",
        f"# ROCm 7.2's installed rccl/rccl.h (librccl-dev {version}) declares those with",
        '# to_since "7.2.0" too (the window API, ncclCommShrink ...). NCCL names neither',
        "# declares are in cuda13-nccl.yaml (no equivalent).",
        "library: nccl",
        'title: "NCCL (RCCL on HIP)"',
        f'source: "ROCm/rccl {RCCL_HEADER} at {commit[:12]}; rccl/rccl.h of librccl-dev '
        f'{version}"',
        "generated: true",
        "headers:",
        '  nccl.h: {to: "rccl/rccl.h"}',
        "identifiers:",
    ]
    for name, kind in cuda_names("nccl").items():
        if name in rccl_names:
            lines.append(f"  {name}: {{kind: {kind}, to: {name}}}")
        elif name in NCCL_RENAMED and NCCL_RENAMED[name][0] in rccl_names:
            to, note = NCCL_RENAMED[name]
            if name in installed:  # ROCm 7.2's rccl/rccl.h uses NCCL's own name
                lines.append(f'  {name}: {{kind: {kind}, to: {name}, before: {{"7.2.0": {to}}}, '
                             f'note: "before ROCm 7.2 {note}"}}')
                continue
            lines.append(f'  {name}: {{kind: {kind}, to: {to}, note: "{note}"}}')
        elif name in installed:
            lines.append(f'  {name}: {{kind: {kind}, to: {name}, to_since: "7.2.0"}}')
        elif name in handle_structs:
            to, handle = handle_structs[name]
            lines.append(f'  {name}: {{kind: {kind}, to: {to}, to_since: "7.2.0", note: "the '
                         f'opaque struct {handle} points to in RCCL; NCCL\'s device-side '
                         f'fields (nccl_device) are not RCCL\'s"}}')
    return "\n".join(lines) + "\n"


def _ported_names() -> set[str]:
    """Names the hand-written packs of rules/hip/ports/ define (their port wins)."""
    names: set[str] = set()
    for path in sorted((ROOT / "rules" / "hip" / "ports").glob("*.yaml")):
        names.update((yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("identifiers") or {})
    return names


def lowp_pack(clr: Path) -> str:
    commit = git_head(clr)
    bf16 = set(WORD.findall(git_show(clr, BF16_SINCE, BF16_HEADER)))
    bf16_raw = set(WORD.findall(git_show(clr, BF16_RAW, BF16_HEADER)))
    fp8_first = set(WORD.findall(git_show(clr, FP8_FIRST, FP8_HEADER)))
    fp8_now = set(WORD.findall(git_show(clr, "HEAD", FP8_HEADER)))
    lines = [
        "# Generated by tools/gen_hip_extra_rules.py. Do not edit: rerun the script.",
        "# Facts: HIP's own headers (ROCm/clr, MIT): hipamd/include/hip/amd_detail/",
        f"# amd_hip_bf16.h at tag {BF16_SINCE} (bfloat16 type and intrinsics under CUDA's",
        f"# names; names new at tag {BF16_RAW} from then) and amd_hip_fp8.h at tag {FP8_FIRST}",
        f"# and at commit {commit[:12]} (OCP FP8",
        f"# types, first released after rocm-6.2.2, i.e. in ROCm {FP8_OCP_VERSION}).",
        "library: device",
        'title: "bfloat16 and FP8 types and intrinsics"',
        f'source: "ROCm/clr amd_hip_bf16.h@{BF16_SINCE} and @{BF16_RAW}, amd_hip_fp8.h@{FP8_FIRST} '
        f'and @{commit[:12]}"',
        "generated: true",
        "headers:",
        '  cuda_bf16.h: {to: "hip/hip_bf16.h", to_since: "5.7.0", fallback: "hip/hip_bfloat16.h"}',
        '  cuda_fp8.h: {to: "hip/hip_fp8.h", to_since: "6.2.0"}',
        "identifiers:",
    ]
    ported = _ported_names()
    for name, kind in cuda_names("device").items():
        if name in ported:
            continue  # (the hand-written ports pack maps it to the portable header)
        # cuda_bf16.h: `typedef __nv_bfloat16 nv_bfloat16;` (and nv_bfloat162).
        alias = "__" + name if name in ("nv_bfloat16", "nv_bfloat162") else name
        hip = re.sub(r"\A__nv_", "__hip_", re.sub(r"\A__NV_", "__HIP_", alias))
        if re.search(r"bfloat16|bf16", name, re.IGNORECASE) and hip in bf16:
            extra = f", fallback: {{to: hip_bfloat16, note: \"{BF16_FALLBACK}\"}}" \
                if alias == "__nv_bfloat16" else ""
            lines.append(f'  {name}: {{kind: {kind}, to: {hip}, to_since: "5.7.0"{extra}}}')
        elif re.search(r"bfloat16|bf16", name, re.IGNORECASE) and hip in bf16_raw:
            lines.append(f'  {name}: {{kind: {kind}, to: {hip}, to_since: "6.2.0"}}')
        elif re.search(r"fp8|E4M3|E5M2|saturation|SATFINITE|NOSAT", name) and hip != name:
            if hip in fp8_first:
                lines.append(f'  {name}: {{kind: {kind}, to: {hip}, to_since: "6.2.0"}}')
            elif hip in fp8_now and kind != "type":
                lines.append(f'  {name}: {{kind: {kind}, to: {hip}, to_since: "{FP8_OCP_VERSION}"}}')
            elif hip in fp8_now:
                # (ROCm 7.2.4's amd_hip_fp8.h, its float constructor run on the host against
                # CUDA 13's cuda_fp8.hpp: inf -> 0x7F/0x7C where CUDA gives 0x7E/0x7B, -NaN
                # -> 0xFF where CUDA gives 0x7F; hipcc for gfx942 rejects its operator float
                # in device code as host-only)
                caveat = ("HIP's OCP FP8 type converts a float infinity to NaN (E4M3) or infinity "
                          "(E5M2) where CUDA's saturates to the largest finite value, and keeps the "
                          "sign of a NaN CUDA makes positive; on gfx942 (MI300), which computes "
                          "natively only in the FNUZ variant (" + hip + "_fnuz, another exponent "
                          "bias), its conversions are host-only")
                lines.append(f'  {name}: {{kind: {kind}, to: {hip}, '
                             f'to_since: "{FP8_OCP_VERSION}", caveat: "{caveat}"}}')
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rccl", type=Path, default=Path("/work/.mirror/ROCm+rccl/repo"))
    parser.add_argument("--clr", type=Path, default=Path("/work/.mirror/ROCm+clr/repo"))
    parser.add_argument("--rocm72", type=Path, default=Path(
        os.environ.get("CUDAPORT_ROCM72_DIR", "/var/cache/cudaport/rocm-7.2")))
    parser.add_argument("--out", type=Path, default=ROOT / "rules" / "hip")
    args = parser.parse_args(argv)
    if not (args.rocm72 / INSTALLED_RCCL).is_file():
        print(f"error: {args.rocm72 / INSTALLED_RCCL} not found (tools/setup-rocm.sh 7.2)",
              file=sys.stderr)
        return 2
    for git_dir in (args.rccl, args.clr):
        if not git_dir.is_dir():
            print(f"error: {git_dir} is not a git directory", file=sys.stderr)
            return 2
    (args.out / "nccl.yaml").write_text(nccl_pack(args.rccl, args.rocm72), encoding="utf-8")
    (args.out / "lowp.yaml").write_text(lowp_pack(args.clr), encoding="utf-8")
    print(args.out / "nccl.yaml")
    print(args.out / "lowp.yaml")
    return 0


if __name__ == "__main__":
    sys.exit(main())
