"""A CUDA function the target lacks that the file defines itself is the project's
(cudaport/symbols/polyfills.py): ROCm/aiter's vec_dtypes.cuh defines __float2bfloat162_rn and
make_bfloat162 for HIP and calls them. And make_half2, which HIPIFY tables as unmapped,
is defined by HIP's own amd_hip_fp16.h (rules/hip/device-present.yaml)."""

from __future__ import annotations

import pytest

from cudaport.translate.pipeline import translate_source

POLYFILL = """\
#include <hip/hip_bf16.h>
__host__ __device__ inline __hip_bfloat162 __float2bfloat162_rn(const float a)
{
    return __hip_bfloat162{__float2bfloat16(a), __float2bfloat16(a)};
}
inline __attribute__((always_inline)) __device__ __hip_bfloat162
make_bfloat162(const __hip_bfloat16 x, const __hip_bfloat16 y) { __hip_bfloat162 t; t.x = x; t.y = y; return t; }
__global__ void k(__hip_bfloat162 *out, float f, __hip_bfloat16 b) {
    out[0] = __float2bfloat162_rn(f);
    out[1] = make_bfloat162(b, b);
}
"""


def _found(src: str, **kw):
    return [(f.code, f.line, f.identifier) for f in translate_source(src, **kw).findings]


def test_functions_the_file_defines_are_its_own():
    for version in ("6.4", "7.2"):
        result = translate_source(POLYFILL, target_version=version)
        assert [(f.code, f.line, f.identifier) for f in result.findings] == [
            ("CP164", 2, "__float2bfloat162_rn"), ("CP164", 7, "make_bfloat162")]
        # neither the definitions nor the calls are renamed: a renamed definition would
        # redefine the target's function of that name (HIP's __halves2bfloat162)
        out = result.output.decode()
        assert out.endswith(POLYFILL[POLYFILL.index("__host__"):])


def _taken_as_cuda(src: str, name: str) -> bool:
    """The calls of ``name`` in the kernel are translated or reported as CUDA's."""
    result = translate_source(src, target_version="7.2")
    kernel = result.output.decode().split("__global__")[1]
    return f"{name}(" not in kernel or any(
        f.code == "CP101" and f.identifier == name for f in result.findings)


def test_a_call_without_a_definition_in_the_file_is_cudas():
    calls = POLYFILL[POLYFILL.index("__global__"):]
    assert _taken_as_cuda(calls, "__float2bfloat162_rn")
    assert _taken_as_cuda(calls, "make_bfloat162")
    # a declaration without a body, or a member function of that name, defines nothing
    declared = "__device__ __hip_bfloat162 make_bfloat162(__hip_bfloat16, __hip_bfloat16);\n"
    member = "struct V { __device__ __hip_bfloat162 make_bfloat162(int) { return {}; } };\n"
    for first in (declared, member):
        assert _taken_as_cuda(first + calls, "make_bfloat162")


NAMESPACED = """\
#include <cstring>
namespace detail {
__host__ __device__ inline unsigned float_as_uint(float v) {
  unsigned r; memcpy(&r, &v, 4); return r;
}
__host__ __device__ inline unsigned twice(float v) { return float_as_uint(v) * 2u; }
}  // namespace detail
__host__ __device__ inline unsigned char ue8m0(float v) {
  return (unsigned char)((detail::float_as_uint(v) >> 23) & 0xFF);
}
"""


def test_a_namespaced_definition_is_its_own_where_every_use_reaches_it():
    """flashinfer's scale_convert.cuh: detail::float_as_uint, the CUDA name HIP lacks, is
    the project's own when each use is the definition, detail::-qualified or inside
    namespace detail; an unqualified call outside it reaches CUDA's (still CP101)."""
    assert _found(NAMESPACED) == [("CP164", 3, "float_as_uint")]
    outside = NAMESPACED + "unsigned g(float v) { return float_as_uint(v); }\n"
    assert ("CP101", 11, "float_as_uint") in _found(outside)


def test_make_half2_is_hips_own():
    src = "#include <cuda_fp16.h>\n__global__ void k(half2 *o, half h) { o[0] = make_half2(h, h); }\n"
    for version in ("5.2", "6.4", "7.2"):
        result = translate_source(src, target_version=version)
        assert [f for f in result.findings if f.severity == "error"] == [], version
        assert b"make_half2(h, h)" in result.output


RN = """\
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void k(half *h, half2 *h2, __nv_bfloat16 *b, __nv_bfloat162 *b2) {
  h[0] = __hadd_rn(h[1], h[2]) ; h[3] = __hsub_rn(h[1], h[2]); h[4] = __hmul_rn(h[1], h[2]);
  h2[0] = __hadd2_rn(h2[1], h2[2]); h2[3] = __hsub2_rn(h2[1], h2[2]); h2[4] = __hmul2_rn(h2[1], h2[2]);
  b[0] = __hadd_rn(b[1], b[2]); b[3] = __hmul_rn(b[1], b[2]); b2[0] = __hsub2_rn(b2[1], b2[2]);
}
"""


def test_uncontracted_half_arithmetic_is_hips_own_from_7_2():
    # __hadd_rn & co. (no fma contraction): ROCm 7.2's amd_hip_fp16.h and amd_hip_bf16.h
    # define them for __half, __half2 and bfloat16; ROCm 6.4's do not (CP107)
    new = translate_source(RN, target_version="7.2")
    assert [f for f in new.findings if f.severity == "error"] == []
    assert b"h[0] = __hadd_rn(h[1], h[2])" in new.output
    old = translate_source(RN, target_version="6.4")
    assert {f.identifier for f in old.findings if f.code == "CP107"} == {
        "__hadd_rn", "__hsub_rn", "__hmul_rn", "__hadd2_rn", "__hsub2_rn", "__hmul2_rn"}


@pytest.mark.slow
def test_uncontracted_half_arithmetic_compiles_with_rocm_7_2(tmp_path):
    from conftest import compile_object
    path = tmp_path / "rn.hip"
    path.write_bytes(translate_source(RN, target_version="7.2").output)
    compile_object(path, "gfx942")
