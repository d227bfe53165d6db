"""A project's own CUDA-named symbols stay its own in text mode (cudaport/symbols/project_names.py)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cudaport import Options, translate_bytes, translate_source
from cudaport.cli.main import main


def tr(src: str) -> tuple[str, list[str]]:
    result = translate_bytes(src.encode(), Options(insert_main_header=False))
    return result.text, [f.code for f in result.findings]


@pytest.mark.parametrize("src", [
    # a wrapper in the project's namespace, declared and called qualified
    "namespace mine { int cudaMalloc(void** p, int n); }\n"
    "void f(void** p) { mine::cudaMalloc(p, 1); }\n",
    # a type alias in a namespace, used qualified from outside and unqualified inside
    "namespace quickreduce {\ntypedef __hip_bfloat16 nv_bfloat16;\n"
    "inline float g(nv_bfloat16 v) { return 0.f; }\n}\nquickreduce::nv_bfloat16 x;\n",
    # a wrapper in a nested namespace, called from a sibling function in it
    "namespace raft::random::detail {\nvoid curandGenerateNormal(float* p, int n) {}\n"
    "void h(float* p) { curandGenerateNormal(p, 4); }\n}\n",
    # a member of the project's struct, and a static member reached through the class
    "struct Api { static int cudaFree(void*); };\nvoid k(Api a, void* p) { Api::cudaFree(p); }\n",
], ids=["wrapper", "alias", "nested", "class"])
def test_own_names_are_kept_and_reported(src):
    out, codes = tr(src)
    assert out == src and "CP164" in codes


def test_cuda_api_around_own_names_is_still_translated():
    src = ("namespace mine { int cudaMalloc(void** p, int n); }\n"
           "void f(void** p) { mine::cudaMalloc(p, 1); cudaMalloc(p, 2); ::cudaFree(*p);"
           " cub::DeviceReduce::Sum(0, 0, 0, 0, 0); }\n")
    out, _ = tr(src)
    assert "mine::cudaMalloc(p, 1); hipMalloc(p, 2); ::hipFree(*p); hipcub::" in out
    assert tr(out)[0] == out


def test_declarations_in_other_files_of_the_tree(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "base.h").write_text(
        "#pragma once\nnamespace qr {\ntypedef __hip_bfloat16 nv_bfloat16;\n}\n")
    (tmp_path / "src" / "k.cu").write_text(
        '#include "base.h"\nnamespace qr {\nnv_bfloat16 twice(nv_bfloat16 v);\n}\n'
        "nv_bfloat16 outside;\n")
    result = CliRunner().invoke(main, ["translate", str(tmp_path / "src"), "--out-dir",
                                       str(tmp_path / "out"), "-q"])
    assert result.exit_code == 0, result.output
    out = (tmp_path / "out" / "k.cu").read_text()
    assert "nv_bfloat16 twice(nv_bfloat16 v);" in out
    assert "__hip_bfloat16 outside;" in out
    checked = CliRunner().invoke(main, ["check", str(tmp_path / "src")])
    assert "k.cu:3:1: CP164" in checked.output


def test_a_comment_that_ends_in_a_period_does_not_make_a_member():
    # cuda_programming's vectorAdd.cu: "// ... barrier.\n  cudaMemcpy(...)" was kept as a member
    src = "void f() {\n  // a synchronization\n  // barrier.\n  cudaMemcpy(a, b, n, cudaMemcpyDeviceToHost);\n}\n"
    out = translate_source(src)
    assert "hipMemcpy(a, b, n, hipMemcpyDeviceToHost)" in out.text
    assert not [f for f in out.findings if f.code == "CP164"]


@pytest.mark.parametrize("before", ["", "  s.cudaMalloc = 0;\n"])
def test_a_name_after_an_unterminated_string_is_no_member(before):
    # found by bench/fuzz.py on CUDA_Freshman: `g."str` (a string never closed) then
    # `cudaFree` on the next line looked like `g.cudaFree` once the string was blanked,
    # but only when an earlier name had made the blanked code: a second run differed
    src = "void f(S s, float* p) {\n" + before + '  g(s."str \ncudaFree(p));\n}\n'
    once = translate_source(src)
    assert "\nhipFree(p));" in once.text
    assert translate_source(once.text).text == once.text


def test_a_member_reached_across_a_comment_stays_the_projects():
    src = "void f(S s) {\n  s./* its */ cudaFree = 0;\n}\n"
    out = translate_source(src)
    assert "cudaFree = 0;" in out.text
    assert [f.code for f in out.findings] == ["CP164"]


@pytest.mark.parametrize("comment", ["  // kept for exogenous variables\n",
                                     "  /* zero the buffer\n     first */\n"])
def test_a_comment_before_a_call_in_a_namespace_declares_nothing(comment, tmp_path):
    # cuml's batched_kalman.cu: "// ... exogeneous variables\n  cudaMemsetAsync(...)" inside
    # namespace ML read as a declaration `variables cudaMemsetAsync(...)`, which kept 84
    # cudaMemsetAsync calls in 24 files of the tree untranslated
    src = ("namespace ML {\nvoid clear(float* p, int n, cudaStream_t s) {\n" + comment +
           "  cudaMemsetAsync(p, 0, n, s);\n}\n}\n")
    out, codes = tr(src)
    assert "  hipMemsetAsync(p, 0, n, s);" in out and "CP164" not in codes
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cu").write_text(src)
    (tmp_path / "src" / "u.cu").write_text("namespace ML {\nvoid g(float* p, cudaStream_t s) {"
                                   " cudaMemsetAsync(p, 0, 4, s); }\n}\n")
    result = CliRunner().invoke(main, ["translate", str(tmp_path / "src"), "--out-dir",
                                       str(tmp_path / "out"), "-q"])
    assert result.exit_code == 0, result.output
    assert "hipMemsetAsync(p, 0, 4, s)" in (tmp_path / "out" / "u.cu").read_text()


@pytest.mark.parametrize("src", [
    "auto last() -> cudaError_t { return cudaGetLastError(); }\n",
    "inline constexpr auto kind() -> cudaDataType_t;\n",  # raft cuda_data_type.hpp
    "template <> inline constexpr auto kind<int8_t>() const noexcept -> cudaDataType_t\n"
    "{ return CUDA_R_8I; }\n",
    "auto f = [](void* p, cudaStream_t s = 0) -> cudaError_t { return cudaFree(p); };\n",
    "auto g = [=] __device__ (int i) mutable -> cudaError_t { return cudaSuccess; };\n",
], ids=["function", "declaration", "specialization", "lambda", "device-lambda"])
def test_a_trailing_return_type_is_no_member(src):
    # raft and cuml HDBSCAN: `auto f() -> cudaError_t` kept cudaError_t as "a member"
    out, codes = tr(src)
    assert "-> hipError_t" in out or "-> hipDataType" in out, out
    assert "CP164" not in codes


@pytest.mark.parametrize("src", ["void f(S* s) { auto v = get()->cudaMalloc; }\n",
                                 "int g() { return cfg(1)->cudaMalloc; }\n",
                                 "int h(T t) { return t.x()->cudaFree; }\n"])
def test_a_member_of_a_call_result_is_still_a_member(src):
    out, codes = tr(src)
    assert out == src and "CP164" in codes
