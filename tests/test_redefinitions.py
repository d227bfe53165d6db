"""CP115: device functions the project defines that HIP already defines; library hints for
cuBLAS names hipBLAS lacks (issue 16)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from conftest import compile_object
from cudaport.translate.passes.redefinitions import parameter_types
from cudaport.translate.pipeline import translate_source
from cudaport.run.verify import rocm_dir

ROOT = Path(__file__).resolve().parent.parent
ROCM_INCLUDE = rocm_dir("7.2") / "usr" / "include"


def _cp115(src: str) -> list[str]:
    return [f.message for f in translate_source(src).findings if f.code == "CP115"]


@pytest.mark.parametrize("src", [
    "__device__ float atomicMax(float* address, float val) { return val; }\n",
    "static __device__ __forceinline__ float atomicMax(float *a, float v)\n{ return v; }\n",
    "__device__ double atomicAdd(double* address, double val) { return val; }\n",
    "#if __CUDA_ARCH__ < 600\n__device__ double atomicAdd(double *a, double b) { return b; }\n#endif\n",
])
def test_redefinition_of_a_hip_device_function_is_reported(src):
    messages = _cp115(src)
    assert len(messages) == 1 and "hip/amd_detail/amd_hip_atomic.h" in messages[0]


@pytest.mark.parametrize("src", [
    "__device__ float myAtomicMax(float* a, float v) { return v; }\n",      # own name
    "__device__ float atomicMax(float2* a, float v) { return v; }\n",       # other overload
    "__device__ float atomicMax(float* a, float v);\n",                     # declaration only
    "// __device__ float atomicMax(float* a, float v) { return v; }\n",     # comment
    "#ifndef USE_ROCM\n__device__ float atomicMax(float* a, float v) { return v; }\n#endif\n",
    "__device__ void f(float* a) { atomicMax(a, 1.0f); }\n",                # a call
])
def test_other_code_is_not_reported(src):
    assert _cp115(src) == []


@pytest.mark.parametrize("params,types", [
    ("float* addr, float val", ["float*", "float"]),
    ("float *addr, float val = 0.f", ["float*", "float"]),
    ("unsigned long long int* p, unsigned long long int v",
     ["unsigned long long int*", "unsigned long long int"]),
    ("const __half2 * __restrict__ p", ["const __half2* __restrict__"]),
    ("void", []),
    ("int", ["int"]),
    ("std::pair<int, int> p", ["std::pair<int, int>"]),
])
def test_parameter_types(params, types):
    assert parameter_types(params) == types


@pytest.mark.skipif(not (ROCM_INCLUDE / "hip/amd_detail").is_dir(), reason="no ROCm 6.4 headers")
def test_hip_device_function_list_is_current():
    spec = importlib.util.spec_from_file_location(
        "gen_hip_device_functions", ROOT / "tools" / "gen_hip_device_functions.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    names = {line.split("\t")[1] for line in
             (ROOT / "rules/hip/cuda13-names.txt").read_text().splitlines()
             if line and not line.startswith("#") and line.split("\t")[2] == "function"}
    older = rocm_dir("6.4") / "usr" / "include"
    if not (older / "hip").is_dir():
        pytest.skip("no ROCm 6.4 folder (tools/setup-system.sh)")
    rows = gen.dated_rows(gen.device_functions(ROCM_INCLUDE, names), gen.hip_version(ROCM_INCLUDE),
                          gen.device_functions(older, names))
    listed = [tuple(line.split("\t")) for line in
              (ROOT / "rules/hip/hip-device-functions.txt").read_text().splitlines()
              if line and not line.startswith("#")]
    assert listed == [tuple("\t".join(row).rstrip("\t").split("\t")) for row in rows]


GEMM_ALGOS = """\
#include <cublas_v2.h>
cublasStatus_t gemm(cublasHandle_t h, const float* a, const float* b, float* c, int algo) {
  const float one = 1.0f, zero = 0.0f;
  if (algo < 0) algo = CUBLAS_GEMM_ALGO3_TENSOR_OP;
  return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, a, CUDA_R_32F, 4, b,
                      CUDA_R_32F, 4, &zero, c, CUDA_R_32F, 4, CUBLAS_COMPUTE_32F,
                      algo > 0 ? CUBLAS_GEMM_ALGO7 : CUBLAS_GEMM_DEFAULT_TENSOR_OP);
}
"""


def test_gemm_algorithms_become_the_default_with_a_warning():
    r = translate_source(GEMM_ALGOS)
    assert b"if (algo < 0) algo = HIPBLAS_GEMM_DEFAULT;" in r.output
    assert b"algo > 0 ? HIPBLAS_GEMM_DEFAULT : HIPBLAS_GEMM_DEFAULT" in r.output
    caveats = [(f.identifier, f.severity) for f in r.findings if f.code == "CP171"]
    assert caveats == [("CUBLAS_GEMM_ALGO3_TENSOR_OP", "warning"),
                       ("CUBLAS_GEMM_ALGO7", "warning")]  # (the default alias: none)
    assert "algorithm choice is dropped" in next(
        f.message for f in r.findings if f.code == "CP171")
    assert not [f for f in r.findings if f.severity == "error"]
    rocblas = translate_source(GEMM_ALGOS, variants=(("blas", "rocblas"),))
    assert b"algo = rocblas_gemm_algo_standard;" in rocblas.output


@pytest.mark.slow
def test_gemm_algorithm_translation_compiles_with_rocm_7_2(tmp_path):
    path = tmp_path / "gemm.hip"
    path.write_bytes(translate_source(GEMM_ALGOS).output)
    compile_object(path, "gfx942")


HELPER_MATH = """\
#include <cuda_runtime.h>
inline __host__ __device__ float2 operator*(float2 a, float2 b)
{
    return make_float2(a.x * b.x, a.y * b.y);
}
inline __host__ __device__ float2 operator*(float2 a, float b)
{
    return make_float2(a.x * b, a.y * b);
}
inline __host__ __device__ float3 operator/(const float3& a, const float3& b)
{
    return make_float3(a.x / b.x, a.y / b.y, a.z / b.z);
}
inline __host__ __device__ void operator+=(float2 &a, float2 b)
{
    a.x += b.x; a.y += b.y;
}
inline __host__ __device__ void operator*=(float2 &a, float b)
{
    a.x *= b; a.y *= b;
}
inline __host__ __device__ float2 operator+(float2 a, float2 b)
{
    return make_float2(a.x + b.x, a.y + b.y);
}
__device__ float2 use(float2 a, float2 b, float3 c, float s) {
  float2 d = a * b + a * s;
  d += b;
  d *= s;
  float3 e = c / c;
  return d + make_float2(e.x, e.y);
}
"""


def test_vector_operators_hip_defines_are_kept_for_cuda_only():
    r = translate_source(HELPER_MATH)
    out = r.output.decode()
    guard = "#if !defined(__HIP_PLATFORM_AMD__)\n"
    # float2*float2 alone, then float3/float3 and float2+=float2 as one run; the scalar
    # forms and operator+ (templates in HIP, which a non-template beats) stay.
    assert out.count(guard) == 2 and out.count("#endif\n") == 2
    first = out.index(guard)
    assert out[first:].startswith(guard + "inline __host__ __device__ float2 operator*(float2 a, "
                                  "float2 b)\n{\n    return make_float2(a.x * b.x, a.y * b.y);"
                                  "\n}\n#endif\ninline __host__ __device__ float2 operator*("
                                  "float2 a, float b)")
    assert "}\n#endif\ninline __host__ __device__ void operator*=(float2 &a, float b)" in out
    found = [(f.code, f.severity, f.line) for f in r.findings if f.code == "CP115"]
    assert found == [("CP115", "info", 2), ("CP115", "info", 10), ("CP115", "info", 14)]
    assert translate_source(out).output.decode() == out  # idempotent
    crlf = translate_source(HELPER_MATH.replace("\n", "\r\n")).output
    assert crlf == r.output.replace(b"\n", b"\r\n")


@pytest.mark.parametrize("src", [
    "#define OP(o) inline __host__ __device__ float2 operator o(float2 a, float2 b) "
    "{ return a; }\nOP(*)\n",                                          # in a macro: no fix
    "inline __host__ __device__ float2 operator*(float2 a, float2 b) { return a; } int x;\n",
])
def test_operator_sharing_its_lines_is_reported_not_moved(src):
    r = translate_source(src)
    assert "#if !defined" not in r.output.decode()
    assert [f.severity for f in r.findings if f.code == "CP115"] in ([], ["error"])


@pytest.mark.parametrize("src", [
    "struct V { float x; };\ninline V operator*(V a, V b) { return a; }\n"
    "inline __host__ __device__ float2 operator*(float2 a, int2 b) { return a; }\n",
    # built-in variable names: other names, a local, a parameter, two declarators
    "void f() { extern int blockDimCount; dim3 blockDim(1); }\n",
    "extern void use(dim3 blockDim);\n",
    "extern const dim3 blockDim, gridDim2;\n",
])
def test_host_only_and_other_types_are_left_alone(src):
    r = translate_source(src)
    assert not [f for f in r.findings if f.code == "CP115"] and "#if" not in r.output.decode()


@pytest.mark.slow
@pytest.mark.parametrize("toolchain,version", [("rocm", "6.4"), ("system", "5.2")])
@pytest.mark.parametrize("name", ["helper_math", "builtin_declarations"])
def test_definitions_kept_for_cuda_only_compile(tmp_path, toolchain, version, name):
    from conftest import compile_hip

    path = tmp_path / f"{name}.hip"
    source = {"helper_math": HELPER_MATH, "builtin_declarations": BUILTIN_DECLARATIONS}[name]
    path.write_bytes(translate_source(source, target_version=version).output)
    compile_hip(path, toolchain)


ERROR_NAMES = """\
#include <cuda.h>
#include <cuda_runtime.h>
#ifdef __DRIVER_TYPES_H__
static const char *_cudaGetErrorEnum(cudaError_t error) {
  return cudaGetErrorName(error);
}
#endif
#ifdef CUDA_DRIVER_API
static const char *_cudaGetErrorEnum(CUresult error) {
  const char *ret = NULL;
  cuGetErrorName(error, &ret);
  return ret;
}
#endif
static const char *_cudaGetErrorEnum(cublasStatus_t error) { return "cublas"; }
template <typename T> const char *name(T result) { return _cudaGetErrorEnum(result); }
const char *use() { return name(cudaMalloc((void**)0, 4)); }
"""


def test_overloads_the_renaming_makes_one_keep_the_first():
    # helper_cuda.h: cudaError_t and CUresult are both hipError_t on HIP.
    r = translate_source(ERROR_NAMES)
    out = r.output.decode()
    assert ("#ifdef CUDA_DRIVER_API\n#if !defined(__HIP_PLATFORM_AMD__)\n"
            "static const char *_cudaGetErrorEnum(hipError_t error) {") in out
    assert out.count("#if !defined(__HIP_PLATFORM_AMD__)") == 1  # cublasStatus_t stays
    found = [(f.code, f.severity, f.line) for f in r.findings if f.code == "CP163"]
    assert found == [("CP163", "info", 9)]
    assert translate_source(out).output.decode() == out


@pytest.mark.slow
def test_overloads_made_one_compile_with_rocm_6_4(tmp_path):
    from conftest import compile_hip

    path = tmp_path / "names.hip"
    src = ERROR_NAMES.replace("#include <cuda.h>\n", "#include <cuda.h>\n#define CUDA_DRIVER_API\n")
    path.write_bytes(translate_source(src.replace(
        'static const char *_cudaGetErrorEnum(cublasStatus_t error) { return "cublas"; }\n',
        "")).output)
    compile_hip(path, "rocm")


# tpruvot/ccminer's cuda_helper.h: host declarations of built-in variables, and a copy of a
# built-in function's declaration with nvcc's marker macro.
BUILTIN_DECLARATIONS = """\
#include <cuda_runtime.h>
extern __device__ __device_builtin__ void __syncthreads(void);
#ifndef __CUDA_ARCH__
extern const dim3 blockDim;
extern const uint3 threadIdx;
#endif
__global__ void k(int* p) { p[threadIdx.x] = blockDim.x; __syncthreads(); }
"""


def test_host_declarations_of_built_in_variables_are_kept_for_cuda_only():
    r = translate_source(BUILTIN_DECLARATIONS)
    out = r.output.decode()
    # (the host pass's declarations: hipcc's device pass skips them as nvcc's does, README
    # "Which #if branch a HIP build takes")
    assert ("#if (!defined(__CUDA_ARCH__)) && !defined(__HIP_DEVICE_COMPILE__) /* cudaport: HIP "
            "takes the branch for device code, as AMD GPUs have device code */\n"
            "#if !defined(__HIP_PLATFORM_AMD__)\n"
            "extern const dim3 blockDim;\nextern const uint3 threadIdx;\n#endif\n#endif\n") in out
    assert "extern __device__  void __syncthreads(void);" in out
    found = [(f.severity, f.line, f.identifier) for f in r.findings if f.code == "CP115"]
    assert found == [("info", 4, "blockDim"), ("info", 5, "threadIdx")]
    assert translate_source(out).output.decode() == out
