"""Every hazard code: a snippet that must fire and the safe form that must not.

The text engine runs without clang (it sees every branch); clang-only cases run with the
stub headers so they need no CUDA install.
"""

from __future__ import annotations

import pytest

from cudaport.findings import CODES
from cudaport.source.lexer import blank_comments_and_literals
from cudaport.translate.pipeline import translate_bytes, translate_source

KERNEL = "__global__ void k(float *x, float v, int *out) {{\n{}\n}}\n"

CASES = [
    # code, fires, safe
    ("CP201", KERNEL.format("  unsigned m = __ballot_sync(~0ull, v > 0);"),
     KERNEL.format("  unsigned long long m = __ballot_sync(~0ull, v > 0);")),
    ("CP201", KERNEL.format("  int active = __activemask();"),
     KERNEL.format("  auto active = __activemask();")),
    # a typedef of the file's (and nvdiffrast's U32 from another header), in text mode
    ("CP201", "typedef uint32_t mask_t;\n" + KERNEL.format("  mask_t m = __ballot_sync(~0u, v > 0);"),
     "typedef uint64_t mask_t;\n" + KERNEL.format("  mask_t m = __ballot_sync(~0u, v > 0);")),
    ("CP201", KERNEL.format("  U32 hasStreamMask = __ballot_sync(~0u, v > 0);"),
     KERNEL.format("  U64 hasStreamMask = __ballot_sync(~0u, v > 0);")),
    # the match functions return a lane mask too (nvdiffrast's common.h, in a macro body)
    ("CP201", "#define M(g) { \\\n  int tmask = __match_any_sync(~0u, (g)); \\\n  use(tmask); }\n",
     "#define M(g) { \\\n  auto tmask = __match_any_sync(~0u, (g)); \\\n  use(tmask); }\n"),
    ("CP202", KERNEL.format("  v += __shfl_down_sync(0xffffffff, v, 1);"),
     KERNEL.format("  v += __shfl_down_sync(~0ull, v, 1);")),
    ("CP202", "#define FULL_MASK 0xffffffffu\n",
     "#define FULL_MASK 0xffffffffffffffffull\n"),
    ("CP203", KERNEL.format("  int lane = threadIdx.x & 31;"),
     KERNEL.format("  int lane = threadIdx.x % warpSize;")),
    ("CP203", KERNEL.format("  int tid = threadIdx.x; int warp = tid >> 5;"),
     KERNEL.format("  int tid = threadIdx.x; int warp = tid / warpSize;")),
    ("CP203", KERNEL.format("  int w = threadIdx.x / 32;"),
     KERNEL.format("  int w = threadIdx.x / 32.0f > 1;")),
    ("CP204", KERNEL.format("  __shared__ float partial[32];"),
     KERNEL.format("  __shared__ float partial[64];")),
    ("CP205", "#define WARP_SIZE 32\n", "#define WARP_SIZE warpSize\n"),
    ("CP205", "constexpr int kWarpSize = 32;\n", "constexpr int kBlockSize = 32;\n"),
    ("CP205", KERNEL.format("  if (warpSize == 32) out[0] = 1;"),
     KERNEL.format("  if (warpSize == 64) out[0] = 1;")),
    ("CP205", KERNEL.format("  if (32 == warpSize) out[0] = 1;"),
     KERNEL.format("  if (132 == warpSize) out[0] = 1;")),
    ("CP206", KERNEL.format(
        "  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(~0ull, v, o);"),
     KERNEL.format(
        "  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(~0ull, v, o);")),
    ("CP206", KERNEL.format("  v += __shfl_xor_sync(~0ull, v, 1, 32);"),
     KERNEL.format("  v += __shfl_xor_sync(~0ull, v, 1);")),
    ("CP206", KERNEL.format("  v += __shfl_xor_sync(~0ull, fmaxf(v, x[(1, 2)]), 1, 32);"),
     KERNEL.format("  v += __shfl_xor_sync(~0ull, fmaxf(v, x[(1, 2)]), 1);")),
    ("CP210", KERNEL.format('  asm volatile("pmevent 1;");'),
     KERNEL.format('  __trap(); // asm("trap;") in a comment')),
    ("CP210", KERNEL.format('  unsigned r; asm("mov.u32 %0, %%warpid;" : "=r"(r));'),
     KERNEL.format('  const char *s = "asm(x)"; out[0] = s[0];')),
    ("CP230", KERNEL.format('  asm volatile("membar.gl;");'), KERNEL.format('  __threadfence();')),
    ("CP231", KERNEL.format("  __pipeline_commit();"), KERNEL.format("  __syncthreads();")),
    ("CP236", "#include <mma.h>\nusing namespace nvcuda;\n" + KERNEL.format(
        "  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c; c.x[0] = 0;"),
     "#include <mma.h>\nusing namespace nvcuda;\n" + KERNEL.format(
        "  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c; wmma::fill_fragment(c, 0);")),
    ("CP238", "#include <mma.h>\nusing namespace nvcuda;\n" + KERNEL.format(
        "  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;"),
     "#include <mma.h>\nusing namespace nvcuda;\n" + KERNEL.format(
        "  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;")),
    ("CP237", "#include <mma.h>\nusing namespace nvcuda;\n" + KERNEL.format(
        "  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c; out[threadIdx.x / 32] = 0;"),
     "#include <mma.h>\nusing namespace nvcuda;\n" + KERNEL.format(
        "  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c; out[threadIdx.x / warpSize] = 0;")),
    ("CP211", "texture<float, 1, cudaReadModeElementType> tex;\n",
     "cudaTextureObject_t tex = 0;\n"),
    ("CP211", "surface<void, 2> surf;\n", "cudaSurfaceObject_t surf = 0;\n"),
    ("CP221", "unsigned lo(cudaTextureObject_t obj) { return obj & 0xFFFFFFFF; }\n",
     "bool set(cudaTextureObject_t obj) { return obj && lo != 0; }\n"),
    ("CP221", "unsigned hi(cudaSurfaceObject_t s) { return unsigned(s >> 32); }\n",
     "cudaSurfaceObject_t same(cudaSurfaceObject_t s) { return s; }\n"),
    ("CP221", "cudaTextureObject_t d(uint2 o) {\n  return ((cudaTextureObject_t)o.x) |"
     " ((cudaTextureObject_t)o.y) << 32;\n}\n",
     "cudaTextureObject_t d(void* o) { return (cudaTextureObject_t)o; }\n"),
    ("CP207", KERNEL.format("  typedef cub::WarpReduce<float> R; __shared__ R::TempStorage t;"),
     KERNEL.format("  typedef cub::WarpReduce<float, 32> R; __shared__ R::TempStorage t;")),
    ("CP222", KERNEL.format("  float4 acc = {1.0f, 2.0f};"),
     KERNEL.format("  float4 acc = {1.0f, 2.0f, 0.0f, 0.0f};")),
    ("CP227", "struct L { dim3 grid; };\nvoid f(L& l) { l.grid = make_uint3(8, 1, 1); }\n",
     "struct L { dim3 grid; };\nvoid f(L& l) { l.grid = dim3(8, 1, 1); }\n"),
    ("CP228", KERNEL.format("  v = (int)cudaGetLastError();"),
     "void h(int v) { v = (int)cudaGetLastError(); }\n"),
    ("CP212", "__global__ void child() {}\n" + KERNEL.format("  child<<<1, 1>>>();"),
     "__global__ void child() {}\nvoid host() { child<<<1, 1>>>(); }\n"),
    ("CP213", "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
     + KERNEL.format("  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n"
                     "  v = cg::inclusive_scan(t, v);"),
     "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
     + KERNEL.format("  auto b = cg::this_thread_block(); b.sync();")),
    ("CP213", "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
     + KERNEL.format("  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n"
                     "  out[t.num_threads()] = 1;"),
     "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
     + KERNEL.format("  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n"
                     "  out[t.thread_rank()] = 1;"), {"target_version": "6.4"}),  # (7.2 has it)
    # The gaps follow --hip-version: 5.2 lacks what ROCm 6.4's headers have.
    ("CP213", "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
     + KERNEL.format("  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n"
                     "  out[t.meta_group_rank()] = 1;"),
     "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
     + KERNEL.format("  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n"
                     "  out[t.thread_rank()] = 1;"), {"target_version": "5.2"}),
    ("CP214", "int f() { cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);\n"
     "  return p.persistingL2CacheMaxSize; }\n",
     "int f() { cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);\n"
     "  return p.multiProcessorCount; }\n", {"target_version": "5.2"}),
    ("CP214", "int f() { cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);\n"
     "  return p.mpsEnabled; }\n",
     "int f() { cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);\n"
     "  return p.multiProcessorCount; }\n"),
    # (a data type the overload converts is ported: CUDA_R_32F -> HIPBLAS_COMPUTE_32F)
    ("CP216", "void g(cublasHandle_t h) { cublasGemmEx(h, ta, tb, m, n, k, &a, A, CUDA_C_16F, m,\n"
     "  B, CUDA_C_16F, k, &b, C, CUDA_C_16F, m, CUDA_C_16F, CUBLAS_GEMM_DEFAULT); }\n",
     "void g(cublasHandle_t h) { cublasGemmEx(h, ta, tb, m, n, k, &a, A, CUDA_R_16F, m,\n"
     "  B, CUDA_R_16F, k, &b, C, CUDA_R_16F, m, CUDA_R_32F, CUBLAS_GEMM_DEFAULT); }\n"),
    ("CP216", "void g() { cublasGemmStridedBatchedEx(h, ta, tb, m, n, k, &a, A, CUDA_C_32F, m, sa,"
     " B, CUDA_C_32F, k, sb, &b, C, CUDA_C_32F, m, sc, count, CUDA_C_32I, algo); }\n",
     "void g() { cublasGemmStridedBatchedEx(h, ta, tb, m, n, k, &a, A, CUDA_C_32F, m, sa,"
     " B, CUDA_C_32F, k, sb, &b, C, CUDA_C_32F, m, sc, count, CUDA_C_32F, algo); }\n"),
    ("CP219", KERNEL.format("  unsigned m = 0xffffu; v += __shfl_xor_sync(m, v, 1);"),
     KERNEL.format("  v += __shfl_xor_sync(0xffffffffu, v, 1);")),
    ("CP219", KERNEL.format("  v = __shfl_sync((1u << 16) - 1, v, 0);"),
     KERNEL.format("  unsigned long long m = __activemask(); v = __shfl_sync(m, v, 0);")),
    ("CP220", KERNEL.format("  __shared__ float slot[warpSize]; slot[0] = v;"),
     KERNEL.format("  __shared__ float slot[64]; slot[threadIdx.x % warpSize] = v;"),
     {"target_version": "7.0"}),
    ("CP220", KERNEL.format("  constexpr int w = warpSize; out[0] = w;"),
     KERNEL.format("  const int w = warpSize; out[0] = w < warpSize;"), {"target_version": "7.0"}),
    # a project's own warpSize (ROCm/aiter's groupnorm.cu: a template parameter) is no HIP's
    ("CP220", KERNEL.format("  constexpr int w = warpSize; out[0] = w;"),
     "template <typename T, unsigned warpSize>\n" + KERNEL.format(
         "  static_assert(256 % warpSize == 0, \"\");\n  __shared__ float s[256 / warpSize];"),
     {"target_version": "7.0"}),
    ("CP220", KERNEL.format("  constexpr int w = warpSize; out[0] = w;"),
     "constexpr int warpSize = 64;\n" + KERNEL.format("  __shared__ float s[warpSize];"),
     {"target_version": "7.0"}),
    # (CP215: a file with HIP branches of its own, whose gates stay as hipcc reads them;
    # in one without, the target's facts decide them: CP223 to CP225)
    ("CP215", "#ifdef USE_ROCM\n#endif\n#if __CUDA_ARCH__ >= 700\nint x;\n#endif\n",
     "#ifdef USE_ROCM\n#endif\n#if defined(__HIP_DEVICE_COMPILE__)\nint x;\n#endif\n"),
    ("CP215", "#ifdef USE_ROCM\n#endif\n#if __CUDACC_VER_MAJOR__ >= 11\nint x;\n#endif\n",
     "#ifdef USE_ROCM\n#endif\n#if HIP_VERSION >= 50200000\nint x;\n#endif\n"),
    ("CP223", "#if __CUDA_ARCH__ >= 530\nint x;\n#endif\n",
     "#ifdef USE_ROCM\n#endif\n#if __CUDA_ARCH__ >= 530\nint x;\n#endif\n"),
    ("CP224", "#if __CUDA_ARCH__ >= 700\nint x;\n#endif\n",
     "#if __CUDA_ARCH__ >= 530\nint x;\n#endif\n"),
    ("CP225", "__device__ int f() {\n#if __CUDA_ARCH__ >= 900\n  return 1;\n#else\n  __trap();\n"
     "  return 0;\n#endif\n}\n",
     "__device__ int f() {\n#if __CUDA_ARCH__ >= 900\n  return 1;\n#else\n  return 2;\n#endif\n}\n"),
    ("CP226", "__device__ int f() { return __CUDA_ARCH__; }\n",
     "#ifdef __HIPCC__\n#else\n__device__ int f() { return __CUDA_ARCH__; }\n#endif\n"),
    ("CP217", "using L = cub::BlockLoad<float, 32, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>;\n",
     "using L = cub::BlockLoad<float, 64, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>;\n"),
    ("CP217", "#define NT 32\nusing S = cub::BlockStore<float, NT, 4, cub::BLOCK_STORE_WARP_TRANSPOSE>;\n",
     "#define NT 32\nusing S = cub::BlockStore<float, NT, 4, cub::BLOCK_STORE_DIRECT>;\n"),
    ("CP217", "template<int kNThreads_> struct T { static constexpr int kNThreads = kNThreads_;\n"
     "  using L = cub::BlockLoad<float, kNThreads, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>; };\n"
     "template<int kNThreads> void launch() {}\nvoid f() { launch<32>(); }\n",
     "template<int kNThreads_> struct T { static constexpr int kNThreads = kNThreads_;\n"
     "  using L = cub::BlockLoad<float, kNThreads, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>; };\n"
     "template<int kNThreads> void launch() {}\nvoid f() { launch<128>(); }\n"),
    ("CP218", KERNEL.format("  __shared__ float sums[THREADS / 32];"),
     KERNEL.format("  __shared__ float sums[THREADS / WARP_SIZE];")),
    ("CP218", KERNEL.format("  __shared__ float sums[kBlock >> 5];"),
     KERNEL.format("  __shared__ float sums[kBlock >> 6];")),
]


def _codes(src: str, **kw) -> list[str]:
    return [f.code for f in translate_source(src, **kw).findings if f.code.startswith("CP2")]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_hazard_fires_and_safe_form_does_not(case):
    code, bad, good, *options = case  # options: translation keywords (a HIP version)
    kw = options[0] if options else {}
    assert code in _codes(bad, **kw), bad
    assert code not in _codes(good, **kw), good


def test_every_hazard_code_is_tested_and_documented():
    tested = {c[0] for c in CASES}
    registered = {c for c in CODES if c.startswith("CP2")}
    assert registered == tested
    for code in registered:
        text = CODES[code].explanation
        assert "What:" in text and "Why:" in text and "Fix:" in text and "Bad:" in text


def test_lane_math_counts_in_device_code_only():
    # A bitmap's `idx / 32` in host code is no lane math; the same in a __device__
    # function (even one with no threadIdx or warp word in its file) is.
    host = "static inline bool test(const unsigned *bits, int idx) {\n" \
           "  return bits[idx / 32] >> (idx % 32) & 1;\n}\n"
    assert "CP203" not in _codes(host)
    assert "CP203" in _codes(host.replace("static inline", "__device__ inline"))


def test_block_size_hazards_need_a_wide_wavefront():
    bad = next(c[1] for c in CASES if c[0] == "CP217")
    assert "CP217" not in _codes(bad, warp_size=32)


@pytest.mark.parametrize("guard", ["#ifndef USE_ROCM", "#if !defined(__HIP_PLATFORM_AMD__)",
                                   "#ifdef USE_ROCM\n#else", "#if !BNB_HIP", "#if WITH_ROCM\n#else",
                                   "#ifdef USE_ROCM\n#elif X\n#else"])
def test_findings_in_branches_only_cuda_compiles_are_dropped(guard):
    bad = next(c[1] for c in CASES if c[0] == "CP210")
    assert _codes(f"{guard}\n{bad}#endif\n") == []
    # the project's own ROCm code: left as written, reported as CP160 (issue 21), not CP210
    rocm = translate_source(f"#ifdef USE_ROCM\n{bad}#endif\n").findings
    assert [f.code for f in rocm] == ["CP160"]
    assert "CP210" in _codes(f"#if !defined(USE_ROCM) || X\n{bad}#endif\n")  # maybe
    assert "CP210" in _codes(f"#ifndef __HIP_DEVICE_COMPILE__\n{bad}#endif\n")  # HIP's host pass


def test_compute_type_hazard_is_for_hipblas_only():
    bad = next(c[1] for c in CASES if c[0] == "CP216")
    assert "CP216" not in _codes(bad, variants=(("blas", "rocblas"),))  # CP108 says it all


def test_warp_hazards_follow_the_warp_size():
    bad = KERNEL.format("  int lane = threadIdx.x & 31; unsigned m = __ballot_sync(0xffffffff, 1);")
    assert {"CP201", "CP202", "CP203"} <= set(_codes(bad))
    assert not _codes(bad, warp_size=32)


def test_cli_warp_size(tmp_path):
    from click.testing import CliRunner

    from cudaport.cli.main import main

    src = tmp_path / "lane.cu"
    src.write_text(KERNEL.format("  int lane = threadIdx.x & 31;"))
    wide = CliRunner().invoke(main, ["translate", str(src), "-o", str(tmp_path / "a.hip")])
    narrow = CliRunner().invoke(main, ["translate", str(src), "-o", str(tmp_path / "b.hip"),
                                       "--warp-size", "32"])
    assert "CP203" in wide.output and "CP203" not in narrow.output


def test_hazard_location_and_message():
    (f,) = [f for f in translate_source(KERNEL.format('  asm("pmevent 1;");')).findings
            if f.code == "CP210"]
    assert (f.line, f.col, f.severity, f.engine) == (2, 3, "error", "lexical")


@pytest.mark.slow  # clang
def test_a_branch_no_build_compiles_is_not_reported():
    """`#if 0` is compiled by no build, HIP's included (cudaport/preprocessor/conditions.py): its PTX
    is no problem on the target, with or without clang; an `#if` clang cannot decide is
    still read by text."""
    src = "#if 0\n" + KERNEL.format('  asm("pmevent 1;");') + "#endif\n"
    assert "CP210" not in _codes(src, clang=True, header_mode="stub")
    unknown = "#if SOME_PROJECT_SWITCH\n" + KERNEL.format('  asm("pmevent 1;");') + "#endif\n"
    assert "CP210" in _codes(unknown)


def test_blanking_keeps_offsets():
    src = b'int a; // asm("x")\nconst char *s = "asm(\\"y\\")"; /* 0xffffffff */\n'
    out = blank_comments_and_literals(src)
    assert len(out) == len(src) and out.count(b"\n") == 2
    assert b"asm" not in out and b"0xffffffff" not in out


# Cases only clang can see: a 32-bit type behind a typedef, a launch in device code reached
# through a lambda, a cudaDeviceProp field through a pointer returned by a function.
CLANG_CASES = [
    ("CP201", "typedef unsigned int u32;\n" + KERNEL.format("  u32 m = __ballot_sync(~0ull, v > 0);"),
     "typedef unsigned long long u64;\n" + KERNEL.format("  u64 m = __ballot_sync(~0ull, v > 0);")),
    ("CP212", "__global__ void child() {}\n__device__ void helper() { child<<<1, 1>>>(); }\n",
     "__global__ void child() {}\n__host__ void helper() { child<<<1, 1>>>(); }\n"),
]


@pytest.mark.slow  # clang
@pytest.mark.parametrize("code, bad, good", CLANG_CASES, ids=[c[0] for c in CLANG_CASES])
def test_clang_hazards(code, bad, good):
    r = translate_source(bad, clang=True, header_mode="stub")
    assert [f.engine for f in r.findings if f.code == code] == ["clang"], r.findings
    r = translate_source(good, clang=True, header_mode="stub")
    assert code not in [f.code for f in r.findings]


def test_gaps_a_newer_hip_closed_are_not_reported():
    """ROCm 6.4.3's headers have meta_group_rank, binary_partition and most of the
    cudaDeviceProp members HIP 5.2 lacked: with the default target they port, and the
    partition, which HIP declares only with its warp-sync intrinsics, gets their macro."""
    src = ("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
           "__global__ void k(int* out, const cudaDeviceProp* p) {\n"
           "  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n"
           "  auto h = cg::binary_partition(t, threadIdx.x & 1);\n"
           "  out[t.meta_group_rank()] = h.size() + p->persistingL2CacheMaxSize;\n}\n")
    assert _codes(src) == []
    assert sorted(_codes(src, target_version="5.2")) == ["CP213", "CP213", "CP214"]
    out = translate_source(src, target_version="6.4").output
    assert out.startswith(b"#ifndef HIP_ENABLE_WARP_SYNC_BUILTINS\n")
    assert _codes(src, target_version="6.4") == []
    assert b"HIP_ENABLE_WARP_SYNC_BUILTINS" not in translate_source(src).output  # HIP 7
    message = next(f.message for f in translate_source(src, target_version="5.2").findings
                   if f.code == "CP214")
    assert message == ("cudaDeviceProp::persistingL2CacheMaxSize has no counterpart in "
                       "hipDeviceProp_t (HIP 5.2)")


def test_a_build_switch_no_compiler_defines_is_reported_once_when_it_hides_an_error():
    # faiss: `#ifdef USE_AMD_ROCM` ... `#else` CUDA code; compiled as translated (hipcc
    # defines no USE_AMD_ROCM), ROCm 6.4 takes the CUDA branch.
    bad = next(c[1] for c in CASES if c[0] == "CP210")

    def _all_codes(src: str, **kw) -> list[str]:
        return [f.code for f in translate_source(src, **kw).findings]

    src = f"#ifdef USE_AMD_ROCM\n#define W 64\n#else\n{bad}#endif\n#if defined(USE_AMD_ROCM)\n#endif\n"
    found = translate_source(src).findings
    assert [(f.code, f.line, f.identifier) for f in found] == [("CP166", 1, "USE_AMD_ROCM")]
    assert found[0].severity == "error" and "-DUSE_AMD_ROCM" in found[0].message
    # not when the user says the build defines it, nor when nothing was hidden
    assert _all_codes(src, defines=("USE_AMD_ROCM=1",)) == []
    assert _all_codes("#ifdef USE_AMD_ROCM\n#define W 64\n#else\n#define W 32\n#endif\n") == []
    # not for the target compiler's own macros, nor a switch the project computes itself
    for guard in ("#ifdef __HIP_PLATFORM_AMD__\n#else", "#define BNB_HIP 1\n#if BNB_HIP\n#else",
                  "#ifndef USE_ROCM", "#if WITH_ROCM\n#else"):
        assert "CP166" not in _all_codes(f"{guard}\n{bad}#endif\n")
    # nor for the version macros HIP's headers define: bitsandbytes' compat.cuh tests
    # HIP_VERSION_MAJOR inside its own (computed) HIP branch, before its CUDA #else
    bnb = ("#if defined(__HIP_PLATFORM_AMD__)\n#define BNB_HIP 1\n#else\n#define BNB_HIP 0\n"
           "#endif\n#if BNB_HIP\n#include <hip/hip_version.h>\n"
           "#if defined(HIP_VERSION_MAJOR) && HIP_VERSION_MAJOR < 7\n"
           "#define HIP_ENABLE_WARP_SYNC_BUILTINS\n#endif\n#else\n" f"{bad}#endif\n")
    assert "CP166" not in _all_codes(bnb)
    assert "CP166" in _all_codes(bnb.replace("HIP_VERSION_MAJOR", "HIP_BUILD_SWITCH"))


def test_asm_and_texture_words_come_from_the_scan_in_code_only():
    # CP210/CP211 are checked where the scan saw the words in code: not in comments or
    # strings, nor inside longer names
    src = ('// asm("nop"); texture<float> old;\nconst char *s = "asm(x)";\n'
           'int myasm(int); surface_t x;\n')
    assert _codes(src) == []
    assert _codes(src + '__device__ void f() { asm volatile("nop"); }\n') == ["CP210"]


# cavazos-lab/PolyBench-ACC's polybench.c, which its .cu files include: the CPU's counter.
HOST_ASM = ('static unsigned long long rdtsc() {\n  unsigned lo, hi;\n'
            '  __asm__ volatile ("RDTSC" : "=a" (lo), "=d" (hi));\n'
            '  return (unsigned long long)hi << 32 | lo;\n}\n')


@pytest.mark.parametrize("name,device,reported", [
    ("polybench.c", "", False), ("timer.cpp", "", False),  # nvcc gives these to the host compiler
    # no device code and no PTX in the text: host functions' assembly, the CPU's, in a .cu
    # file or a header as well (ggml's CPU headers, hexagon and RISC-V back ends)
    ("timer.cu", "", False), ("timer.h", "", False),
    # device code beside it: the function is still a host function, its assembly the CPU's
    # (CudaSift's cudautils.h: RDTSC in TimerCPU::getTSC beside __device__ shuffles; called
    # blocked, its units compile with ROCm 7.2)
    ("timer.cpp", "__global__ void k() {}\n", False), ("timer.h", "__device__ int f();\n", False),
    ("timer.h", "class TimerCPU {\n public:\n  unsigned long long read() { return rdtsc(); }\n"
     "};\n__device__ int f();\n", False),
])
def test_assembly_in_host_sources_is_not_ptx(name, device, reported):
    r = translate_bytes((device + HOST_ASM).encode(), path=name)
    assert ("CP210" in [f.code for f in r.findings]) is reported


@pytest.mark.parametrize("body", [
    HOST_ASM.replace("static unsigned", "__device__ unsigned"),  # a device function
    HOST_ASM.replace("static unsigned", "__host__ __device__ unsigned"),  # compiled for both
    # a device lambda inside a host function
    "void h() {\n  auto f = [] __device__ () {\n    unsigned lo, hi;\n"
    '    __asm__ volatile ("RDTSC" : "=a" (lo), "=d" (hi));\n  };\n}\n',
    # a member function of a class, marked for the device
    "struct T {\n  __device__ unsigned f() {\n    unsigned lo, hi;\n"
    '    __asm__ volatile ("RDTSC" : "=a" (lo), "=d" (hi));\n    return lo;\n  }\n};\n',
], ids=["device", "host-device", "device-lambda", "device-member"])
def test_assembly_in_device_bodies_is_reported(body):
    r = translate_bytes(("__global__ void k() {}\n" + body).encode(), path="timer.cu")
    assert "CP210" in [f.code for f in r.findings]


def test_a_launch_after_a_kernel_whose_if_branches_pair_braces_differently_is_host_code():
    # ggml's mmf.cuh: the kernel's #if branch closes loops it opened, its #else has no
    # loops; counted across both branches the braces left the kernel open, so the host
    # launcher after it was "device code" (CP212) and every includer blocked
    src = ("__global__ void child() {}\n__global__ void k(int* p) {\n#if defined(FAST)\n"
           "  for (int i = 0; i < 4; i++) {\n    if (p) {\n      p[i] = 0;\n    }\n  }\n"
           "#else\n  p[0] = 0; }\n  void never_compiled_with_it() {\n#endif\n}\n"
           "void launch() { child<<<1, 1>>>(); }\n")
    from cudaport import translate_source

    assert not [f for f in translate_source(src).findings if f.code == "CP212"]
    inside = src.replace("  p[0] = 0; }", "  p[0] = 0; child<<<1, 1>>>(); }")
    assert [f.line for f in translate_source(inside).findings if f.code == "CP212"] == [10]
