"""Input shapes whose cost must grow linearly with their size, shared by the linear-time
test (which asserts the growth ratio) and ``bench/scaling.py`` (which prints 2 MB and 20 MB
figures). Each is a function of a repeat count ``n`` returning the source bytes, with the
options and whether it runs through ``check`` (the whole-file pipeline) or
``translate_bytes``; the comment names the site whose per-token rescan it once exposed."""

from __future__ import annotations

from cudaport import Options

HIP_LAUNCH = Options(launch="hip")


def _repeat(piece: bytes):
    return lambda n: piece * n


def _wrapped(head: bytes, piece: bytes, tail: bytes):
    return lambda n: head + piece * n + tail


def _numbered(piece: str):
    return lambda n: "".join(piece.format(i=i) for i in range(n)).encode()


ORDINARY = (b"__global__ void k(float* x) { x[threadIdx.x] = 0; }\n"
            b"void h(float* p) { k<<<1, 1>>>(p); cudaMalloc(&p, 4); }  // done\n")

# name -> (function of n, options, run through `check`)
SHAPES = {
    # passes/hazards.py _later_branches: #if/#else groups holding launches
    "branch groups with launches": (_numbered(
        "void h{i}(float* p) {{\n#if defined(USE_A)\n  k<<<1, 1>>>(p);\n#else\n"
        "  k<<<2, 1>>>(p);\n#endif\n}}\n"), Options(), False),
    # project_names._in_class_body: braces walked back to the file start per declaration
    "typedefs of CUDA names between functions": (_numbered(
        "typedef int cudaStream_t;\nvoid f{i}() {{ cudaStream_t s = 0; (void)s; }}\n"),
        Options(), False),
    # project_names + scopes.namespace_at: every namespace block per use
    "namespaces declaring and using a CUDA name": (_numbered(
        "namespace ns{i} {{\nint cudaMalloc(void** p, int n);\n"
        "void g() {{ cudaMalloc(0, 1); }}\n}}\n"), Options(), False),
    # passes/warp_sync.py _is_wide_name / _is_full_name: the file searched per mask name
    "warp shuffles with a mask name": (_wrapped(
        b"#define MASK 0xffffffff\n",
        b"__device__ float f(float v) { return __shfl_down_sync(MASK, v, 1); }\n", b""),
        Options(), False),
    # collisions.py: statements re-translated per overload pair
    "overload pairs cudaError_t and CUresult": (_numbered(
        "inline void check{i}(cudaError_t e) {{ (void)e; }}\n"
        "inline void check{i}(CUresult e) {{ (void)e; }}\n"), Options(), False),
    # scopes.definitions: every brace pair per switch
    "switches with merging names": (_numbered(
        "int s{i}(int e) {{ switch (e) {{ case cudaErrorInvalidValue: return 1;\n"
        "  case CUDA_ERROR_INVALID_VALUE: return 2; default: return 0; }} }}\n"),
        Options(), False),
    # preprocessor/gates.py: architecture and version gates decided from the target's facts
    "architecture and version gates": (_numbered(
        "__device__ float m{i}(float a) {{\n#if __CUDA_ARCH__ >= 530\n"
        "  return __half2float(__hadd(__float2half(a), __float2half(a)));\n#else\n"
        "  return 0.0f;  // dummy\n#endif\n}}\n#if CUDART_VERSION >= 11020\n"
        "void g{i}(void** p, cudaStream_t s) {{ cudaMallocAsync(p, 4, s); }}\n#endif\n"),
        Options(), False),
    # portability_layers.py: every guard per span
    "ifdef USE_ROCM blocks": (_numbered(
        "#ifdef USE_ROCM\nvoid a{i}() {{ hipDeviceSynchronize(); }}\n#else\n"
        "void a{i}() {{ cudaDeviceSynchronize(); }}\n#endif\n"), Options(), False),
    # platform_branches.reached_errors: every branch per #error
    "if and error groups": (_numbered(
        "#if CUDART_VERSION < 11000\n#error CUDA {i} too old\n#endif\n"
        "void e{i}() {{ cudaDeviceSynchronize(); }}\n"), Options(), False),
    # platform_branches._build_switch: the file searched for a #define per directive
    # testing a build switch before an error dropped in the switch's dead branch (CP166)
    "switch groups before a dropped error": (lambda n: _numbered(
        "#ifdef USE_AMD_ROCM\nvoid a{i}() {{ hipDeviceSynchronize(); }}\n#else\n"
        "void a{i}() {{ cudaDeviceSynchronize(); }}\n#endif\n")(n)
        + b"#ifndef USE_AMD_ROCM\nvoid z() { cudaProfilerInitialize(0, 0, 0); }\n#endif\n",
        Options(), False),
    # passes/block_barrier.py: three whole-file regexes per barrier declaration
    "block barriers": (_wrapped(
        b"#include <cuda/barrier>\n",
        b"__global__ void b(float* x) {\n"
        b"  __shared__ cuda::barrier<cuda::thread_scope_block> bar;\n"
        b"  init(&bar, blockDim.x * blockDim.y * blockDim.z);\n"
        b"  bar.arrive_and_wait();\n}\n", b""), Options(), False),
    # passes/thread_pipeline.py: every name's uses searched in the whole file
    "thread pipelines": (_wrapped(
        b"#include <cuda/pipeline>\n",
        b"__global__ void p(float* d, const float* s) {\n"
        b"  auto pipe = cuda::make_pipeline();\n  pipe.producer_acquire();\n"
        b"  cuda::memcpy_async(d, s, 4, pipe);\n  pipe.producer_commit();\n"
        b"  pipe.consumer_wait();\n  pipe.consumer_release();\n}\n", b""), Options(), False),
    # passes/device_printf.py: each device body walked byte by byte
    "device printf": (_repeat(
        b"__device__ void d(int v) { std::printf(\"%d\", v); }\n"
        b"void host(int v) { std::printf(\"%d\", v); }\n"), Options(), False),
    # polyfills.py: the file searched per candidate definition
    "own atomic overloads": (_numbered(
        "__device__ float atomicMax{i}(float* a, float v) {{ return atomicMax((int*)a, 1); }}\n"
        "__device__ double atomicAdd(double* a, double v);\n"), Options(), False),
    "macro-dense": (_numbered(
        "#define CHECK{i}(x) do {{ cudaError_t e = (x); if (e != cudaSuccess) "
        "printf(\"%s\", cudaGetErrorString(e)); }} while (0)\n"), Options(), False),
    "asm-dense": (_repeat(
        b"__device__ unsigned f(unsigned b, unsigned c) { unsigned a;\n"
        b"  asm volatile(\"add.u32 %0, %1, %2;\" : \"=r\"(a) : \"r\"(b), \"r\"(c));\n"
        b"  return a; }\n"), Options(), False),
    "one huge function": (_wrapped(
        b"__global__ void k(float* x, cudaStream_t s) {\n",
        b"  x[threadIdx.x] += __shfl_xor_sync(0xffffffff, x[0], 1); if (x[1]) { x[2] = 0; }\n",
        b"}\n"), Options(), False),
    # symbols/: members, locals, parameters, template parameters, using-directives,
    # overloaded calls and forward declarations, each resolved by bisects, never a rescan
    "class members named like CUDA": (_numbered(
        "struct M{i} {{ int cuFuncSetAttribute(int a) const {{ return mulhi(a, 1); }}\n"
        "  int mulhi(int a, int b) const {{ return a * b; }} }};\n"
        "int u{i}(M{i}& m) {{ return m.cuFuncSetAttribute(1); }}\n"), Options(), False),
    "locals and parameters named like CUDA": (_numbered(
        "template <typename curandState> __device__ float d{i}(curandState* s, int warpSize) {{\n"
        "  int cublasStatus = warpSize; return cublasStatus + warpSize; }}\n"), Options(), False),
    "using-directives": (_numbered(
        "namespace n{i} {{ void cudaFree(void*); }}\nusing namespace n{i};\n"
        "void f{i}() {{ cudaFree(0); cudaMalloc(0, 1); }}\n"), Options(), False),
    "overloaded calls": (_wrapped(
        b"struct Pair { float a, b; };\n"
        b"__device__ Pair __shfl_xor_sync(unsigned mask, Pair v, int m);\n",
        b"__global__ void k(Pair* p, float* f) { Pair v = p[0];\n"
        b"  v = __shfl_xor_sync(0xffffffff, v, 1); f[0] = __shfl_xor_sync(0xffffffff, f[0], 1);\n"
        b"  p[0] = v; }\n", b""), Options(), False),
    "forward declarations and opaque pointers": (_numbered(
        "extern \"C\" {{ struct cublasContext; }}\n"
        "void h{i}(cublasContext* c, struct nvmlDevice_st* d);\n"), Options(), False),
    # symbols/conversions.py: a class built from one number, each variable's declaration
    # read back a bounded window
    "half pairs built from numbers": (_wrapped(
        b"#include <cuda_fp16.h>\nstruct hx { __half2 v; __device__ hx(const __half2& a) : v(a) {}\n"
        b"  __device__ hx(const __half& a) : v(a, a) {} };\n",
        b"__device__ hx f(float q) { hx a(1.f); hx b{2}; hx c(q); return hx(q); }\n", b""),
        Options(), False),
    # passes/mixed_min_max.py: each min/max argument's declaration read back a bounded window
    "min and max of int and unsigned": (_wrapped(
        b"__global__ void k(int* o, int n) {\n",
        b"  o[min(n - 1, blockIdx.x * 16 + threadIdx.y)] = max(n, 2);\n", b"}\n"),
        Options(), False),
    "ordinary code": (_repeat(ORDINARY), HIP_LAUNCH, True),
}
