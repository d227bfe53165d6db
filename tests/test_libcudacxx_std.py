"""libcu++ value utilities whose standard counterpart HIP device code accepts:
cuda::std::NAME becomes std::NAME for the names of rules/hip/libcudacxx-std.txt, and their
headers map to the standard ones (rules/hip/ports/libcudacxx.yaml). Other libcu++ names
stay CP110 errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import compile_object
from cudaport import Options, translate_bytes

ROOT = Path(__file__).parent.parent
FIXTURE = Path(__file__).parent / "data" / "libcudacxx" / "std_names.cu"


def _names() -> list[str]:
    text = (ROOT / "rules" / "hip" / "libcudacxx-std.txt").read_text()
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _translate(src: bytes, version: str = "7.2"):
    return translate_bytes(src, Options(target_version=version), "k.cu")


def test_the_fixture_uses_every_listed_name_on_the_device():
    used = set(re.findall(r"cuda::std::(\w+)", FIXTURE.read_text()))
    assert set(_names()) <= used, sorted(set(_names()) - used)


def test_listed_names_and_their_headers_become_standard():
    result = _translate(FIXTURE.read_bytes())
    out = result.output.decode()
    assert "cuda::std" not in out and "cuda/std" not in out
    assert "#include <type_traits>" in out and "#include <cmath>" in out
    assert "std::numeric_limits<std::uint32_t>::digits" in out
    assert [f for f in result.findings if f.severity == "error"] == []
    assert translate_bytes(result.output, Options(target_version="7.2"), "k.hip").output == \
        result.output


@pytest.mark.parametrize("line, kept", [
    ("  int a = 1, b = 2; cuda::std::swap(a, b);", "cuda::std::swap"),  # (not constexpr in C++17)
    ("  cuda::std::variant<int, float> v;", "cuda::std::variant"),
    ("  cuda::std::atomic<int> n;", "cuda::std::atomic"),
    ("  cuda::std::tie(x[0], x[1]);", "cuda::std::tie"),  # (tuple's operator= is not constexpr)
    ("  auto f = cuda::proclaim_return_type<int>([] __device__ (int v) { return v; });",
     "cuda::proclaim_return_type"),
])
def test_other_libcudacxx_names_stay_reported(line, kept):
    result = _translate(f"__global__ void k(int *x) {{\n{line}\n}}\n".encode())
    assert kept in result.output.decode()
    assert [f.code for f in result.findings if f.code == "CP110"] == ["CP110"]


def test_a_libcudacxx_include_the_file_does_not_use_is_dropped():
    # TransformerEngine's quantize_transpose_vector_blockwise.cu includes <cuda/barrier>
    # and names only its own transformer_engine::cuda::sm_arch()
    src = (b"#include <cuda/barrier>\n#include <cuda/std/atomic>\n"
           b"namespace te { namespace cuda { int sm_arch(); } }\n"
           b"int f() { return te::cuda::sm_arch(); }  // cuda::barrier<...> in a comment\n")
    result = _translate(src)
    assert b"cuda/barrier" not in result.output and b"cuda/std/atomic" not in result.output
    assert [(f.code, f.severity, f.line) for f in result.findings] == [
        ("CP116", "info", 1), ("CP116", "info", 2)]
    # a file that names libcu++ keeps the include, reported
    used = src + b"__device__ cuda::barrier<cuda::thread_scope_block>* b;\n"
    result = _translate(used)
    assert b"#include <cuda/barrier>" in result.output
    assert [f.code for f in result.findings if f.line == 1] == ["CP110"]


def test_only_cudas_own_namespace_is_rewritten():
    src = (b"namespace my { namespace cuda { namespace std { int max(int a, int); } } }\n"
           b"int f() { return my::cuda::std::max(1, 2); }  // cuda::std::max in a comment\n")
    assert _translate(src).output == src


@pytest.mark.slow
@pytest.mark.parametrize("version, arch", [("7.2", "gfx942"), ("7.2", "gfx90a"), ("6.4", "gfx942")])
def test_the_fixture_compiles_to_object_code(tmp_path, version, arch):
    path = tmp_path / "std_names.hip"
    path.write_bytes(_translate(FIXTURE.read_bytes(), version).output)
    compile_object(path, arch, version)


# --- cuda::barrier as the block barrier (cudaport/translate/passes/block_barrier.py) ---------------

BARRIER = Path(__file__).parent / "data" / "libcudacxx" / "block_barrier.cu"


def test_a_block_wide_barrier_becomes_syncthreads():
    src = BARRIER.read_bytes().split(b"__global__ void partial")[0]
    result = _translate(src)
    out = result.output.decode()
    assert "cuda::" not in out and "cuda/barrier" not in out
    assert out.count("__syncthreads();") == 3 and "(void)0;" in out
    assert "__shared__ float tile[256];" in out and "bar" not in out.replace("barrier", "")
    assert [(f.code, f.severity) for f in result.findings] == [("CP116", "info"), ("CP117", "info")]
    assert translate_bytes(result.output, Options(target_version="7.2"), "k.hip").output == \
        result.output


@pytest.mark.parametrize("change", [
    (b"blockDim.x * blockDim.y * blockDim.z", b"blockDim.x"),  # (not provably the whole block)
    (b"  bar.arrive_and_wait();\n  out", b"  auto t = bar.arrive();\n  bar.wait(std::move(t));\n  out"),
    (b"cuda::thread_scope_block", b"cuda::thread_scope_device"),
])
def test_other_barriers_are_left_reported(change):
    src = BARRIER.read_bytes().split(b"__global__ void partial")[0].replace(*change)
    result = _translate(src)
    assert b"cuda::barrier" in result.output and b"#include <cuda/barrier>" in result.output
    assert "CP117" not in [f.code for f in result.findings]
    assert "CP110" in [f.code for f in result.findings]


@pytest.mark.slow
@pytest.mark.parametrize("arch", ["gfx942", "gfx90a"])
def test_the_barrier_translation_compiles(tmp_path, arch):
    path = tmp_path / "block_barrier.hip"
    path.write_bytes(_translate(BARRIER.read_bytes().split(b"__global__ void partial")[0]).output)
    compile_object(path, arch)


# --- cuda::atomic_ref as HIP's scoped atomic builtins (cudaport/translate/passes/atomic_ref.py) -----

ATOMIC_REF = Path(__file__).parent / "data" / "libcudacxx" / "atomic_ref.cu"


def test_atomic_ref_becomes_scoped_builtins():
    result = _translate(ATOMIC_REF.read_bytes())
    out = result.output.decode()
    assert "cuda::" not in out and "cuda/atomic" not in out
    for line in ("int* const r = &(x[i]);",
                 "int old = __hip_atomic_fetch_add(r, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);",
                 "__hip_atomic_store(r, old + 2, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);",
                 "int seen = __hip_atomic_load(r, __ATOMIC_SEQ_CST, __HIP_MEMORY_SCOPE_AGENT);",
                 "__hip_atomic_compare_exchange_strong(r, &(expected), 7, __ATOMIC_ACQ_REL, "
                 "__ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);",
                 "float* const g = &(f[0]);",
                 "__hip_atomic_fetch_add(g, 1.5f, __ATOMIC_SEQ_CST, __HIP_MEMORY_SCOPE_WORKGROUP);",
                 "__hip_atomic_fetch_max(s, 5ull, __ATOMIC_SEQ_CST, __HIP_MEMORY_SCOPE_SYSTEM);",
                 "(int)__hip_atomic_exchange(s, 3ull, __ATOMIC_SEQ_CST, __HIP_MEMORY_SCOPE_SYSTEM);",
                 # (a reference made for one operation: gsplat's RasterizeToPixelsFromWorld3DGS*)
                 "x[2] = (int)__hip_atomic_load(&(*reinterpret_cast<unsigned int*>(&x[3])), "
                 "__ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);",
                 "__hip_atomic_fetch_or(&(x[4]), 2, __ATOMIC_SEQ_CST, __HIP_MEMORY_SCOPE_WORKGROUP);"):
        assert line in out, line
    assert [f.code for f in result.findings] == ["CP116"]
    assert translate_bytes(result.output, Options(target_version="7.2"), "k.hip").output == \
        result.output


@pytest.mark.parametrize("change", [
    (b"  g.fetch_add(1.5f);", b"  g += 1.5f;"),            # an operator: not rewritten
    (b"  g.fetch_add(1.5f);", b"  use(g);"),               # the reference passed on
    (b"cuda::memory_order_seq_cst", b"order"),              # an order the text cannot read
    (b"cuda::thread_scope_block", b"Scope"),                # a scope the text cannot read
    (b".fetch_or(2);", b";"),                               # a temporary with no operation
])
def test_other_atomic_refs_are_left_reported(change):
    result = _translate(ATOMIC_REF.read_bytes().replace(*change))
    assert b"cuda::atomic_ref" in result.output
    assert "CP110" in [f.code for f in result.findings]



def test_an_include_whose_names_all_ported_is_dropped():
    """gsplat's RasterizeToPixelsFromWorld3DGSParallelBatchFwd.cu: <cuda/atomic> for one
    atomic_ref made builtin, cuda::std::optional made std::optional: nothing of libcu++ is
    left, so <cuda/atomic> goes (CP116) and <cuda/std/optional> becomes <optional>."""
    src = (b"#include <cuda/atomic>\n#include <cuda/std/optional>\n"
           b"__global__ void k(unsigned* s, cuda::std::optional<int> o, int* out) {\n"
           b"  out[0] = cuda::atomic_ref<unsigned, cuda::thread_scope_device>{s[0]}"
           b".load(cuda::memory_order_relaxed) + o.value_or(0);\n}\n")
    result = _translate(src)
    out = result.output.decode()
    assert "cuda" not in out.replace("hip_runtime", "")
    assert "#include <optional>" in out
    assert "__hip_atomic_load(&(s[0]), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT)" in out
    assert [f.code for f in result.findings] == ["CP116"]


# --- a thread's cuda::pipeline as synchronous copies (cudaport/translate/passes/thread_pipeline.py) --

THREAD_PIPELINE = Path(__file__).parent / "data" / "libcudacxx" / "thread_pipeline.cu"


def test_a_thread_pipeline_becomes_synchronous_copies():
    result = _translate(THREAD_PIPELINE.read_bytes())
    out = result.output.decode()
    kernel = out[out.index("template <int N>"):]
    assert "cuda" not in kernel.replace("cudaport_", "") and "pipe." not in kernel
    assert "cuda/pipeline" not in out
    for line in ("    cudaport_pipeline_memcpy_async(tile[t] + off, x + t * 128 * N + off, "
                 "(N * sizeof(float)));\n",
                 "      cudaport_pipeline_memcpy_async(tile[t % 2] + off, x + (t + 2) * 128 * N "
                 "+ off, N * sizeof(float));\n",
                 "  __shared__ float tile[2][128 * N];\n  const int off",
                 "    (void)0;\n    for (int i = 0; i < N; ++i)"):
        assert line in out, line
    assert out.count("#ifndef CUDAPORT_PORTABLE_PIPELINE") == 1
    assert [(f.code, f.severity, f.line) for f in result.findings] == [
        ("CP116", "info", 1), ("CP231", "warning", 10), ("CP231", "warning", 21)]
    assert "no longer overlaps" in result.findings[1].message
    assert translate_bytes(result.output, Options(target_version="7.2"), "k.hip").output == \
        result.output


@pytest.mark.parametrize("change, kept", [
    ((b"auto pipe = cuda::make_pipeline();", b"auto pipe = cuda::make_pipeline(group, &state);"),
     b"pipe.producer_commit();"),                                      # a block's pipeline
    ((b"    pipe.consumer_release();\n", b"    use(pipe);\n"), b"pipe.producer_commit();"),
    ((b" N * sizeof(float), pipe);", b" N * sizeof(float), bar);"),  # another copy's sync
     b"cuda::memcpy_async(tile[t % 2] + off"),
])
def test_other_pipelines_are_left_reported(change, kept):
    result = _translate(THREAD_PIPELINE.read_bytes().replace(*change))
    assert kept in result.output
    assert "CP110" in [f.code for f in result.findings]


@pytest.mark.slow
@pytest.mark.parametrize("fixture", [ATOMIC_REF, THREAD_PIPELINE], ids=lambda p: p.stem)
@pytest.mark.parametrize("arch", ["gfx942", "gfx90a"])
def test_the_atomic_ref_and_pipeline_translations_compile(tmp_path, fixture, arch):
    path = tmp_path / (fixture.stem + ".hip")
    path.write_bytes(_translate(fixture.read_bytes()).output)
    compile_object(path, arch)


# --- cuda::minimum, cuda::maximum, cuda::std::declval: the portable header's ---------------

PORTABLE = b"""#include <cuda/functional>
#include <cuda/std/utility>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
template <class F> __device__ float apply(F f, float a, float b) { return f(a, b); }
__global__ void k(float *x, int *n, __half *h, __nv_bfloat16 *b) {
  x[0] = cuda::minimum<>()(x[1], x[2]);
  x[3] = cuda::maximum<float>{}(x[1], x[2]);
  x[4] = apply(cuda::maximum<>(), x[1], x[2]);
  n[0] = cuda::minimum<int>()(n[1], n[2]) + cuda::maximum<>()(n[1], 2u);
  h[0] = cuda::maximum<__half>()(h[1], h[2]);
  b[0] = cuda::minimum<__nv_bfloat16>()(b[1], b[2]);
  using T = decltype(cuda::std::declval<float>() + 1);
  static_assert(sizeof(decltype(cuda::std::declval<int&>())) == 4, "");
  x[5] = T(n[3]);
}
"""


def test_minimum_maximum_and_declval_become_the_portable_headers():
    result = _translate(PORTABLE)
    out = result.output.decode()
    assert result.findings == [] or all(f.severity == "info" for f in result.findings), \
        [(f.code, f.message) for f in result.findings]
    body = out.split("__global__ void k")[1]
    assert "cuda::" not in body and "cuda/" not in out.split("// cudaport:")[0]
    assert "#include <functional>" in out
    for expected in ("x[0] = cudaport_minimum<>()(x[1], x[2]);",
                     "x[3] = cudaport_maximum<float>{}(x[1], x[2]);",
                     "apply(cudaport_maximum<>(), x[1], x[2])",
                     "using T = decltype(cudaport_declval<float>() + 1);",
                     "sizeof(decltype(cudaport_declval<int&>()))"):
        assert expected in body
    assert out.count("#define CUDAPORT_PORTABLE_MINMAX_FUNCTORS") == 1
    assert out.count("#define CUDAPORT_PORTABLE_DECLVAL") == 1
    assert translate_bytes(result.output, Options(target_version="7.2"), "k.hip").output == \
        result.output
    # a file using cuda::minimum through another header (CUB's) is ported the same way
    cub = _translate(b"#include <cub/cub.cuh>\nint f(int a, int b) { return cuda::minimum<>{}(a, b); }\n")
    assert b"return cudaport_minimum<>{}(a, b);" in cub.output


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_the_portable_functors_compile_to_object_code(tmp_path, version):
    path = tmp_path / "functors.hip"
    path.write_bytes(_translate(PORTABLE, version).output)
    compile_object(path, "gfx942", version)


def test_the_portable_functors_match_cudas_definitions(tmp_path):
    """CUDA 13.0's cuda/__functional/minimum.h and maximum.h: fmin/fmax for floating point
    (the other argument where one is NaN), `<` otherwise; the <void> forms return the common
    type. Checked with g++ on the header's generic form."""
    import math
    import shutil
    import subprocess
    from cudaport.translate.portable import HEADER_NAME, block, closure, parse
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    header = parse((ROOT / "rules" / "hip" / "ports" / HEADER_NAME).read_bytes())
    program = tmp_path / "minmax.cpp"
    values = ["0.0", "-0.0", "1.5", "-2.25", "NAN", "INFINITY", "-INFINITY"]
    lines = []
    for a in values:
        for b in values:
            lines.append(f'  std::printf("%a %a %a %a\\n", cudaport_minimum<float>()((float)({a}), (float)({b})), '
                         f'cudaport_maximum<float>()((float)({a}), (float)({b})), '
                         f'cudaport_minimum<>()((double){a}, (float)({b})), cudaport_maximum<>()((float)({a}), (double){b}));')
    program.write_bytes(b"#include <cmath>\n#include <cstdio>\n"
                        + block(header, closure(header, {b"cudaport_minimum", b"cudaport_maximum"}))
                        + ("int main() {\n" + "\n".join(lines) + "\n"
                           '  std::printf("%d %d %u %d\\n", cudaport_minimum<int>()(-3, 2), '
                           "cudaport_maximum<>()(-1, 2u) == 4294967295u, cudaport_minimum<>()(-1, 2u), "
                           "cudaport_maximum<int>()(7, 7));\n  return 0;\n}\n").encode())
    subprocess.run(["g++", "-std=c++11", "-Wall", "-Werror", "-Wno-sign-compare", str(program), "-o",
                    str(tmp_path / "minmax")], check=True)
    out = subprocess.run([str(tmp_path / "minmax")], capture_output=True, text=True,
                         check=True).stdout.splitlines()

    def value(text):
        return float.fromhex(text) if "nan" not in text else math.nan

    def fmin(a, b):  # C's fmin: the other argument where one is NaN
        return b if math.isnan(a) else a if math.isnan(b) else min(a, b)

    def fmax(a, b):
        return b if math.isnan(a) else a if math.isnan(b) else max(a, b)

    def same(x, y):
        return (math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1, x) == math.copysign(1, y)) \
            or (x == y == 0)  # (fmin/fmax of +0 and -0 may return either zero, as in C)

    i = 0
    for a in values:
        for b in values:
            x, y = (float(eval(v.replace("NAN", "float('nan')").replace("INFINITY", "float('inf')")))
                    for v in (a, b))
            got = [value(t) for t in out[i].split()]
            want = [fmin(x, y), fmax(x, y), fmin(x, y), fmax(x, y)]
            assert all(same(g, w) for g, w in zip(got, want)), (a, b, got, want)
            i += 1
    # integers: (lhs < rhs) ? lhs : rhs; <void> compares as given and returns the common
    # type (-1 < 2u is false after the usual conversions, as in CUDA's)
    assert out[i] == "-3 1 2 7"
