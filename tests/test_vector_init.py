"""CP222: braced initializers of CUDA vector types that HIP's vector classes reject."""

from __future__ import annotations

import pytest

from cudaport.translate.pipeline import translate_source

# (declaration, what the translation writes, CP222's severity or None)
CASES = [
    ("uint2 a[25] = { 0 };", "uint2 a[25] = {};", "info"),  # tpruvot/ccminer
    ("float4 v = {0.0f};", "float4 v = {};", "info"),
    ("float1 v = {0.f};", "float1 v = {};", "info"),
    ("uint1 z = {0x00000000};", "uint1 z = {};", "info"),  # CUTLASS's memory_sm80.h
    ("uint1 one = {0x3f800000};", None, "error"),
    ("uint2 a[2] = { 1, 2, 3, 4 };", None, "error"),
    ("float4 v = {1, 2};", None, "error"),
    ("int2 v = {1};", None, "error"),
    ("float4 v = {0, 0, 0, 0};", None, None),
    ("uint2 a[2] = { {1,2}, {3,4} };", None, None),
    ("float2 a[2] = { make_float2(0,0), make_float2(1,1) };", None, None),
    ("float4 v = {};", None, None),
    ("const float3 c = {x, y, z};", None, None),
]


@pytest.mark.parametrize("declaration,written,severity", CASES)
def test_vector_lists(declaration, written, severity):
    src = f"__device__ void f(float2 x, float y, float z) {{ {declaration} }}\n"
    r = translate_source(src)
    out = r.output.decode()
    assert f" {written or declaration} }}" in out
    found = [f for f in r.findings if f.code == "CP222"]
    assert [f.severity for f in found] == ([severity] if severity else [])
    if found:
        assert (found[0].line, found[0].col) == (1, src.index("{", src.index("=")) + 1)
    assert translate_source(out).output.decode() == out


def test_a_single_value_that_may_be_a_vector_is_left_alone():
    r = translate_source("__device__ float2 f(float2 x) { float2 v = {x}; return v; }\n")
    assert not [f for f in r.findings if f.code == "CP222"]


@pytest.mark.parametrize("src", [
    "int n = {0}; float v[4] = {0};\n",  # other types
    "// float4 v = {0};\nconst char* s = \"float4 v = {0};\";\n",  # a comment and a string
    "my::float4 v = {0};\nx.float4 v = {0};\n",  # somebody's own float4
    "if (v.float4 == {0}) {}\n",
])
def test_other_lists_are_left_alone(src):
    r = translate_source(src)
    assert not [f for f in r.findings if f.code == "CP222"]


@pytest.mark.slow
@pytest.mark.parametrize("toolchain,version", [("rocm", "6.4"), ("system", "5.2")])
def test_zero_lists_compile(tmp_path, toolchain, version):
    from conftest import compile_hip

    src = "".join(f"__device__ void f{i}() {{ {d} (void)0; }}\n"
                  for i, (d, written, _s) in enumerate(CASES) if written)
    path = tmp_path / "zeros.hip"
    path.write_bytes(translate_source(src, target_version=version).output)
    compile_hip(path, toolchain)
