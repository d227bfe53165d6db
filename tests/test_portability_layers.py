"""Already-portable code (cudaport/preprocessor/portability_layers.py): HIP branches, compatibility
layers and --respect-layers."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cudaport import Options, translate_bytes
from cudaport.cli.main import main
from cudaport.preprocessor.portability_layers import classify, guarded_spans

GUARDS = frozenset((b"USE_ROCM", b"__HIP_PLATFORM_AMD__", b"GGML_USE_HIP", b"GGML_USE_MUSA"))


@pytest.mark.parametrize("expr, expected", [
    (b"defined(USE_ROCM)", ("on", b"USE_ROCM")),
    (b" defined USE_ROCM ", ("on", b"USE_ROCM")),
    (b"USE_ROCM", ("on", b"USE_ROCM")),
    (b"(defined(__HIP_PLATFORM_AMD__) && HIP_VERSION >= 60000000)",
     ("on", b"__HIP_PLATFORM_AMD__")),
    (b"defined(GGML_USE_HIP) || defined(GGML_USE_MUSA)", ("on", b"GGML_USE_HIP")),
    (b"!defined(USE_ROCM)", ("off", b"USE_ROCM")),
    (b"defined(GGML_USE_HIP) || defined(CUDA_ONLY)", None),
    (b"!defined(GGML_USE_HIP) && CUDART_VERSION >= 11070", None),
    (b"CUDART_VERSION >= 12000", None),
])
def test_classify(expr, expected):
    assert classify(expr, GUARDS) == expected


def test_guarded_spans_follow_if_elif_else():
    code = (b"#ifndef USE_ROCM\ncuda1\n#else\nhip1\n#endif\n"
            b"#if defined(GGML_USE_HIP)\nhip2\n#elif X\ncuda2\n#else\ncuda3\n#endif\n"
            b"#if X\ncuda4\n#elif defined(USE_ROCM)\nhip3\n#endif\n")
    texts = [code[a:b].strip() for a, b, _ in guarded_spans(code, GUARDS)]
    assert texts == [b"hip1", b"hip2", b"hip3"]


def tr(src: str, **kw) -> tuple[str, list[str]]:
    result = translate_bytes(src.encode(), Options(**kw))
    return result.text, [f.code for f in result.findings]


BRANCH = """\
#include <cuda_runtime.h>
#ifdef USE_ROCM
#include <hip/hip_runtime.h>
#define WARP 64
__device__ unsigned lane() { return __lane_id(); }
typedef hipStream_t stream_t;
#else
#define WARP 32
typedef cudaStream_t stream_t;
#endif
void f(void** p) { cudaMalloc(p, 4); }
"""


def test_hip_branch_left_alone_and_reported_as_info():
    out, codes = tr(BRANCH)
    assert "typedef hipStream_t stream_t;\n#else" in out
    assert "typedef hipStream_t stream_t;\n#endif" in out  # the CUDA branch is translated
    assert "hipMalloc(p, 4)" in out
    assert codes.count("CP160") == 1 and "CP210" not in out
    assert tr(out)[0] == out


def test_configured_guard_via_options():
    src = "#if BUILD_HIP\n#define WARP_SYNC __syncwarp\nint n = cudaGetLastError();\n#endif\n"
    assert "cudaGetLastError" not in tr(src)[0]
    kept, codes = tr(src, extra=(("portable_guards", ("BUILD_HIP",)),))
    assert kept == src and codes == ["CP160"]


LAYER = """\
#pragma once
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#define cudaMalloc hipMalloc
#define cudaMallocHost(ptr, size) hipHostMalloc(ptr, size, hipHostMallocDefault)
#define CUBLAS_OP_N HIPBLAS_OP_N
typedef hip_bfloat16 __nv_bfloat16;
using cudaStream_t = hipStream_t;
static inline void sync() { cudaDeviceSynchronize(); }
"""


def test_compatibility_layer_file_is_left_as_it_is():
    out, codes = tr(LAYER)
    assert out == LAYER and codes == ["CP161"]


def test_layer_definitions_without_target_header_are_kept():
    src = ("#if BUILD_HIP\n#define cudaStream_t hipStream_t\n#define cudaMemAttachHost "
           "hipMemAttachHost\n#endif\nvoid g(cudaStream_t s) { cudaStreamSynchronize(s); }\n")
    out, codes = tr(src)
    assert out.startswith("#include <hip/hip_runtime.h>\n"
                          "#if BUILD_HIP\n#define cudaStream_t hipStream_t\n"
                          "#define cudaMemAttachHost hipMemAttachHost\n#endif\n")
    assert "void g(hipStream_t s) { hipStreamSynchronize(s); }" in out
    assert codes.count("CP161") == 1 and tr(out)[0] == out


def test_respect_layers_in_a_tree(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "compat.h").write_text(LAYER)
    (tmp_path / "src" / "k.cu").write_text(
        '#include "compat.h"\nvoid f(void** p) { cudaMalloc(p, 4); cudaFree(*p); }\n')
    runner = CliRunner()
    plain = runner.invoke(main, ["translate", str(tmp_path / "src"), "--out-dir",
                                 str(tmp_path / "a"), "-q"])
    assert plain.exit_code == 0, plain.output
    assert "hipMalloc(p, 4); hipFree(*p);" in (tmp_path / "a" / "k.cu").read_text()
    kept = runner.invoke(main, ["translate", str(tmp_path / "src"), "--out-dir",
                                str(tmp_path / "b"), "-q", "--respect-layers"])
    assert kept.exit_code == 0, kept.output
    assert "cudaMalloc(p, 4); hipFree(*p);" in (tmp_path / "b" / "k.cu").read_text()
    checked = runner.invoke(main, ["check", str(tmp_path / "src"), "--respect-layers"])
    assert "CP162" in checked.output and "CP161" in checked.output


def test_portable_guards_setting(tmp_path):
    (tmp_path / ".cudaport.toml").write_text('portable-guards = ["MY_HIP"]\n')
    (tmp_path / "k.cu").write_text("#ifdef MY_HIP\nint e = cudaSuccess;\n#endif\n")
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert "CP160" in result.output and "MY_HIP" in result.output


def test_respect_layers_setting(tmp_path):
    (tmp_path / ".cudaport.toml").write_text("respect-layers = true\n")
    (tmp_path / "compat.h").write_text(LAYER)
    (tmp_path / "k.cu").write_text('#include "compat.h"\nvoid f(void** p) { cudaMalloc(p, 4); }\n')
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert "k.cu:2:20: CP162" in result.output, result.output


# g-truc/glm's glm/simd/platform.h: the CUDA test comes before the project's HIP branch.
CHAIN = """\
#if defined(_MSC_VER)
#  define COMPILER 1
#elif defined(__CUDACC__)
#  if !defined(CUDA_VERSION)
#    include <cuda.h>
#  endif
#  if CUDA_VERSION >= 8000
#    define COMPILER 2
#  endif
#elif defined(__HIP__)
#  define COMPILER 3
#endif
#ifdef __CUDACC__
#  define DEVICE __device__ __host__
#endif
"""


def test_cuda_branches_before_a_ported_branch_keep_their_conditions():
    r = translate_bytes(CHAIN.encode())
    out = r.output.decode()
    # The chain is the project's port: as written, a HIP build reaches COMPILER 3.
    assert out.startswith(CHAIN[:CHAIN.index("#ifdef __CUDACC__")])
    assert out.endswith("#ifdef __HIPCC__\n#  define DEVICE __device__ __host__\n#endif\n")
    assert [f.code for f in r.findings] == ["CP160"]
    conditions = []
    guarded_spans(CHAIN.encode(), frozenset([b"__HIP__"]), conditions=conditions)
    lines = [CHAIN.encode()[a:b].decode() for a, b in conditions]
    assert lines[0] == "#if defined(_MSC_VER)"
    assert lines[1].startswith("#elif defined(__CUDACC__)\n") and lines[1].endswith("#  endif\n")


@pytest.mark.slow
@pytest.mark.parametrize("toolchain", ["rocm", "system"])
def test_cuda_branches_before_a_ported_branch_compile_as_the_port(tmp_path, toolchain):
    from conftest import compile_hip

    (tmp_path / "platform.h").write_bytes(translate_bytes(CHAIN.encode()).output)
    (tmp_path / "use.hip").write_text('#include "platform.h"\nstatic_assert(COMPILER == 3, "");\n')
    compile_hip(tmp_path / "use.hip", toolchain)
