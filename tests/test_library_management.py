"""CUDA 12's library management (CUlibrary/CUkernel, cuLibrary*, cudaLibrary*) ports to
HIP 7.2's hipLibrary_t/hipKernel_t API (rules/hip/library-management.yaml); 6.4 lacks it."""

from __future__ import annotations

import pytest

from cudaport import Options, translate_bytes
from tests.conftest import compile_object

SOURCE = b"""\
#include <cuda.h>
#include <cuda_runtime.h>
CUresult driver_side(const void* image, const char** name, unsigned* count) {
  CUlibrary lib;
  CUlibraryOption opt = CU_LIBRARY_BINARY_IS_PRESERVED;
  void* value = 0;
  CUresult r = cuLibraryLoadData(&lib, image, 0, 0, 0, &opt, &value, 1);
  if (r != CUDA_SUCCESS) return r;
  CUkernel k, all[4];
  CUlibrary back;
  if ((r = cuLibraryGetKernel(&k, lib, "scale")) != CUDA_SUCCESS) return r;
  cuLibraryGetKernelCount(count, lib);
  cuLibraryEnumerateKernels(all, 4, lib);
  cuKernelGetLibrary(&back, k);
  cuKernelGetName(name, k);
  cuLibraryLoadData(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
  return cuLibraryUnload(lib);
}
cudaError_t runtime_side(const char* file, unsigned* count) {
  cudaLibrary_t lib;
  cudaKernel_t k;
  cudaLibraryOption opt = cudaLibraryHostUniversalFunctionAndDataTable;
  (void)opt;
  cudaError_t e = cudaLibraryLoadFromFile(&lib, file, 0, 0, 0, 0, 0, 0);
  if (e != cudaSuccess) return e;
  cudaLibraryGetKernel(&k, lib, "scale");
  cudaLibraryGetKernelCount(count, lib);
  return cudaLibraryUnload(lib);
}
"""

NAMES = {"CUlibrary", "CUkernel", "CUlibraryOption", "CU_LIBRARY_BINARY_IS_PRESERVED",
         "cuLibraryLoadData", "cuLibraryGetKernel", "cuLibraryGetKernelCount",
         "cuLibraryEnumerateKernels", "cuKernelGetLibrary", "cuKernelGetName",
         "cuLibraryUnload", "cudaLibrary_t", "cudaKernel_t", "cudaLibraryOption",
         "cudaLibraryHostUniversalFunctionAndDataTable", "cudaLibraryLoadFromFile",
         "cudaLibraryGetKernel", "cudaLibraryGetKernelCount", "cudaLibraryUnload"}


def test_library_management_ports_to_hip_7_2():
    r = translate_bytes(SOURCE, Options())
    out = r.output
    for line in (b"  hipLibrary_t lib;", b"  hipLibraryOption opt = hipLibraryBinaryIsPreserved;",
                 b"  hipError_t r = hipLibraryLoadData(&lib, image, static_cast<hipJitOption*>(0), 0, 0, "
                 b"static_cast<hipLibraryOption*>(&opt), &value, 1);",
                 b"  hipKernel_t k, all[4];", b"  hipKernelGetName(name, k);",
                 b"  hipLibraryEnumerateKernels(all, 4, lib);",
                 b"  hipLibraryOption opt = hipLibraryHostUniversalFunctionAndDataTable;",
                 b"  hipError_t e = hipLibraryLoadFromFile(&lib, file, static_cast<hipJitOption*>(0), 0, 0, "
                 b"static_cast<hipLibraryOption*>(0), 0, 0);"):
        assert line in out, line
    assert not [f for f in r.findings if f.severity == "error"], r.findings
    assert translate_bytes(out, Options()).output == out


def test_rocm_6_4_has_no_library_management():
    r = translate_bytes(SOURCE, Options(target_version="6.4"))
    assert {f.identifier for f in r.findings if f.code == "CP107"} == NAMES


def test_what_hip_7_2_lacks_stays_reported():
    r = translate_bytes(b"#include <cuda.h>\nCUresult f(CUfunction* fn, CUkernel k) "
                        b"{ return cuKernelGetFunction(fn, k); }\n", Options())
    assert [f.identifier for f in r.findings if f.code == "CP101"] == ["cuKernelGetFunction"]


@pytest.mark.slow
def test_translation_compiles_with_rocm_7_2(tmp_path):
    path = tmp_path / "library.hip"
    path.write_bytes(translate_bytes(SOURCE, Options()).output)
    compile_object(path, "gfx942")
