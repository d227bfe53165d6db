#!/usr/bin/env python3
"""Write the portable header's ``device_error_strings`` section: CUDA declares
``cudaGetErrorString``/``cudaGetErrorName`` for device code too; HIP's are host functions.
The section gives device code the texts the target's host functions return, read from
them: a host program built with ROCm 7.2's hipcc (tools/setup-rocm.sh's root) prints
``hipGetErrorName``/``hipGetErrorString`` of every code below 1100 they know (no GPU
needed), and the switch is written by number, so it compiles on every HIP version.

    python3 tools/gen_device_error_strings.py [--root /var/cache/cudaport/rocm-7.2]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "rules" / "hip" / "ports" / "cudaport_portable.h"
SECTION = "device_error_strings"

PROGRAM = r"""
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstring>
int main() {
  for (int e = 0; e < 1100; ++e) {
    const char* name = hipGetErrorName((hipError_t)e);
    const char* text = hipGetErrorString((hipError_t)e);
    if (name && text && std::strstr(name, "Unknown") == nullptr)
      std::printf("%d\t%s\t%s\n", e, name, text);
  }
}
"""


def read_table(root: Path) -> list[tuple[int, str, str]]:
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        source = Path(tmp) / "errors.cpp"
        source.write_text(PROGRAM)
        exe = Path(tmp) / "errors"
        subprocess.run([str(root / "cudaport-hipcc"), "-x", "hip", "--offload-arch=gfx90a",
                        str(source), "-o", str(exe)], check=True)
        out = subprocess.run([str(root / "cudaport-run"), str(exe)], check=True,
                             capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        code, name, text = line.split("\t", 2)
        rows.append((int(code), name, text))
    return rows


def c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def section(rows: list[tuple[int, str, str]], version: str) -> str:
    def switch(fn: str, pick: int, fallback: str) -> list[str]:
        out = [f"CUDAPORT_HD static inline const char* {fn}(hipError_t error) {{",
               "  switch (static_cast<int>(error)) {"]
        out += [f"    case {row[0]}: return {c_string(row[pick])};" for row in rows]
        out += [f"    default: return {c_string(fallback)};", "  }", "}"]
        return out

    lines = [
        f"//@ {SECTION} needs=prelude provides=cudaport_device_error_string,"
        "cudaport_device_error_name",
        "#ifndef CUDAPORT_PORTABLE_DEVICE_ERROR_STRINGS",
        "#if defined(HIP_INCLUDE_HIP_HIP_RUNTIME_API_H) && defined(__cplusplus)",
        "#define CUDAPORT_PORTABLE_DEVICE_ERROR_STRINGS",
        "// cudaGetErrorString / cudaGetErrorName called in device code (CUDA declares both for",
        "// it, cuda_device_runtime_api.h); HIP's hipGetErrorString / hipGetErrorName are host",
        "// functions. These return, in device and host code, the texts the host functions of",
        f"// ROCm {version} return for each code (tools/gen_device_error_strings.py read them from",
        "// hipGetErrorName / hipGetErrorString; the codes by number, the same in every HIP).",
        *switch("cudaport_device_error_string", 2, "unknown error"),
        *switch("cudaport_device_error_name", 1, "hipErrorUnknown"),
        "#endif",
        "#endif",
        "//@ end",
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path("/var/cache/cudaport/rocm-7.2"))
    args = parser.parse_args()
    rows = read_table(args.root)
    if not rows:
        print("no error codes read", file=sys.stderr)
        return 1
    text = HEADER.read_text()
    new = section(rows, "7.2")
    start = text.find(f"//@ {SECTION} ")
    if start >= 0:
        end = text.index("//@ end\n", start) + len("//@ end\n")
        text = text[:start] + new + text[end:]
    else:
        text = text.rstrip("\n") + "\n\n" + new
    HEADER.write_text(text)
    print(f"{len(rows)} codes written to {HEADER.relative_to(ROOT)} ({SECTION})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
