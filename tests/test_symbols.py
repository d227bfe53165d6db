"""Whose name is this: the symbol model (cudaport/symbols/) decides, once per file, whether a
CUDA-spelled token is CUDA's or the project's, and every pass follows it.

Each case reduces a defect seen on real projects (issue 42) to a few lines."""

from __future__ import annotations

import pytest

from cudaport import Options, translate_bytes
from cudaport.translate.context import FileContext
from cudaport.rules.compiled import get_compiled
from cudaport.source.scan import scan
from cudaport.symbols import model as M


def tr(src: str, path: str = "k.cu", **options):
    return translate_bytes(src.encode(), Options(**options), path)


def codes(result, severity: str | None = None) -> list[tuple[int, str, str]]:
    return [(f.line, f.code, f.identifier) for f in result.findings
            if severity is None or f.severity == severity]


def symbols(src: str):
    compiled = get_compiled(Options())
    data = src.encode()
    return FileContext(data, "k.cu", compiled, Options(), scan(data, compiled)).symbols


def owner_at(src: str, needle: str, nth: int = 0) -> str:
    start = -1
    for _ in range(nth + 1):
        start = src.index(needle, start + 1)
    r = symbols(src).ref(start)
    return r.owner if r is not None else "none"


def test_members_named_like_cuda_functions_are_the_classs():
    # case 1: a class's own members (`int cuFuncSetAttribute(int) const;`, `mulhi`) were
    # CP101 errors while a neighbour got CP164
    src = ("#include <cuda.h>\nclass Module {\n public:\n"
           "  int cuFuncSetAttribute(int attr) const;\n"
           "  int mulhi(int a, int b) const { return a * b; }\n"
           "  int twice(int a) const { return mulhi(a, 2); }\n};\n"
           "int Module::cuFuncSetAttribute(int attr) const { return mulhi(attr, 1); }\n"
           "int use(Module& m) { return m.cuFuncSetAttribute(1); }\n")
    r = tr(src)
    assert not codes(r, "error")
    assert r.text == src.replace("<cuda.h>", "<hip/hip_runtime.h>")
    assert {i for _, c, i in codes(r) if c == "CP164"} == {"cuFuncSetAttribute", "mulhi"}


def test_forward_declarations_of_opaque_types_block_nothing():
    # case 2: `extern "C" { struct cublasContext; struct nvmlDevice_st; }` used as pointers
    # blocked every includer
    src = ('#pragma once\nextern "C" {\nstruct cublasContext;\nstruct nvmlDevice_st;\n}\n'
           "typedef struct cublasContext* MyBlasHandle;\nvoid setHandle(cublasContext* h);\n"
           "nvmlDevice_st* device();\n")
    r = tr(src, "api.h")
    assert r.text == src and not codes(r, "error")
    # an opaque pointer needs no declaration in the file either
    alone = "void keep(struct cudaGraphicsResource_not_a_thing* p);\nstruct cublasContext* h;\n"
    assert not codes(tr(alone, "a.h"), "error")


def test_a_forward_declaration_the_target_renames_is_renamed():
    src = "#include <nccl.h>\nstruct ncclWindow_vidmem;\n"
    assert "struct ncclWindow;" in tr(src, target_version="7.2").text


def test_enumerators_in_the_projects_namespace_stay_consistent():
    # case 4: renamed at the definition, kept at `lib::` uses: no longer compiled
    src = ("namespace lib {\nenum Status { CUBLAS_STATUS_SUCCESS = 0, "
           "CUBLAS_STATUS_NOT_INITIALIZED = 1, CUBLAS_STATUS_ALLOC_FAILED = 3 };\n"
           "inline bool ok(Status s) { return s == CUBLAS_STATUS_SUCCESS; }\n}\n"
           "inline bool fine(lib::Status s) { return s == lib::CUBLAS_STATUS_SUCCESS; }\n"
           "using cublasHandle_t = struct cublasContext*;\nvoid keep(cublasHandle_t h);\n")
    r = tr(src, "lib.h")
    assert r.text == src and not codes(r, "error")


def test_an_enumerator_outside_the_namespace_is_cudas():
    src = ("#include <cublas_v2.h>\nnamespace lib { enum S { CUBLAS_STATUS_SUCCESS = 0 }; }\n"
           "bool f(cublasStatus_t s) { return s == CUBLAS_STATUS_SUCCESS; }\n")
    assert "return s == HIPBLAS_STATUS_SUCCESS;" in tr(src).text
    assert "enum S { CUBLAS_STATUS_SUCCESS = 0 }" in tr(src).text


def test_template_parameters_and_locals_named_like_cuda_types_are_the_projects():
    # case 6
    src = ("#include <curand_kernel.h>\n#include <cublas_v2.h>\n"
           "template <typename curandState>\n"
           "__device__ float draw(curandState* s) { return 0.5f; }\n"
           "void run(cublasHandle_t h) {\n  cublasStatus_t cublasStatus = cublasCreate(&h);\n"
           "  if (cublasStatus != CUBLAS_STATUS_SUCCESS) return;\n}\n"
           "curandState global_state;\n")
    out = tr(src).text
    assert "template <typename curandState>\n__device__ float draw(curandState* s)" in out
    assert "hipblasStatus_t cublasStatus = hipblasCreate(&h);" in out
    assert "if (cublasStatus != HIPBLAS_STATUS_SUCCESS)" in out
    assert "hiprandState global_state;" in out  # (outside the template: CUDA's)


def test_a_local_warp_size_in_a_host_file_is_no_device_code():
    # case 14: `int warpSize = ...` in a host file counted as 25 device references
    src = ("#include <cstdio>\nint main() {\n  int warpSize = 32;\n"
           "  int lanes = warpSize * 2;\n  printf(\"%d\\n\", lanes);\n  return warpSize;\n}\n")
    r = tr(src, "main.cpp")
    assert r.text == src


def test_a_name_before_scope_resolution_is_never_a_variable():
    src = ("#include <cub/cub.cuh>\n"
           "void f(int* cub) { cub::DeviceScan::ExclusiveSum(0, n, a, b, 4); }\n")
    assert "hipcub::DeviceScan::ExclusiveSum" in tr(src).text


def test_nvcc_is_read_as_hipcc_reads_it():
    # case 8: renamed to __HIPCC__, `#if defined(__NVCC__) ... #elif defined(__clang__)`
    # sent hipcc into the nvcc branch
    src = ("#if defined(__NVCC__)\n#pragma nv_diag_suppress 177\n#elif defined(__clang__)\n"
           "#pragma clang diagnostic ignored \"-Wunused\"\n#endif\n")
    r = tr(src, "d.h")
    assert r.text == src
    assert [c for _, c, _ in codes(r)] == ["CP215"]


def test_host_launches_of_kernels_defined_per_arch_branch_are_host_code():
    # case 9
    src = ("#if __CUDA_ARCH__ >= 700\n__global__ void k(float* x) { x[0] = 1; }\n#else\n"
           "__global__ void k(float* x) { x[0] = 2; }\n#endif\n"
           "void launch(float* x) { k<<<1, 1>>>(x); }\n")
    assert "CP212" not in [c for _, c, _ in codes(tr(src))]


def test_a_host_only_header_with_its_own_math_is_not_edited():
    # case 7: it got #include <hip/hip_runtime.h>, and g++ units including it failed
    src = ("#pragma once\n#include <cmath>\nnamespace m {\n"
           "inline double atan2(double y, double x) { return std::atan2(y, x); }\n"
           "inline double fdim(double a, double b) { return a > b ? a - b : 0; }\n"
           "inline long long llround(double a) { return (long long)(a + 0.5); }\n}\n")
    assert tr(src, "m.h").text == src


def test_a_namespaced_atomic_of_the_project_is_not_hips():
    # case 14: wrapped in #if !defined(__HIP_PLATFORM_AMD__), its CAS loop swapped for HIP's
    src = ("namespace mine {\n__device__ float atomicMin(float* addr, float v) {\n"
           "  int* a = (int*)addr; int old = *a, assumed;\n"
           "  do { assumed = old; old = atomicCAS(a, assumed, __float_as_int(fminf(v, "
           "__int_as_float(assumed)))); } while (assumed != old);\n"
           "  return __int_as_float(old);\n}\n}\n")
    r = tr(src)
    assert "__HIP_PLATFORM_AMD__" not in r.text and "CP115" not in [c for _, c, _ in codes(r)]


def test_the_targets_own_layer_under_nvcc_is_left_alone():
    # case 13: a HIP->CUDA layer used only under nvcc lost 60 lines, and one wrapper
    # called itself
    src = ("#pragma once\n#if defined(__CUDACC__) && !defined(__HIP__)\n"
           "#include <cuda_runtime.h>\n#define hipMalloc cudaMalloc\n#define hipFree cudaFree\n"
           "inline const char* hipGetErrorString(cudaError_t e) { return cudaGetErrorString(e); }\n"
           "#else\n#include <hip/hip_runtime.h>\n#endif\n")
    r = tr(src, "compat.h")
    assert r.text == src and not codes(r, "error")


def test_an_include_under_a_switch_nothing_defines_is_a_warning():
    # case 15: `#ifdef WITH_FLASH_ATTN` blocked a unit that compiles
    src = ("#include <cuda_runtime.h>\n#ifdef WITH_FLASH_ATTN\n#include <cute/tensor.hpp>\n"
           "#endif\n__global__ void k(float* x) { x[0] = 1; }\n")
    r = tr(src)
    assert not codes(r, "error")
    (f,) = [f for f in r.findings if f.identifier == "cute/tensor.hpp"]
    assert f.severity == "warning" and "WITH_FLASH_ATTN" in f.message


def test_a_macro_nothing_expands_blocks_nothing():
    # case 3: `#define cc(s) { cutlass::Status e = s; }` under #ifdef DEBUG, never expanded
    src = ("#pragma once\n#include <cstdio>\n#ifdef DEBUG\n"
           "#define cc(s) { cutlass::Status e = s; if (e != cutlass::Status::kSuccess) "
           "printf(\"bad\"); }\n#else\n#define cc(s) s\n#endif\ninline int f() { return 1; }\n")
    r = tr(src, "m.h")
    assert not codes(r, "error")
    used = src + "inline int g() { cc(f()); return 0; }\n"
    # expanded, it is an error where DEBUG is set; with DEBUG unknown a warning naming it
    assert codes(tr(used, "m.h", defines=("DEBUG",)), "error")
    (f, _) = [f for f in tr(used, "m.h").findings if f.code == "CP113"]
    assert f.severity == "warning" and "DEBUG" in f.message
    alone = ("#define cc(s) { cutlass::Status e = s; }\n")
    assert not codes(tr(alone, "m.h"), "error")
    assert codes(tr(alone + "void g() { cc(f()); }\n", "m.h"), "error")


def test_a_projects_overload_of_a_warp_intrinsic_keeps_its_calls():
    # case 5: the call's mask became __activemask(), so HIP's template was chosen over
    # the project's overload, which then did not compile
    src = ("struct Pair { float a, b; };\n"
           "__device__ Pair __shfl_xor_sync(unsigned mask, Pair v, int m) {\n"
           "  Pair r;\n  r.a = __shfl_xor_sync(mask, v.a, m);\n"
           "  r.b = __shfl_xor_sync(mask, v.b, m);\n  return r;\n}\n"
           "__global__ void k(Pair* p, float* f) {\n  Pair v = p[threadIdx.x];\n"
           "  v = __shfl_xor_sync(0xffffffff, v, 1);\n"
           "  f[0] = __shfl_xor_sync(0xffffffff, f[0], 1);\n  p[threadIdx.x] = v;\n}\n")
    r = tr(src, target_version="7.2")
    assert "v = __shfl_xor_sync(0xffffffff, v, 1);" in r.text
    assert "f[0] = __shfl_xor_sync(__activemask(), f[0], 1);" in r.text
    # inside the overload the 32-bit mask parameter is named (HIP 7.2's static assertion)
    assert [line for line, c, _ in codes(r) if c == "CP219"] == [4, 5]
    assert [line for line, c, _ in codes(r) if c == "CP202"] == [11]
    # a call whose argument's type is not read is left as written, with a warning
    unsure = src.replace("f[0] = __shfl_xor_sync(0xffffffff, f[0], 1);",
                         "f[0] = __shfl_xor_sync(0xffffffff, g(f), 1);")
    r = tr(unsure, target_version="7.2")
    assert "__shfl_xor_sync(0xffffffff, g(f), 1)" in r.text
    assert [line for line, c, _ in codes(r) if c == "CP175"] == [11]


def test_an_overloads_decision_is_the_same_on_translated_output():
    # fuzzing (case 11): the overload's CUDA-typed parameter is renamed by the first pass
    # (cudaMemcpyKind -> hipMemcpyKind); read as a type of the project's own on the second,
    # it made the three-argument call CUDA's, and the second pass renamed it
    src = ("struct Buffer { void* p; };\n"
           "void cudaMemcpy(Buffer& b, const void* s, size_t n,\n"
           "                cudaMemcpyKind k = cudaMemcpyHostToDevice);\n"
           "void f(Buffer& b, const void* s, float* d, size_t n) {\n"
           "  cudaMemcpy(b, s, n);\n  cudaMemcpy(d, s, n, cudaMemcpyHostToDevice);\n}\n")
    once = tr(src).text
    assert "  cudaMemcpy(b, s, n);" in once and "hipMemcpy(d, s, n, hipMemcpyHostToDevice)" in once
    assert tr(once).text == once
    # a call's argument list misread as a declaration (an unterminated string a mutation
    # made left the braces open) declares no overload: `y.data()` is no parameter
    call = ("void g(float* d, std::vector<float>& y) {\n  h(\"x);\n"
            "  cudaMemcpy(y.data(), d, 4, cudaMemcpyDeviceToHost);\n"
            "  cudaMemcpy(d, y.data(), 4, cudaMemcpyHostToDevice);\n}\n")
    once = tr(call).text
    assert once.count("hipMemcpy(") == 2
    assert [c for _, c, _ in codes(tr(call)) if c != "CP907"] == []  # (CP907: the string)
    assert tr(once).text == once


@pytest.mark.parametrize("src, needle, nth, owner", [
    ("void f() { int warpSize = 1; g(warpSize); }\n", "warpSize", 1, M.PROJECT),
    ("void f() { g(warpSize); int warpSize = 1; }\n", "warpSize", 0, M.UNDECIDED),
    ("struct S { cudaStream_t cudaStream; };\nvoid f(S s) { g(s.cudaStream); }\n",
     "cudaStream", 2, M.PROJECT),
    ("namespace a { void cudaFree(void*); }\nusing namespace a;\nvoid f() { cudaFree(0); }\n",
     "cudaFree", 1, M.PROJECT),
    ("namespace a { void cudaFree(void*); }\nvoid f() { cudaFree(0); }\n",
     "cudaFree", 1, M.UNDECIDED),
    ("void f(int cudaStream) { g(cudaStream); }\nvoid h() { g(cudaStream); }\n",
     "cudaStream", 2, M.UNDECIDED),
], ids=["local", "before-local", "field", "using-directive", "other-namespace", "parameter"])
def test_lookup(src, needle, nth, owner):
    assert owner_at(src, needle, nth) == owner


def test_the_projects_hip_switch_from_its_cmake_build_is_defined(tmp_path):
    # case 12: `add_definitions(-DUSE_AMD_ROCM)` under the project's ROCm option was
    # unknown (CP166), and its CUDA #else blocked every file
    from cudaport.run.check import check_paths

    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX)\n"
        "option(ENABLE_ROCM \"build for ROCm\" OFF)\nif(ENABLE_ROCM)\n"
        "  add_definitions(-DUSE_AMD_ROCM)\nendif()\n")
    (tmp_path / "k.cu").write_text(
        "#ifdef USE_AMD_ROCM\n#include <hip/hip_runtime.h>\n#else\n#include <cute/tensor.hpp>\n"
        "#endif\n__global__ void k(float* x) { x[0] = 1; }\n")
    report = check_paths([str(tmp_path)], Options())
    assert not [f for f in report.findings if f.severity == "error"], report.findings
    assert "CP166" not in {f.code for f in report.findings}
    # without the build file the switch is unknown: CP166 says so
    alone = check_paths([str(tmp_path / "k.cu")], Options())
    assert "CP166" in {f.code for f in alone.findings}


@pytest.mark.parametrize("src, options", [
    ("#include <cuda_runtime.h>\n#include <cuda.h>\n#include <cstdio>\n"
     "inline void gpuAssert(cudaError_t code) { if (code != cudaSuccess) printf(\"x\"); }\n"
     "inline void gpuAssert(CUresult code) { if (code != CUDA_SUCCESS) printf(\"y\"); }\n", {}),
    ("#include <cuda_fp16.h>\n"
     "__global__ void k(double* d, __half* h) { h[0] = __double2half(d[0]); }\n",
     {"rewrite_comments": True}),
    # the include the first pass adds stood in the head of the declaration after it
    ("cudaStream_t cudaMalloc;\nvoid f() { cudaMalloc = 0; }\n", {}),
    ("cudaMalloc cudaMalloc[", {}),  # (bench/fuzz.py's shrunk input)
], ids=["overload-pair", "portable-header-comments", "declaration-after-added-include",
        "fuzz-declaration-at-file-start"])
def test_translating_the_output_again_changes_nothing(src, options):
    # case 11: fuzzing found second passes that edited the first's output
    once = tr(src, **options).text
    assert tr(once, **options).text == once


# Found by measuring the model on projects new to cudaport (issue 42's rotation: marian,
# DualSPHysics, ...; bench/verify_real.py). Each is a host file that a plain g++ unit
# includes: after `#include <hip/hip_runtime.h>` is added, g++ stops at ROCm's
# "#error Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__"
# (DualSPHysics's translated JDsDamping.cpp, whose original compiles with g++).

def test_a_host_file_calling_cs_math_is_not_edited():
    # DualSPHysics JDsDamping.cpp: C's atan2 in a host function is the C library's
    src = ('#include <cmath>\n#include "geo.h"\n'
           "double angle(double y, double x) { return atan2(y, x) * 57.29577951308232; }\n")
    for path in ("damping.cpp", "damping.h"):
        assert tr(src, path).text == src


@pytest.mark.parametrize("src", [
    "__device__ float f(float y, float x) { return atan2f(y, x); }\n",
    "__host__ __device__ float f(float y, float x) { return atan2f(y, x); }\n",
    "void h() {\n  auto f = [] __device__ (float y) { return atan2f(y, 1.f); };\n}\n",
    "struct S {\n  __device__ float f(float y) { return atan2f(y, 1.f); }\n};\n",
    "float h(float x) { return __saturatef(x); }\n",  # an intrinsic is CUDA's anywhere
], ids=["device", "host-device", "device-lambda", "device-member", "intrinsic"])
def test_device_math_outside_host_functions_is_cudas(src):
    assert tr(src, "f.h").text.startswith("#include <hip/hip_runtime.h>\n")


def test_a_device_name_in_an_unexpanded_macro_body_adds_no_main_header():
    """A device function named only in a macro body nobody expands here brings no HIP main
    header into a host header (DualSPHysics DualSphDef.h, included by 67 of its files); the
    file that expands the macro asks for it."""
    src = ("#ifndef DEF_H\n#define DEF_H\n#define CELL_X(c) (c >> 20)\n"
           "#define CELL_FX(f) (int(CELL_X(__float_as_uint(f))))\n#endif\n")
    out = tr(src, "def.h").text
    assert "hip_runtime" not in out and "__float_as_uint" in out
    continued = ("#define CHECK(x) \\\n  if ((x) != cudaSuccess) \\\n"
                 "    printf(\"%s\", cudaGetErrorString(x))\n")
    assert "hip_runtime" not in tr(continued, "check.h").text
    # expanded in the file itself: it needs the header
    used = continued + "inline void f(int e) { CHECK((cudaError_t)e); }\n"
    assert "hip_runtime" in tr(used, "check.h").text


def test_a_compiler_check_on_cudacc_adds_no_main_header():
    """A header testing only __CUDACC__ in a compiler check (marian's 3rd_party/catch.hpp):
    __HIPCC__ is the compiler's own macro, so the header needs no HIP header for it."""
    src = ("#ifndef GUARD_H\n#define GUARD_H\n"
           "#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)\n"
           '#  define SUPPRESS _Pragma("GCC diagnostic push")\n#endif\n'
           "inline int twice(int a) { return 2 * a; }\n#endif\n")
    out = tr(src, "catch.hpp").text
    assert "hip_runtime" not in out and "<math.h>" not in out


def _unguarded_main_header(text: str) -> bool:
    """Whether the HIP main header is included where g++ would read it too (not right after
    an #if/#ifdef on __HIPCC__)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if "hip/hip_runtime.h" in line:
            before = [x for x in lines[:i] if x.strip()]
            if not (before and before[-1].lstrip().startswith("#if") and "__HIPCC__" in before[-1]):
                return True
    return False


def test_a_header_shared_with_cpu_builds_keeps_g_plus_plus_working():
    """A header of the project's CPU and GPU builds with a host-only #ifndef __CUDACC__
    branch (ppl.cv's include/ppl/cv/types.h, read by its x86 and arm builds): its test is
    the compiler's own __HIPCC__, its __host__ __device__ sit in a macro it does not expand,
    so no includer gets the HIP main header from it."""
    src = ("#ifndef TYPES_H\n#define TYPES_H\n#include <stdlib.h>\n"
           "namespace cv { enum Format { JPEG, PNG }; }\n"
           "#ifndef __CUDACC__\n#define CUDAC inline\n#else\n"
           "#define CUDAC inline __host__ __device__\n#endif\n#endif\n")
    assert not _unguarded_main_header(tr(src, "types.h").text)


# eyalroz/cuda-api-wrappers opens `namespace cuda { namespace device {` itself: 286 CP110
# errors (cuda::device, "libcu++") blocked 72 of its files, though libcu++ is not used
@pytest.mark.parametrize("decl", [
    "namespace cuda {\nnamespace device {\nusing id_t = int;\n}\n}\n",
    "namespace cuda::device {\nusing id_t = int;\n}\n",
    "namespace cuda {\nstruct device { using id_t = int; };\n}\n",
], ids=["nested", "cxx17", "class"])
def test_the_projects_own_namespace_inside_cuda_is_no_libcudacxx(decl):
    r = tr(decl + "void f(cuda::device::id_t d);\n", "api.hpp")
    assert "CP110" not in [c for _, c, _ in codes(r)]


def test_the_projects_namespace_in_cuda_is_read_across_the_run(tmp_path):
    from cudaport.run.check import check_paths

    (tmp_path / "api.hpp").write_text("namespace cuda {\nnamespace device {\nusing id_t = int;\n"
                                      "}\n}\n")
    (tmp_path / "use.cu").write_text('#include "api.hpp"\n#include <cuda_runtime.h>\n'
                                     "void g(cuda::device::id_t d) { cudaSetDevice(d); }\n")
    report = check_paths([str(tmp_path)], Options())
    assert "CP110" not in {f.code for f in report.findings}


def test_libcudacxx_names_the_project_does_not_open_stay_reported():
    # the project's cuda::device does not make libcu++'s cuda::atomic its own
    src = ("#include <cuda/atomic>\nnamespace cuda {\nnamespace device {\nusing id_t = int;\n"
           "}\n}\n__global__ void k(cuda::device::id_t d) { cuda::atomic<int> a; }\n")
    assert [(line, i) for line, c, i in codes(tr(src)) if c == "CP110"] == \
        [(1, "cuda/atomic"), (7, "cuda::atomic")]


def test_launch_bounds_before_a_kernel_name_is_not_a_function_of_the_project():
    """ggml's wkv.cu: `void __launch_bounds__(WARP_SIZE * rows_per_block, 2)` with the
    kernel's name on the next line read as the project's own overload (CP164)."""
    src = ("#include <cuda_runtime.h>\n#define WARP_SIZE 32\ntemplate <int rows_per_block>\n"
           "static __global__ void __launch_bounds__(WARP_SIZE * rows_per_block, 2)\n"
           "kern(const int T, float * dst) { dst[0] = T; }\n")
    assert "CP164" not in {code for _, code, _ in codes(tr(src))}
    assert owner_at(src, "__launch_bounds__") != M.PROJECT
