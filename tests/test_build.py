"""`cudaport verify --build`: translate a tree, run the project's own make or CMake against
ROCm 7.2 (the root `tools/setup-rocm.sh 7.2` installs), report per project: built, or the
first error on the CUDA line with the finding that explains it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cudaport.builds.build import Mapper, first_error, projects, rocm72_dir
from cudaport.cli.main import main
from cudaport.options import Options

HAVE_ROCM72 = os.access(rocm72_dir() / "cudaport-run", os.X_OK)
needs_rocm72 = pytest.mark.skipif(not HAVE_ROCM72, reason="needs `bash tools/setup-rocm.sh 7.2`")

MAKEFILE = """CUDA_PATH ?= /usr/local/cuda
NVCC = $(CUDA_PATH)/bin/nvcc
NVCCFLAGS = -O2 -arch=sm_80 -Xcompiler -Wall -lineinfo {extra}
app: main.o kernel.o
\t$(CC) -o $@ $^ -L$(CUDA_PATH)/lib64 -lcudart {libs}
main.o: main.c
\t$(CC) -I$(CUDA_PATH)/include -c $< -o $@
kernel.o: kernel.cu
\t$(NVCC) $(NVCCFLAGS) -c $< -o $@
clean:
\trm -f app *.o
"""
MAIN_C = b"""#include <cuda_runtime.h>
void scale(float* x, int n);
int main(void) { float* x; cudaMalloc((void**)&x, 64 * sizeof(float)); scale(x, 64);
  cudaDeviceSynchronize(); cudaFree(x); return 0; }
"""
KERNEL = b"""#include <cuda_runtime.h>
__global__ void k(float* x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2; }
extern "C" void scale(float* x, int n) { k<<<1, 64>>>(x, n); }
"""


def _project(tmp_path: Path, extra: str = "", libs: str = "", kernel: bytes = KERNEL) -> Path:
    src = tmp_path / "proj"
    src.mkdir()
    (src / "Makefile").write_text(MAKEFILE.format(extra=extra, libs=libs))
    (src / "main.c").write_bytes(MAIN_C.replace(b"void scale", b"extern void scale"))
    (src / "kernel.cu").write_bytes(kernel)
    return src


def test_projects_are_the_topmost_build_folders(tmp_path: Path):
    for rel in ("a/Makefile", "a/sub/Makefile", "b/CMakeLists.txt", "b/x/CMakeLists.txt",
                "c/CMakeLists.txt", "c/Makefile", "d/readme"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    assert [(p.relative_to(tmp_path).as_posix(), s) for p, s in projects(tmp_path)] == [
        ("a", "make"), ("b", "cmake"), ("c", "make")]


@pytest.mark.parametrize("output,expected", [
    ("hipcc -c k.cu\nk.cu:3:5: error: use of undeclared identifier 'x'\nmake: *** [k.o] Error 1\n",
     ("k.cu:3:5: error: use of undeclared identifier 'x'", "k.cu", 3, 5)),
    ("ld.lld: error: unable to find library -lnvjpeg\nclang: error: linker command failed\n",
     ("ld.lld: error: unable to find library -lnvjpeg", None, 0, 0)),
    ("/usr/bin/ld: main.o: in function `main':\nmain.c:(.text+0x1): undefined reference to "
     "`cudaFoo'\n", ("main.c:(.text+0x1): undefined reference to `cudaFoo'", None, 0, 0)),
    ("CMake Error at /usr/share/cmake/FindThreads.cmake:129 (message):\n  FindThreads only works"
     " if either C or CXX language is enabled\nCall Stack (most recent call first):\n",
     ("CMake Error at /usr/share/cmake/FindThreads.cmake:129 (message): FindThreads only works"
      " if either C or CXX language is enabled Call Stack (most recent call first):", None, 0, 0)),
    ("make: *** No rule to make target 'x.cu'.  Stop.\n",
     ("make: *** No rule to make target 'x.cu'.  Stop.", None, 0, 0)),
])
def test_first_error(output, expected):
    assert first_error(output) == expected


def test_errors_map_back_to_the_cuda_line(tmp_path: Path):
    """A line of the translated file maps to the CUDA file's line through the edits (the
    main header added on top shifts every line by one)."""
    from cudaport.builds.build import report

    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_bytes(b"__global__ void k() {}\nint f() { cudaDeviceReset(); return y; }\n")
    out = tmp_path / "out"
    from cudaport.builds.build import translate_tree

    outcomes = translate_tree(src, out, Options(target_version="7.2"))
    text = (out / "k.cu").read_text()
    line = text.splitlines().index("int f() { hipDeviceReset(); return y; }") + 1
    assert line == 3
    col = text.splitlines()[line - 1].index("y;") + 1
    built = report(out, "make", 2, f"{out}/k.cu:{line}:{col}: error: use of undeclared identifier "
                   "'y'\n", "make", 0.1, Mapper(src, out, Options(target_version="7.2"), outcomes),
                   str(src))
    assert (built.error.code, built.error.line, built.error.col) == ("CP506", 2, col + 1)  # cuda... is one longer
    assert built.error.path.endswith("src/k.cu")
    assert "undeclared identifier 'y'" in built.error.message


@pytest.mark.slow
@needs_rocm72
def test_verify_build_links_a_ported_makefile_project(tmp_path: Path):
    src = _project(tmp_path)
    keep = tmp_path / "keep"
    result = CliRunner().invoke(main, ["verify", "--build", str(src), "--keep-dir", str(keep),
                                       "--report", str(tmp_path / "r.json")])
    assert result.exit_code == 0, result.output
    assert "built (make" in result.output
    binary = keep / "proj" / "app"
    assert binary.is_file() and binary.read_bytes()[:4] == b"\x7fELF"
    doc = json.loads((tmp_path / "r.json").read_text())
    assert [p["ok"] for p in doc["projects"]] == [True]
    makefile = (keep / "proj" / "Makefile").read_text()
    assert "--offload-arch=$(HIP_ARCH)" in makefile and "-lamdhip64" in makefile


@pytest.mark.slow
@needs_rocm72
def test_verify_build_names_the_finding_behind_a_link_error(tmp_path: Path):
    src = _project(tmp_path, libs="-lnvjpeg")
    result = CliRunner().invoke(main, ["verify", "--build", str(src)])
    assert result.exit_code == 1, result.output
    first, explained = result.output.splitlines()[:2]
    assert "CP506" in first and "nvjpeg" in first
    assert "explained by" in explained and "CP312" in explained and "Makefile:5" in explained


@pytest.mark.slow
@needs_rocm72
def test_verify_build_maps_a_compile_error_to_the_cuda_line(tmp_path: Path):
    kernel = KERNEL.replace(b"x[i] *= 2;", b"x[i] *= 2;\n  undeclared_name(x);")
    src = _project(tmp_path, kernel=kernel)
    result = CliRunner().invoke(main, ["verify", "--build", str(src)])
    assert result.exit_code == 1, result.output
    assert f"{src / 'kernel.cu'}:3:3: CP506 error: the build failed: use of undeclared " \
           "identifier 'undeclared_name'" in result.output
