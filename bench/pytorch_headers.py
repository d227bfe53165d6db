#!/usr/bin/env python3
"""Check the ``--framework pytorch`` header rules against a real PyTorch include layout.

Usage: python bench/pytorch_headers.py TORCH_WHEEL_OR_INCLUDE_DIR
(e.g. ``pip download torch==2.13.0 --no-deps -d /tmp/whl`` and pass the .whl)

Prints: how many header names the packs map exist in PyTorch's layout (every CUDA-side
name should), and how many of PyTorch's own CUDA headers (``ATen/cuda``, ``c10/cuda``,
``ATen/native/cuda`` ...) each target maps: by rule, by path pattern (HIP) or not at all
(reported as CP600). The ROCm layout (``c10/hip``, ``ATen/hip``) is not in a CPU or CUDA
wheel, so the HIP side of each pair is checked against the facts table, not here.
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cudaport import Options, translate_bytes  # noqa: E402
from cudaport.rules import get_compiled  # noqa: E402


def layout(source: Path) -> set[str]:
    if source.is_dir():
        return {str(p.relative_to(source)) for p in source.rglob("*") if p.is_file()}
    with zipfile.ZipFile(source) as wheel:
        return {n[len("torch/include/"):] for n in wheel.namelist()
                if n.startswith("torch/include/") and not n.endswith("/")}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    headers = layout(Path(argv[0]))
    cuda_headers = sorted(h for h in headers if h.startswith(
        ("ATen/cuda/", "c10/cuda/", "ATen/native/cuda/", "ATen/native/nested/cuda/",
         "ATen/native/quantized/cuda/", "ATen/native/sparse/cuda/",
         "ATen/native/transformers/cuda/")))
    print(f"PyTorch layout: {len(headers)} headers, {len(cuda_headers)} under CUDA folders")
    for target in ("hip", "musa"):
        options = Options(target=target, framework="pytorch")
        compiled = get_compiled(options)
        framework = {name.decode() for name, r in compiled.headers.items()
                     if r.entry.library == "pytorch"}
        torch_side = sorted(h for h in framework if h.startswith(("ATen/", "c10/")))
        missing = [h for h in torch_side if h not in headers]
        by_rule = by_pattern = reported = 0
        for header in cuda_headers:
            src = f"#include <{header}>\n".encode()
            result = translate_bytes(src, options, "probe.cpp")
            if any(f.code == "CP600" for f in result.findings):
                reported += 1
            elif header in framework:
                by_rule += 1
            elif result.output != src:
                by_pattern += 1
        print(f"{target}: {len(torch_side)} ATen/c10 header rules, {len(missing)} not in "
              f"PyTorch's layout{': ' + ', '.join(missing) if missing else ''}; of the "
              f"{len(cuda_headers)} CUDA headers: {by_rule} by rule, {by_pattern} by path "
              f"pattern, {reported} reported (CP600)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
