"""bench/device_compare.py, which compares the portable header's functions and the PTX
rewrites with CUDA's own on an NVIDIA GPU: every value function the rules port to the
header has a comparison, and the program it writes builds with nvcc (no GPU needed)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import device_compare  # noqa: E402

# Not values: a sleep, a cooperative group, and address-space conversions whose results
# are addresses; and warp reductions, whose portable form is HIP's (__shfl, no mask)
NOT_VALUES = {"__nanosleep", "labeled_partition", "__reduce_and_sync", "__reduce_or_sync",
              "__reduce_xor_sync", "__cvta_generic_to_shared", "__cvta_shared_to_generic",
              "__cvta_generic_to_global", "__cvta_global_to_generic", "__cvta_generic_to_local",
              "__cvta_local_to_generic"}


def test_every_ported_value_function_is_compared():
    todo, unknown = device_compare.cases()
    assert set(unknown) <= NOT_VALUES, set(unknown) - NOT_VALUES
    names = {c["name"].split("(")[0] for c in todo}
    assert {"__vadd4", "__dp4a", "__hmax2_nan", "__fmaf_rz", "__ddiv_ru", "__vibmax_s16x2",
            "__nv_cvt_float_to_fp4"} <= names
    # each comparison calls the CUDA name on one side and its port on the other
    for case in todo:
        cuda = case["name"].split("(")[0]
        assert re.search(rf"\b{cuda}\b", case["cuda"]) and "cudaport_" in case["port"], case


def test_ptx_forms_compare_cudaports_own_translation():
    cases, left = device_compare.ptx_cases()
    by_name = {c["name"]: c for c in cases}
    lop3 = by_name["lop3.b32 0x96"]
    assert 'asm("lop3.b32' in lop3["cuda_fn"] and "asm" not in lop3["port_fn"]
    assert "__umulhi(" in by_name["mul.hi.u32"]["port_fn"]
    assert not any(name.startswith("mul.") for name in left)


@pytest.mark.slow
def test_program_builds_with_nvcc(tmp_path):
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if not Path(nvcc).exists():
        pytest.skip("no nvcc")
    exe, left = device_compare.build(tmp_path, nvcc, "sm_90", 10)
    assert exe.is_file()
    assert not [line for line in left if "does not build" in line], left
    # without a GPU the program says so and exits 2 (never a crash)
    run = subprocess.run([str(exe), "10"], capture_output=True, text=True)
    assert run.returncode in (0, 2), run.stderr
