"""Shared fixtures: translation helpers and paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from cudaport import Options, translate_bytes

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    """Rule-table cache in a per-session temporary folder, never the user's."""
    monkeypatch.setenv("CUDAPORT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))


def tr(src: str | bytes, **options) -> str:
    """Translate and return text (bytes in, bytes out when given bytes)."""
    data = src.encode() if isinstance(src, str) else src
    out = translate_bytes(data, Options(**options)).output
    return out.decode() if isinstance(src, str) else out


def compile_hip(path: Path, toolchain: str) -> None:
    """Compile ``path`` (C++17) with one HIP toolchain and fail the test with the compiler's
    errors: "rocm" the newest ROCm folder (7.2), "rocm-7.2" or "rocm-6.4" that one (object
    code, -c), "system" the host's HIP 5.2 (-fsyntax-only)."""
    import os
    import subprocess

    from cudaport.run.verify import find_compiler

    if toolchain.startswith("rocm-"):
        compiler = find_compiler(toolchain="rocm", rocm=toolchain[5:])
    else:
        compiler = find_compiler(toolchain=toolchain)
    if compiler is None:
        if os.environ.get("CUDAPORT_SKIP_HIP") == "1":
            pytest.skip("no HIP compiler and CUDAPORT_SKIP_HIP=1")
        pytest.fail(f"no {toolchain} HIP toolchain: run tools/setup-system.sh")
    proc = subprocess.run(compiler.command(path, flags=["-std=c++17"]), capture_output=True,
                          text=True, env={**os.environ, **dict(compiler.env)})
    assert proc.returncode == 0, proc.stderr[-3000:]


def rocm_wrapper(version: str = "7.2") -> Path:
    """The cudaport-hipcc of the ROCm root for ``version`` ("7.2": $CUDAPORT_ROCM72_DIR,
    "6.4": $CUDAPORT_ROCM_DIR, else /var/cache/cudaport/rocm-X); the test fails without
    it (skips with CUDAPORT_SKIP_HIP=1)."""
    import os

    variable = "CUDAPORT_ROCM72_DIR" if version == "7.2" else "CUDAPORT_ROCM_DIR"
    root = Path(os.environ.get(variable, f"/var/cache/cudaport/rocm-{version}"))
    wrapper = root / "cudaport-hipcc"
    if not os.access(wrapper, os.X_OK):
        if os.environ.get("CUDAPORT_SKIP_HIP") == "1":
            pytest.skip(f"no ROCm {version} toolchain and CUDAPORT_SKIP_HIP=1")
        pytest.fail(f"no ROCm {version} toolchain: run tools/setup-rocm.sh {version}")
    return wrapper


def compile_object(path: Path, arch: str, version: str = "7.2") -> None:
    """Compile ``path`` to object code (device code generated, inline assembly assembled)
    with the ROCm root of ``version`` for one GPU; fail the test with the compiler's errors."""
    import subprocess

    proc = subprocess.run([str(rocm_wrapper(version)), f"--offload-arch={arch}", "-std=c++17",
                           "-c", str(path), "-o", str(path.with_suffix(".o"))],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]


def run_portable_host_program(folder: Path, functions: set[bytes], program: bytes) -> list[str]:
    """Build with g++ against ROCm 7.2's hip_runtime_api.h, and run, ``program`` after the
    portable header's sections that ``functions`` need (host functions checked with
    stand-ins for the HIP calls they make); its output lines."""
    import subprocess

    from cudaport.translate.portable import HEADER_NAME, block, closure, parse

    header = parse((Path(__file__).parent.parent / "rules" / "hip" / "ports" / HEADER_NAME).read_bytes())
    source = folder / "program.cpp"
    source.write_bytes(b"#include <hip/hip_runtime_api.h>\n" + block(header, closure(header, functions))
                       + program)
    subprocess.run(["g++", "-std=c++17", "-D__HIP_PLATFORM_AMD__", "-I", str(hip_headers_for_gxx(folder)),
                    str(source), "-o", str(folder / "program")], check=True)
    return subprocess.run([str(folder / "program")], capture_output=True, text=True,
                          check=True).stdout.splitlines()


def hip_headers_for_gxx(folder: Path, version: str = "7.2") -> Path:
    """A folder holding only ``hip/`` of the ROCm root's headers, for ``g++ -I``: host code
    against HIP's runtime API declarations, without the root's own C library headers."""
    include = folder / "include"
    include.mkdir()
    (include / "hip").symlink_to(rocm_wrapper(version).parent / "usr" / "include" / "hip")
    return include
