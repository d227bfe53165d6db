"""Translator fixes found while building the examples gallery and verifying real code."""

from __future__ import annotations

from cudaport import Options, translate_bytes
from conftest import tr


def test_macros_the_file_defines_are_not_unknown_cuda_api():
    src = ("#include <cuda_runtime.h>\n#define CUDA_CHECK(x) do { (void)(x); } while (0)\n"
           "void f(void* p) { CUDA_CHECK(cudaFree(p)); cudaFooBar(); }\n")
    result = translate_bytes(src.encode(), Options())
    unknown = [f.identifier for f in result.findings if f.code == "CP105"]
    assert unknown == ["cudaFooBar"]


def test_bf16_header_maps_to_the_header_declaring_hip_bfloat16():
    src = "#include <cuda_bf16.h>\n__nv_bfloat16 x;\n"
    assert "#include <hip/hip_bfloat16.h>\nhip_bfloat16 x;\n" in tr(src)
