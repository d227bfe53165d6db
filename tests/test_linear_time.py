"""Every pass runs in time linear in its input: inputs built to make a backward search or
an unclosed bracket rescan the file (each once took tens of seconds at under 100 KB) are
run at two sizes, and sixteen times the input may take at most three times sixteen times as
long.

CPU time (not wall time), the best of a few runs, and a base size grown until it takes
long enough to measure keep this steady on a loaded machine; a quadratic pass would take
256 times as long, far above the limit, while noise and cache misses on the bigger input
stay far below it (a CI run once took 20.5 times as long for 8 times the findings, when
the garbage collector still rescanned them)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from cudaport import Options, translate_bytes
from cudaport.run.check import check_paths

from tests.scaling_shapes import SHAPES as DENSE_SHAPES

pytestmark = pytest.mark.slow

HIP_LAUNCH = Options(launch="hip")
ORDINARY = (b"__global__ void k(float* x) { x[threadIdx.x] = 0; }\n"
            b"void h(float* p) { k<<<1, 1>>>(p); cudaMalloc(&p, 4); }  // done\n")

GROWTH = 16  # the bigger input is this many times the base

# name -> (text repeated n times, or a function of n; options; run through `check`)
SHAPES = {
    "unclosed call after each launch": (b"k<<<1,1>>>((", HIP_LAUNCH, False),
    "launch inside an unclosed launch": (b"k<<<1,1>>>(k<<<1,1>>>(", HIP_LAUNCH, False),
    "unclosed launch configurations": (b"k<<<", HIP_LAUNCH, False),
    "spaced launches": (b"k<< <1,1>> >(", HIP_LAUNCH, False),
    "unclosed spaced launches": (b"k<< <", Options(), False),
    "duplicate includes": (b"#include <cuda_runtime.h>\n", Options(), False),
    "unclosed template calls in check": (b"cudaMemcpyToSymbol(", Options(), True),
    "unclosed hazard calls": (b"cublasGemmEx(", Options(), False),
    "launches before any __global__":
        (lambda n: b"void h() {\n" + b"  k<<<1, 1>>>(x);\n" * n + b"}\n__global__ void g();\n",
         HIP_LAUNCH, False),
    "launches in one device function":
        (lambda n: b"__global__ void g() {\n" + b"  k<<<1, 1>>>(x);\n" * n + b"}\n",
         Options(), False),
    "device markers without bodies": (b"__device__ k<<<1,1>>>(x)\n", Options(), False),
    "findings on one long line in check": (b"cudaNotAThing1(); k<<<1,1>>>((", HIP_LAUNCH, True),
    "ordinary code": (ORDINARY, HIP_LAUNCH, True),
    # `cudaport shim` reads a project through `check` and walks each templated call's
    # arguments (cudaport/shim/uses.py): nested, unclosed and plain ones
    "unclosed template calls in the shim": (b"cudaMemcpyToSymbol(", Options(), "shim"),
    "nested template calls in the shim":
        (lambda n: b"void f() { " + b"cudaFuncSetAttribute(k, {a, " * n + b"0" + b"})" * n
         + b"; }\n", Options(), "shim"),
    "template calls in the shim":
        (b"void f() { cudaMemcpyToSymbol(c, &x, 4); cudaEventCreate(&e, 0); "
         b"__shfl_sync(0xffffffff, v, 1); }\n", Options(), "shim"),
    "struct members of many declared objects":
        (lambda n: b"".join(b"void f%d(cudaFuncAttributes *a%d) { a%d->requiredClusterWidth = "
                            b"a%d->numRegs; }\n" % (i, i, i, i) for i in range(n)),
         Options(), False),
    # the half-atomics pass reads each atomicAdd's pointer type back (a bounded window)
    "half atomicAdds in one kernel":
        (lambda n: b"#include <cuda_fp16.h>\n__global__ void k(__half2* p, __half2 v) {\n"
         + b"  atomicAdd(&p[1], v); atomicAdd(p + 2, v); atomicAdd((3 + p), v);\n" * n
         + b"}\n", Options(), False),
    "half atomicAdds on members plus offsets":
        (lambda n: b"#include <cuda_fp16.h>\nstruct S { __half* p; };\n"
         b"__global__ void k(S s, __half v, int i) {\n"
         + b"  atomicAdd(s.p + i * 2, v); atomicAdd(&s.p[i], v);\n" * n + b"}\n",
         Options(), False),
    # the dim3-uint3 pass reads each destination's type back (a bounded window)
    "uint3 values stored in dim3s":
        (lambda n: b"void f(uint3 u) {\n  dim3 g;\n"
         + b"  g = make_uint3(1, 2, 3); dim3 h = u; s.m = make_uint3(1, 1, 1);\n" * n
         + b"}\n", Options(), False),
    # the narrowing-init pass reads each braced negative literal's type back (a bounded
    # window), and a long word before braces is read once
    "negative constants in braces of unsigned types":
        (lambda n: b"#include <cuda_runtime.h>\nusing size_type = std::size_t;\n"
         + b"size_type a = size_type {-1} + unsigned{-2}; int b = S{-1};\n" * n
         + b"x" * (40 * n) + b"{-1}\n", Options(), False),
    # in a file that uses no CUDA the same constants are named (CP182), not edited: whether
    # the file uses CUDA is asked once, not per constant (it searches the file)
    "negative constants in braces in a file with no CUDA":
        (lambda n: b"using size_type = unsigned long;\n"
         + b"size_type a = size_type {-1} + unsigned{-2};\n" * n, Options(), False),
    # the host-only-runtime pass walks each call's enclosing blocks
    "runtime calls in nested device lambdas":
        (lambda n: b"__global__ void k(int* p) {\n" + b"  [&]() { p[0] = cudaGetLastError(); };\n" * n
         + b"}\n", Options(), False),
    # the target-headers check reads each include once (HIP branches' too)
    "absent ROCm headers in HIP branches":
        (b"#ifdef __NVCC__\n#include <cupti.h>\n#elif defined __HIP__\n#include <rocprofiler.h>\n"
         b"#endif\n#include <roctracer.h>\n", Options(), False),
    # the integer-handles pass reads the aliases and variables once, then each identifier
    "CUdeviceptr casts and arithmetic":
        (lambda n: b"#include <cuda.h>\nusing addr = CUdeviceptr;\n" + b"".join(
            b"addr f%d(const void* p, CUdeviceptr d%d) { CUdeviceptr e%d = d%d + 4; "
            b"return reinterpret_cast<addr>(p) + static_cast<size_t>(e%d); }\n"
            % (i, i, i, i, i) for i in range(n)), Options(), False),
}
# The dense shapes of tests/scaling_shapes.py (bench/scaling.py prints their 2 MB and 20 MB
# figures): each once cost a rescan of the file per launch, branch, declaration or name.
SHAPES.update({f"dense: {name}": shape for name, shape in DENSE_SHAPES.items()
               if name != "ordinary code"})


def _source(shape, n: int) -> bytes:
    return shape(n) if callable(shape) else shape * n


def _cpu_time(run, tries: int = 3) -> float:
    best = float("inf")
    for _ in range(tries):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def _runner(src: bytes, options: Options, check: bool | str, tmp_path: Path):
    if not check:
        return lambda: translate_bytes(src, options)
    path = tmp_path / f"input-{len(src)}.cu"
    path.write_bytes(src)
    if check == "shim":
        from cudaport.shim import generate

        return lambda: generate([str(path)], options)
    return lambda: check_paths([str(path)], options)


@pytest.mark.parametrize("name", list(SHAPES))
def test_time_grows_linearly(name, tmp_path):
    shape, options, check = SHAPES[name]
    translate_bytes(b"k<<<1,1>>>();", options)  # rule tables loaded before timing
    n = 100
    while True:  # a base size that takes long enough to time
        base = _cpu_time(_runner(_source(shape, n), options, check, tmp_path))
        if base >= 0.02 or n >= 200_000:
            break
        n *= 2
    big = _cpu_time(_runner(_source(shape, GROWTH * n), options, check, tmp_path), tries=2)
    assert big <= 3 * GROWTH * max(base, 0.005), \
        f"{name}: {n} repeats took {base:.3f} s, {GROWTH * n} took {big:.3f} s"


# Build files (issue 43): the flag table's readers, in one long logical line or command
# and in many short ones.
BUILD_SHAPES = {
    "one continued Makefile line": (
        lambda n: b"F = -O3" + b" \\\n  -Xptxas -v -arch=sm_70 -I$(CUDA_PATH)/include -dc" * n + b"\n",
        "make"),
    "Makefile lines": (b"F += -Xptxas -v -gencode arch=compute_70,code=sm_70 -lcudart "
                       b"$(addprefix -Xcompiler ,$(X)) -L$(CUDA_HOME)/lib64\n", "make"),
    "recipe with shell loops": (b"\tfor c in 70; do nvcc -arch=compute_$$c -Xptxas -v $< ; "
                                b"done\n", "make"),
    "one line of nvcc version queries": (
        lambda n: b"V := $(shell true" + b" && $(shell nvcc --version | grep r) nvcc -V | x" * n
        + b")\n", "make"),
    "one long CMake command": (
        lambda n: b"target_compile_options(t PRIVATE" + b" -Xptxas -v --extended-lambda -dc" * n
        + b")\n", "cmake"),
    "one long CMake condition on CUDA's version": (
        lambda n: b"if(X" + b" OR CUDAToolkit_VERSION VERSION_LESS 11.8 OR ${CUDA_VERSION} EQUAL 1"
        * n + b")\nendif()\n", "cmake"),
    "CMake flag strings and branches": (
        b'if(ENABLE_ROCM)\nelse()\nset(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -Xptxas -v '
        b'-gencode arch=compute_70,code=sm_70")\nendif()\n', "cmake"),
}


@pytest.mark.parametrize("name", list(BUILD_SHAPES))
def test_build_file_time_grows_linearly(name):
    from cudaport.run.kinds import translate_file

    shape, kind = BUILD_SHAPES[name]
    shown = "Makefile" if kind == "make" else "CMakeLists.txt"

    def runner(src):
        return lambda: translate_file(src, kind, Options(), shown)

    runner(b"")()
    n = 100
    while True:
        base = _cpu_time(runner(_source(shape, n)))
        if base >= 0.02 or n >= 200_000:
            break
        n *= 2
    big = _cpu_time(runner(_source(shape, GROWTH * n)), tries=2)
    assert big <= 3 * GROWTH * max(base, 0.005), \
        f"{name}: {n} repeats took {base:.3f} s, {GROWTH * n} took {big:.3f} s"
