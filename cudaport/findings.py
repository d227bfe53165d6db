"""One model for everything cudaport reports, and the registry of stable codes.

Codes are never reused. Every code has a title, a default severity and an explanation in
three parts (what, why, what to do) that ``cudaport explain`` and SARIF rule help use.
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass

SEVERITIES = ("error", "warning", "info")
SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


@dataclass(frozen=True)
class Code:
    code: str
    name: str
    severity: str
    title: str
    explanation: str


CODES: dict[str, Code] = {}


def register(code: str, name: str, severity: str, title: str, explanation: str) -> Code:
    if code in CODES:
        raise ValueError(f"code {code} registered twice")
    if severity not in SEVERITIES:
        raise ValueError(f"{code}: bad severity {severity}")
    CODES[code] = Code(code, name, severity, title, explanation.strip())
    return CODES[code]


register("CP101", "unmapped-api", "error", "CUDA API with no equivalent on the target", """
What: the identifier is a known CUDA API, but the target has no equivalent for it (for the
selected library variant and target version).
Why: the translated file still names the CUDA API and will not compile on the target.
Fix: rewrite the code around the missing API (for example with a portable fallback under
`#ifdef __HIP_PLATFORM_AMD__`), or pick another library variant (`--blas rocblas`).
""")
register("CP102", "deprecated-api", "warning", "CUDA API is deprecated", """
What: the CUDA API was deprecated in the CUDA version named in the message.
Why: deprecated APIs often have no, or only partial, equivalents on other targets and
disappear from newer CUDA releases.
Fix: move to the replacement CUDA recommends; cudaport still translates it where it can.
""")
register("CP103", "removed-api", "warning", "CUDA API was removed", """
What: the CUDA API was removed in the CUDA version named in the message.
Why: the code only builds with old CUDA toolkits; the target may still provide a name.
Fix: move to the current CUDA API.
""")
register("CP104", "experimental-api", "error", "target equivalent is experimental", """
What: the target's equivalent of this API is marked experimental, so cudaport left it
unchanged.
Why: experimental APIs may change or behave differently; and left unchanged, the CUDA name
does not compile on the target, so the file is not ported (an error, like CP107).
Fix: pass `--experimental` to translate it anyway, and test the result.
""")
register("CP105", "unknown-cuda-name", "warning", "CUDA-looking name not in the rule table", """
What: the identifier looks like CUDA API (by its prefix) but no rule knows it.
Why: it may be a newer CUDA API the rule table lacks, API of an NVIDIA library the table
does not cover (the message names it: cuDNN frontend, cuBLASMp, cuFile, ...), or the
project's own name (names the project defines or declares are not reported).
Fix: if it is CUDA API, add a rule (`--rules FILE.yaml`); if it is your own name, ignore it.
""")
register("CP106", "unmapped-header", "error", "CUDA header with no equivalent on the target", """
What: the included CUDA header has no equivalent on the target.
Why: the include will fail to resolve when compiling for the target.
Fix: remove the include or guard it, and replace what it provided.
""")
register("CP107", "target-too-old", "error", "equivalent needs a newer target version", """
What: the target provides an equivalent only from a version newer than the one selected
with `--hip-version`.
Why: the translated code would not compile with the selected target version.
Fix: raise the target version, or avoid the API.
""")
register("CP108", "needs-review", "info", "translated, but behaviour may differ", """
What: the API was translated, and the rule table carries a note about a difference
(argument order, descriptor layout, semantics).
Why: a rename alone may not preserve behaviour.
Fix: read the note and check the call site.
""")
register("CP116", "unused-libcudacxx-include", "info", "unused libcu++ include dropped", """
What: a libcu++ header (`<cuda/barrier>`, `<cuda/std/atomic>`, ...) is included, but the
file names nothing libcu++ declares (`cuda::barrier`, `cuda::std::...`).
Why: HIP has no libcu++; the include alone would fail to compile, and nothing in the file
needs it. A header the file includes that does use libcu++ reports those uses itself
(CP110), so the file is still blocked where it should be.
Fix: nothing: the translation drops the include. Bad: `#include <cuda/barrier>` with no
`cuda::barrier` in the file. Good: no include.
""")
register("CP117", "block-barrier", "info", "block-wide cuda::barrier became __syncthreads()", """
What: a `__shared__ cuda::barrier<cuda::thread_scope_block>` initialized with every thread
of the block (`init(&bar, blockDim.x * blockDim.y * blockDim.z)`) and used only through
`bar.arrive_and_wait()`.
Why: HIP has no libcu++ barrier, but such a barrier is the block barrier: each phase waits
for every thread, as `__syncthreads()` does, with the same memory ordering. The
translation removes the declaration, makes the `init` call `(void)0` and each
`arrive_and_wait()` `__syncthreads()`. Any other use (split `arrive`/`wait`, a count that is
not the whole block, a barrier given to `memcpy_async`) is left and reported (CP110).
Fix: nothing. Bad: `bar.arrive_and_wait();` Good: `__syncthreads();`
""")
register("CP120", "call-needs-rewrite", "error", "the target function takes other arguments", """
What: the API was renamed, but the target function takes other arguments than the CUDA one:
more or fewer (hipsparseSpSM_solve also takes the buffer given to the analysis step), or
the same ones in another order or form (MIOpen's convolution and dropout calls). The rule
table says how (the message quotes both parameter lists).
Why: the renamed call does not compile, or compiles and passes the wrong values; the file
is not ported until the call is rewritten.
Fix: rewrite the call as the message says.
Bad: `hipsparseSpSM_solve(handle, opA, opB, &alpha, matA, matB, matC, type, alg, descr)`
Good: the same call with the analysis step's buffer as its last argument.
""")
register("CP109", "launch-not-rewritten", "warning", "kernel launch left as written", """
What: a `<<<...>>>` launch could not be parsed, so it was not rewritten to the target's
launch function.
Why: unbalanced brackets, an unusual kernel expression, or a configuration written as one
macro (`#define CFG grid, block` ... `k<<<CFG>>>(x)`), whose parts text cannot tell apart.
Fix: simplify the launch expression, or keep `--launch cuda` (HIP accepts `<<<>>>`).
""")
# CP110-CP119: the CUDA C++ ecosystem beyond the C APIs (issue 16): CCCL (CUB, Thrust,
# libcu++), <nv/target>, WMMA, CUTLASS/CuTe. Rule entries name these codes with `code:`.
register("CP110", "libcudacxx", "error", "libcu++ (cuda::std, cuda::atomic) has no ROCm equivalent", """
What: a libcu++ header (`<cuda/std/...>`, `<cuda/atomic>`, `<cuda/barrier>`, ...) or a name
in namespace `cuda::` (`cuda::std::`, `cuda::atomic_ref`, `cuda::thread_scope_device`).
Why: ROCm ships no libcu++; the include does not resolve and the names are undeclared.
Fix: use the standard header and `std::` where the code is constexpr or host-only
(`<type_traits>`, `<limits>`, `<cstdint>`), HIP atomics for device atomics (`atomicAdd`,
`__hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT)`), and
`__syncthreads`/cooperative groups for barriers.
Bad: `cuda::atomic_ref<int, cuda::thread_scope_device> r(x); r.fetch_add(1);`
Good: `atomicAdd(&x, 1);`
""")
register("CP111", "nv-target", "error", "<nv/target> dispatch has no ROCm equivalent", """
What: `<nv/target>` or its macros (`NV_IF_TARGET`, `NV_IF_ELSE_TARGET`, `NV_DISPATCH_TARGET`,
`NV_IS_DEVICE`, `NV_PROVIDES_SM_80`, ...).
Why: the macros select code by NVIDIA architecture; HIP defines none of them, so the
translated code does not preprocess.
Fix: select with the HIP compiler's macros. Bad: `NV_IF_TARGET(NV_IS_DEVICE, (f();), (g();))`
Good: `#if defined(__HIP_DEVICE_COMPILE__)` `f();` `#else` `g();` `#endif` (per GPU:
`__gfx90a__`, `__gfx942__`).
""")
register("CP112", "wmma", "error", "WMMA fragment that rocWMMA cannot run", """
What: a warp matrix fragment (`<mma.h>`, `nvcuda::wmma`) of a shape or element type AMD's
rocWMMA lacks: any shape but m16n16k16 (m32n8k16, m8n32k16, m8n8k4 double), tf32
(`precision::tf32`), `__nv_bfloat16`, unsigned 8-bit, the `experimental` 4-bit and 1-bit
fragments, `bmma_sync`.
Why: the rest of WMMA is ported: `<mma.h>` becomes rocWMMA (`rocwmma/rocwmma.hpp`), whose
namespace `rocwmma` declares the same fragments and functions with the same arguments, and
`nvcuda::wmma` names it. rocWMMA's blocks are 16x16 and 32x32 (CUDA has no 32x32 shape);
its bfloat16 is `hip_bfloat16`, not the `__hip_bfloat16` of the port; its xfloat32
fragments load `xfloat32_t`, not `float`.
Fix: tile the kernel with 16x16x16 fragments of `half` or signed 8-bit, or call
hipBLAS/hipBLASLt for the whole GEMM.
Bad: `wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> a;`
Good: `wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;`
""")
# CP130-CP134: library calls whose target form needs more than a rename (issue 17).
register("CP130", "legacy-cublas", "error", "legacy cuBLAS API (cublas.h) has no HIP form", """
What: `#include <cublas.h>`, cuBLAS's first API: no handle (`cublasInit`, `cublasShutdown`,
`cublasAlloc`, `cublasFree`, `cublasGetError`) and BLAS calls without a handle argument
(`cublasSgemm('n', 'n', m, n, k, ...)` with character operations).
Why: hipBLAS and rocBLAS only have the handle-based API (`cublas_v2.h`'s); the same names
renamed would be calls with one argument missing and other argument types, which do not
compile (or worse, compile against an overload that means something else).
Fix: move the code to `cublas_v2.h` first (create a `cublasHandle_t`, pass it to every
call, use `cublasOperation_t`, check `cublasStatus_t` results), then translate it.
""")
register("CP113", "cutlass-cute", "error", "CUTLASS/CuTe has no ROCm port", """
What: a CUTLASS or CuTe header (`cutlass/...`, `cute/...`) or name (`cutlass::`, `cute::`).
Why: CUTLASS and CuTe are built on NVIDIA tensor-core instructions and PTX; there is no
ROCm build of them, so the file cannot compile for AMD GPUs.
Fix: use AMD's composable_kernel for fused kernels, or hipBLASLt/rocBLAS for GEMMs; keep
the CUTLASS path under `#if !defined(__HIP_PLATFORM_AMD__)`.
""")
register("CP114", "cccl-unmapped", "error", "CUB or Thrust part hipCUB/rocThrust lack", """
What: a CUB or Thrust header or macro that hipCUB or rocThrust (ROCm 6.4) do not provide;
the message names the nearest equivalent where there is one.
Why: hipCUB and rocThrust cover the public algorithms, but not CUB's agent/policy layer,
newer device algorithms, or Thrust's CUDA-specific system headers.
Fix: use the algorithm through `hipcub/hipcub.hpp` or rocPRIM (`rocprim/rocprim.hpp`), or
rewrite the part around it. Bad: `#include <cub/agent/agent_reduce.cuh>`
Good: `#include <hipcub/hipcub.hpp>` and `hipcub::DeviceReduce::Sum(...)`.
""")
register("CP115", "redefines-target-function", "error", "defines a function the target already defines", """
What: the project defines a device function, such as `atomicMax(float*, float)` or
`atomicAdd(double*, double)`, with the name and parameter types of one HIP's headers define
(the message names the header); or an operator HIP's vector types already have as a
non-template (`float2 operator*(float2, float2)`, `operator+=(float2&, float2)`, as in
cuda-samples' helper_math.h); or it declares a built-in variable for host code
(`extern const dim3 blockDim;`, as tpruvot/ccminer's cuda_helper.h does), which HIP
declares for host and device code with a type of its own.
Why: CUDA lacks the function (or lacked it on older GPUs), so the project wrote its own;
after translation both definitions exist and the file does not compile (for operators,
every use is ambiguous).
Fix: keep the project's definition (or declaration) for CUDA only. The translation does
this itself, with `#if !defined(__HIP_PLATFORM_AMD__)` ... `#endif` around each run of
such definitions, when the definition is whole lines of its own; then the finding is information. It stays an
error when the definition shares its lines with other code or sits in a macro.
Bad: `__device__ float atomicMax(float *a, float v) { ... }`
Good: `#if !defined(__HIP_PLATFORM_AMD__)` around that definition.
""")
register("CP160", "portable-branch", "info", "branch already built for the target", """
What: a `#if` branch that only a build defining a portability macro compiles (`USE_ROCM`,
`__HIP_PLATFORM_AMD__`, `GGML_USE_HIP`, ...: `portable_guards` in the target's
`target.yaml`, plus `portable-guards` in the project settings). Its code is left as it is
and its names are not reported as CUDA problems.
Why: the project already wrote this code for HIP (or another non-CUDA back end);
translating it again would rename names that are already right, or break them.
Fix: nothing to do; the message shows where the project's own portability lives. Add the
project's own macro to `portable-guards` if its HIP branches use another name.
""")
register("CP166", "build-switch-undefined", "error", "the target's branch needs a switch no compiler defines", """
What: the file keeps its own port under a build switch of the project (`#ifdef USE_AMD_ROCM`
... `#else` CUDA code, as faiss does), and the CUDA branch holds code the target cannot
compile. Findings in that branch are not reported, since the project's build for the
target defines the switch; but no HIP compiler defines it on its own.
Why: compiled as translated, without the switch, the preprocessor takes the CUDA branch:
ROCm 6.4 rejects faiss's DeviceDefs.cuh with its `#error "CUDA >= 8.0 is required"`.
Fix: build with `-DUSE_AMD_ROCM` (the switch the message names), as the project's own
build for the target does, and pass `-D USE_AMD_ROCM` to cudaport so it knows. A switch
the project defines from the compiler's macros (`#define BNB_HIP 1`, tested as `#if BNB_HIP`)
is not reported.
""")
register("CP170", "retired-platform-macro", "warning", "platform macro the target's compiler no longer defines", """
What: the file tests `__HIP_PLATFORM_HCC__` (or `__HIP_PLATFORM_NVCC__`), which hipcc stopped
defining in HIP 6.0 (ROCm 6.4 and 7.2 define `__HIP_PLATFORM_AMD__` and
`__HIP_PLATFORM_NVIDIA__`). The facts are `retired_macros` in rules/hip/target.yaml.
Why: with the target version at or after that release the project's own HIP branch is dead:
hipcc compiles the CUDA branch or an `#error` instead (miniBUDE's fasten.hpp,
BabelStream's ThrustStream.cu), while the code looks ported.
Fix: cudaport renames the macro to the one the compiler defines; do the same in the project
(`defined(__HIP_PLATFORM_AMD__)`), which also works with HIP 5.
Bad: `#elif defined(__HIP_PLATFORM_HCC__)` Good: `#elif defined(__HIP_PLATFORM_AMD__)`.
""")
register("CP171", "ported-with-caveat", "warning", "ported; the target loses something the result does not depend on", """
What: the name was ported, but the target has no counterpart of something it selects that
does not change what the code computes: a cuBLAS GEMM algorithm number (hipBLAS and
rocBLAS choose the algorithm themselves), a launch attribute that only allows overlap. The
rule table states the loss as the entry's `caveat`.
Why: the result is the same, so the port is made; speed or overlap may differ.
Fix: nothing for correctness; tune for the target where the loss matters (hipBLASLt's
heuristics choose GEMM algorithms).
Bad: `cublasGemmEx(..., CUBLAS_GEMM_ALGO4_TENSOR_OP)` Good (written by the translation):
`hipblasGemmEx(..., HIPBLAS_GEMM_DEFAULT)`.
""")
register("CP173", "error-directive-reached", "error", "the target's build reaches an #error", """
What: an `#error` directive stands where every `#if` around it is decided for the target:
the branch the target takes by what its compiler defines and what the file defines
itself. Typically the `#else` of a test on a CUDA macro the target's compiler does not
define (`#if defined(CUBLAS_VERSION) && CUBLAS_VERSION >= ...` / `#else` /
`#error ...`: ParRes Kernels' prk_cuda.h).
Why: the translated file does not compile.
Fix: test the target's own macro in that condition too (`|| defined(__HIP_PLATFORM_AMD__)`),
or give the target its own branch.
Bad: `#if defined(CUBLAS_VERSION)` ... `#else` `#error` Good: `#if defined(CUBLAS_VERSION) || defined(__HIP_PLATFORM_AMD__)`.
""")
register("CP174", "error-directive-maybe-reached", "warning", "the target's build may reach an #error", """
What: as CP173, an `#error` in the branch the target takes of a condition on a CUDA macro
its compiler does not define, but inside an outer branch whose condition is not known
(a project's switch: `#ifdef PRK_USE_CUBLAS`, given by its Makefile to some programs only).
Why: every translation unit that compiles that outer branch for the target stops there;
the others are not affected.
Fix: as CP173; or pass the switch with -D so cudaport knows whether the branch is compiled.
Bad: `#ifdef USE_X` `#if defined(CUBLAS_VERSION)` ... `#else` `#error` Good: `#if defined(CUBLAS_VERSION) || defined(__HIP_PLATFORM_AMD__)`.
""")
register("CP172", "launch-attribute-refused", "warning", "launch attribute the target refuses", """
What: an extensible launch (`cudaLaunchKernelEx`, `cudaLaunchKernelExC`) in a file that sets
a launch attribute the target's launch refuses: HIP (ROCm 7.2) launches with a cooperative
attribute and refuses access policy windows, priorities and the rest. The attributes that do
not change what a launch computes (programmatic dependent launch, cooperative 0, ignored
entries) are left out by the ported launch and are not named here.
Why: where such an attribute is in the launch's `attrs`, hipLaunchKernelExC returns an error
and the kernel does not run.
Fix: leave the attribute out of `attrs`/`numAttrs` for the target (a stream priority can be
set on the stream instead).
Bad: `attrs[0].id = cudaLaunchAttributePriority; ... cudaLaunchKernelEx(&config, k, x);`
Good: the launch without that attribute.
""")
register("CP161", "compatibility-layer", "info", "file is a compatibility layer", """
What: the file includes a target header (`hip/hip_runtime.h`, `hipblas/...`) and defines
CUDA names in terms of the target's (`#define cudaMalloc hipMalloc`,
`typedef hipStream_t cudaStream_t;`). The file is left as it is.
Why: translating the CUDA side of such definitions gives `#define hipMalloc hipMalloc`,
`typedef hipStream_t hipStream_t;` and macros that expand into themselves.
Fix: nothing to do. With `--respect-layers` the names the layer defines are also left
alone in the project's other files (CP162).
""")
register("CP162", "left-for-layer", "info", "names left for the project's compatibility layer", """
What: with `--respect-layers`, uses of CUDA names that one of the project's compatibility
layers defines were not renamed.
Why: the layer maps them when the project is built for the target; translating only what
the layer does not cover keeps the diff small and the layer in charge.
Fix: nothing to do; translate without `--respect-layers` to rename them anyway.
""")
register("CP163", "many-to-one-collision", "warning", "translation would make two definitions identical", """
What: several CUDA names map to one target name, and two definitions of one scope (types,
typedefs, enumerators, overloads, `case` labels, macros) would become the same. The second
was left untranslated; the message names both places.
Why: two identical definitions do not compile (`duplicate case value`, `redefinition`).
Fix: keep one of the two definitions for the target build, for example under
`#if !defined(__HIP_PLATFORM_AMD__)`. The translation does this itself for function
overloads the renaming makes one, even in different `#if` branches (helper_cuda.h's
`_cudaGetErrorEnum(cudaError_t)` and `(CUresult)`, both `(hipError_t)` on HIP): the first
stays, later ones are guarded, and the finding is information.
""")
register("CP164", "own-cuda-name", "info", "CUDA-named symbol of the project kept", """
What: the name is spelled like a CUDA API but is the project's own, as C++ looks it up
(cudaport/symbols/): qualified by one of its namespaces or classes (`mine::cudaMalloc`),
reached through an object (`cfg.cudaStream`), a member of one of its classes, a local, a
parameter or a template parameter (`template <typename curandState>`), an enumerator or
a name declared in one of its namespaces (and used there, or brought in by `using
namespace`), its own global alias, a call of its own overload for a type of its own, an
opaque type it only forward-declares or points to (`struct cublasContext;`); or a function
the target lacks that the file defines itself (a polyfill: ROCm/aiter's
`make_bfloat162`), whose uses in that file call the project's definition. It was not
renamed, and every use that reaches the same declaration is left alike.
Why: CUDA API never lives in a project's namespace; renaming the use but not the
declaration (or both, in some files only) breaks the build.
Fix: nothing; rename the project's symbol if the clash is confusing. `--clang` resolves
every name exactly (CP906).
""")
register("CP175", "overloaded-call-undecided", "warning", "call of an overloaded CUDA function left as written", """
What: the project declares an overload of a CUDA function for a type of its own
(`__device__ Pair __shfl_xor_sync(unsigned mask, Pair v, int m)`), and the arguments of
this call do not show which function it reaches (an expression whose type the text does
not give). It was left as written.
Why: a call of the project's overload must stay as written (a widened mask makes the
target's template the better match, and the project's function is no longer called); a
call of CUDA's function may need the translation's rewrite.
Fix: check the call; if it reaches CUDA's function, apply the rewrite by hand (or give
the argument a declared variable), or translate with `--clang`, which resolves calls.
""")
register("CP176", "half-pair-constructor", "info", "project class built from one number through its __half constructor", """
What: a class of the project has constructors from both `__half2` and `__half`
(`halfx2(const __half2&)`, `halfx2(const __half&)`), and is built from a single number
(`halfx2 one(1.f)`, `halfx2(1.f)`). The number was made a `__half`:
`halfx2 one(__half(1.f))`.
Why: nvcc calls the `__half` constructor (CUDA's `__half2` has no constructor a number
converts to); HIP's `__half2` converts from a number too (its constructor from its
`_Float16` vector), so hipcc finds both constructors viable and rejects the call as
ambiguous. The rewrite is the call nvcc makes: same value.
Fix: nothing.
""")
register("CP177", "mixed-sign-min-max", "info", "min/max of an int and an unsigned int made unsigned, as CUDA's overload", """
What: a device call of `min` or `max` with an `int` and an `unsigned int` argument, as the
text gives their types (`min(numPts1-1, blockIdx.x*16 + ty)`). The `int` argument was
made `unsigned int`: `min(static_cast<unsigned int>(numPts1-1), blockIdx.x*16 + ty)`.
Why: CUDA has overloads for the pair that compare as `unsigned int`; HIP's set has none
(a template for two arguments of one type, and `int`, `float`, `double` pairs), so the call
picks a floating-point pair there: another type and value ("array subscript is not an
integer" where it indexes). The cast is the conversion CUDA's overload makes: same result.
Fix: nothing. A call whose argument types the text does not give (a call, a member, a
cast) is left as written.
""")
register("CP181", "narrowing-braced-cast", "info", "negative constant in braces of an unsigned type written with parentheses", """
What: a braced functional cast of a negative integer constant to an unsigned integer type,
the type spelled as one builtin name (`unsigned{-1}`, `std::size_t{-1}`) or an alias of one
the file declares (`using size_type = std::size_t;` ... `return size_type {-1};`, taskflow's
cudaDeviceAllocator). The braces were made parentheses: `size_type(-1)`.
Why: nvcc's front end accepts the narrowing of a constant there and converts it (-1 becomes
the type's largest value); clang, the target's compiler, rejects it ("constant expression
evaluates to -1 which cannot be narrowed"). The functional cast makes the same conversion:
same value.
Fix: nothing. A type the file does not show to be an unsigned integer (a class, whose
braces may pick another constructor) is left as written.
""")
register("CP165", "self-alias-dropped", "info", "alias that translation made name itself dropped", """
What: a typedef, `using` alias or macro between two CUDA names that map to the same target
name (`#define CUDA_MEMCPY3D CUDA_MEMCPY3D_v2`) would become `#define HIP_MEMCPY3D
HIP_MEMCPY3D` (or `using X = X;`, `typedef X X;`); it was removed.
Why: such a line does nothing but can clash with the target's own declaration.
Fix: nothing to do.
""")
register("CP167", "own-header-kept", "info", "project header named like a CUDA header kept", """
What: `#include "cuda.h"` (or another CUDA header's name, in quotes) names a file next to
the including file, and that file is the project's own (pjreddie/darknet's `src/cuda.h`
declares its helpers), not a copy of NVIDIA's. The include was left as it is.
Why: a quoted include is looked up next to the including file first, so the compiler
reads the project's file; replacing the line with the target's header would drop the
project's declarations (`cuda_gridsize` undeclared).
Fix: nothing to do; the project's header is translated like any other file. A copy of
NVIDIA's header (its text names NVIDIA) is translated as the CUDA header it is.
""")
register("CP168", "main-header-before-min-max", "info", "main header included before a min/max macro", """
What: a project header included before the runtime header (`#include "miner.h"` then
`#include <cuda_runtime.h>`, as tpruvot/ccminer's .cpp files do) defines a function-like
`min` or `max` macro. The translation includes the target's main header before that
header as well.
Why: HIP's hip_runtime.h includes C++ standard headers (`<limits>`; `<thread>` and
`<chrono>` in HIP sources) whose `min()` and `max()` members such a macro breaks ("too
few arguments provided to function-like macro invocation"); CUDA's runtime header
includes none of them, so the order worked there.
Fix: nothing to do; or include the runtime header first, or name the macros otherwise.
""")
register("CP169", "target-header-not-c", "info", "target header that does not compile as C", """
What: the header a CUDA header becomes does not compile as C on the target, although the
CUDA header does: HIP's `hiprand/hiprand.h` (rocRAND's header uses `__half`, which
`hip_fp16.h` declares only for C++), `hipblaslt/hipblaslt.h`, `hipfft/hipfftXt.h`,
`hip/hip_bf16.h`, `hip/hip_fp8.h` (`cxx_only_headers` in the target's hazards facts).
An error in a `.c` file. Information in a header written for C too (it tests
`__cplusplus`); checked together (`check`, `report`, a tree run), every C file that
includes that header, however indirectly, is blocked (pjreddie/darknet's .c files
include `darknet.h`, which includes `curand.h`).
Why: a C translation unit cannot read the C++ the target header holds.
Fix: include the library header only in C++ files (keep it out of the header C files
share), or compile those files as C++.
""")
register("CP222", "vector-brace-init", "error", "vector type initialized as an aggregate", """
What: a CUDA vector type (`float4`, `uint2` ...) is initialized from a braced list that
gives fewer values than it has components (`float4 v = {0};`, `float4 v = {1, 2};`), or an
array of them from values not grouped per element (`uint2 a[25] = {0};`,
`uint2 a[2] = {1, 2, 3, 4};`).
Why: CUDA's vector types are plain structs, so the missing components become zero and
the braces may be elided; HIP's are classes whose constructors take every component or
(explicitly) one value, so these lists do not compile.
Fix: a list of one zero becomes `{}` in the translation (zeroes on both; the finding is
then information). Otherwise give every component (`{1, 2, 0, 0}`), group an array's values
per element (`{{1, 2}, {3, 4}}`), or write `{}` for zeros.
Bad: `uint2 state[25] = { 0 };`
Good: `uint2 state[25] = {};`
""")
register("CP227", "uint3-to-dim3", "warning", "uint3 value stored where a dim3 may be", """
What: `make_uint3(...)` stored into something whose type cudaport does not read (a member,
an array element, a name declared elsewhere): `cfg.grid = make_uint3(8, 8, 1);`.
Why: CUDA's dim3 converts from uint3 (vector_types.h: `dim3(uint3 v)`); HIP's dim3 has
only `dim3(uint32_t x, uint32_t y, uint32_t z)`, so if the destination is a dim3 the line
does not compile on the target. Where the destination is a dim3 cudaport reads (a
variable declared dim3), the translation writes `dim3(...)` in place of `make_uint3(...)`,
which computes the same.
Fix: if the destination is a dim3, write `dim3(x, y, z)` in place of `make_uint3(x, y, z)`.
Bad: `launch.grid = make_uint3(n, 1, 1);` (grid a dim3)
Good: `launch.grid = dim3(n, 1, 1);`
""")
register("CP228", "host-only-runtime-in-device", "error", "runtime call in device code the target has on the host only", """
What: a CUDA runtime function CUDA also declares for device code (`cudaGetErrorString`,
`cudaGetLastError`, `cudaMalloc`, ... of cuda_device_runtime_api.h) called in a
`__device__` or `__global__` function (a warning in a `__host__ __device__` one, which
fails only where device code calls it).
Why: HIP's counterparts (`hipGetErrorString`, ...) are host functions only, so the
translated kernel does not compile ("call to __host__ function from __global__ function").
Fix: return the error code to the host and call the function there, or keep the
device-side error handling out of the HIP build.
Bad: `__global__ void k() { printf("%s", cudaGetErrorString(cudaGetLastError())); }`
Good: `k<<<g, b>>>(); printf("%s", cudaGetErrorString(cudaGetLastError()));` (on the host)
""")
register("CP901", "unreadable-file", "error", "file could not be read", """
What: the input could not be read (missing, permission denied, or not a regular file).
Fix: check the path and permissions.
""")
register("CP902", "binary-file", "error", "file is not text", """
What: the input contains NUL bytes or a UTF-16/32 byte-order mark, so it is not C/C++ text.
Fix: pass source files only. (No longer reported: a binary file named on the command line
is an input error, exit 2; one found while walking a folder is CP930 in every command.)
""")
register("CP908", "internal-error", "error", "cudaport failed on this file", """
What: translating this build file raised an error inside cudaport (a bug, not a problem of
the file). The file is left as it is; the rest of the run goes on.
Why: the file is not ported, so the build it describes still asks for CUDA.
Fix: port the file by hand, and report the bug with the message and the file.
""")
register("CP907", "unterminated-literal", "warning", "comment or literal never closes", """
What: a block comment, string or raw string has no end: a `/*` without `*/`, a `"` without
its closing quote on the line, or a raw string `R"x(` without `)x"`.
Why: the rest of the file (comment, raw string) or of the line (string) is read as part of
it, so the CUDA names there are neither translated nor reported. A compiler rejects the
file, or an `#if` branch it never compiles hides the mistake.
Fix: close the comment or literal. In a file in GBK, Big5 or Shift-JIS whose encoding was
not detected, pass `--encoding` so a character's second byte is not read as a backslash.
""")
# CP150-CP169: targets as data and user rules (issue 8). User check-only rules report under
# the user's own code from the YAML, which may never start with "CP" (see rules/README.md).
register("CP150", "experimental-target", "warning", "the target's rule tables are experimental", """
What: the selected target (for example `--target maca`) ships only the names that could be
verified in public sources; every other CUDA name is reported as unmapped or unknown.
Why: the translation is partial by design, and the verified names come from vendor samples
rather than a complete API table.
Fix: review the output, add the names you know with `--rules FILE.yaml`, and prefer a
complete target (hip, musa) where one exists.
""")

# CP910-CP929: configuration and suppression problems (cudaport check).
register("CP910", "unused-suppression", "warning", "suppression comment matched no finding", """
What: a `// cudaport: ignore[...]` comment names codes (or all codes) but no finding on
its line, or on the line after it when the comment stands alone, was suppressed.
Why: a stale suppression hides nothing today and would silently hide a real problem
added to that line later.
Fix: delete the comment, or narrow it to the codes that still fire there. Reported only
with `--warn-unused-ignores`.
""")
register("CP911", "bad-suppression", "warning", "suppression comment names an unknown code", """
What: a `// cudaport: ignore[...]` comment lists something that is not a cudaport code
or code prefix (for example a typo such as `CP1O1`).
Why: the comment suppresses nothing for that entry, so the finding it meant to hide is
still reported, and readers are misled.
Fix: use codes shown by `cudaport check` or `cudaport explain`, for example
`// cudaport: ignore[CP101]`.
""")


# Build files (CP300-CP399) and tree/file-system notes (CP930-CP949): issue 6.
register("CP301", "cmake-no-equivalent", "error", "CMake construct with no equivalent on the target", """
What: a CMake command, package, imported target or variable is CUDA-specific and the target
has no equivalent (for example FindCUDA's `cuda_add_executable`, or `CUDA::nvjpeg`).
Why: the translated build still asks for CUDA and will fail to configure or link.
Fix: rewrite that part by hand: plain `add_executable` with `.hip` sources (or
`LANGUAGE HIP`), and the target library's own package.
""")
register("CP302", "cmake-needs-review", "warning", "CMake setting left as written; check it", """
What: a CUDA build setting such as `CUDA_SEPARABLE_COMPILATION` or
`CUDA_RESOLVE_DEVICE_SYMBOLS` has no one-to-one HIP counterpart, so it was kept and reported;
or an `if()` compares CUDA's version (`CUDAToolkit_VERSION VERSION_LESS 11.8`), which a HIP
build does not have: the translation compares CUDA 13.0's instead (the branch CUDA 13.0
takes, as for a version gate in a source).
Why: the setting changes how device code is compiled or linked; HIP does it differently
(for example relocatable device code with `-fgpu-rdc`); an empty version takes the branch
for no CUDA (a project's own error for an old one).
Fix: read the message and port the setting by hand.
""")
register("CP303", "cmake-unknown-cuda-name", "warning", "CUDA-looking CMake name no rule knows", """
What: a name such as `CMAKE_CUDA_...`, `CUDA::...` or `CUDAToolkit_...` appears in a build
file but no CMake rule knows it.
Why: it is probably CUDA-specific and will not mean anything when building for the target.
Fix: port it by hand, or add a rule to the CMake rule file.
""")
register("CP304", "cmake-added-package", "info", "CMake file needs an extra find_package", """
What: an imported target was mapped to a target library (for example `CUDA::cublas` to
`roc::hipblas`) that comes from its own CMake package, and this file has no
`find_package(CUDAToolkit)` where cudaport could add it.
Why: the target library is not found unless its package is looked up somewhere.
Fix: add `find_package(NAME REQUIRED)` where the project finds its dependencies.
""")
register("CP305", "cmake-parse-error", "error", "build file could not be parsed", """
What: the CMake file has an unterminated command, string or bracket argument.
Why: cudaport cannot tell code from text, so the file is left unchanged.
Fix: check that the file configures with CMake; report a bug if it does.
""")
register("CP306", "cmake-flag-removed", "info", "nvcc flag HIP does without removed", """
What: an nvcc option in a Makefile, a CMake flag variable or a compile option that HIP's
compiler (Clang) rejects and does not need was removed: device lambdas and constexpr calls
from device code need no switch (`--extended-lambda`, `--expt-relaxed-constexpr`), Clang
takes host flags itself (`-forward-unknown-to-host-compiler`), and PTX assembler options
(`-Xptxas -v`) or nvcc's `-restrict` hint have no AMD counterpart. Both kinds of build
file read one table (`rules/hip/build/flags.yaml`).
Why: ROCm 7.2's hipcc stops with "unknown argument" on each of them.
Fix: nothing to do. Bad: `set(CMAKE_CUDA_FLAGS "--extended-lambda -Xptxas -v")`
Good: `set(CMAKE_HIP_FLAGS "")`.
""")
register("CP311", "make-option-dropped", "warning", "nvcc option with no counterpart removed", """
What: a Makefile or a CMake file passes nvcc an option hipcc has no counterpart for
(`-maxrregcount`, `-Xcudafe`, `-ccbin`, ...); the translation drops it, and the message
says what comes nearest.
Why: hipcc rejects nvcc's options, so keeping it would break the build; dropping it can
change what it controlled (register limits, line tables, precision).
Fix: nothing for the build; if the option mattered, use the message's alternative (for
example `__launch_bounds__` in the source instead of `-maxrregcount`).
""")
register("CP312", "make-no-equivalent", "error", "Makefile names CUDA with no equivalent on the target", """
What: a Makefile links a CUDA library the target lacks (`-lnvjpeg`, `-lcupti`, NPP),
asks nvcc for an NVIDIA-only output (`-ptx`, `-cubin`), or names a toolkit folder ROCm does
not have (`$(CUDA_PATH)/samples/common/inc`); it is left as written.
Why: the ported build still asks for CUDA and fails there (or, for a folder, the headers
it expects are missing).
Fix: port that part by hand: drop the library and the code that uses it, or copy the
helper headers the program uses into the project.
""")
register("CP313", "make-needs-review", "warning", "Makefile setting mapped or kept; check it", """
What: a Makefile setting was mapped to the nearest HIP form that behaves differently
(`-dlink` to `-fgpu-rdc --hip-link`, `-lnvidia-ml` to ROCm SMI), a recipe runs a CUDA
toolkit tool (`nvprof`, `cuobjdump`) that was left as written, or the Makefile reads the
CUDA version from `nvcc --version`: in `$(shell ...)` piped on, the query prints CUDA 13.0's
release line instead (the branch CUDA 13.0 takes, as for a version gate in a source).
Why: the build may still work, but the step does something else on the target (HIP has no
separate device-link object; ROCm SMI's API is not NVML's; hipcc prints no CUDA release),
or the recipe fails when run.
Fix: read the message; link relocatable device code with `hipcc -fgpu-rdc` in one step,
and use the ROCm tool the message names.
""")
register("CP314", "make-generated", "info", "generated Makefile left as it is", """
What: the Makefile was written by a tool (automake's `Makefile.in`, `configure`, CMake's
"Unix Makefiles" generator), so cudaport did not change it.
Why: edits would be lost the next time the tool runs; the files it was generated from are
the ones to port.
Fix: port `Makefile.am`/`configure.ac` or the `CMakeLists.txt` by hand or with cudaport
(CMake files are translated), then regenerate.
""")
register("CP315", "make-renamed-sources", "warning", "Makefile names sources that --rename renames", """
What: the run renames `.cu` files (`--rename`), and this Makefile names `.cu` sources or
rules (`%.o: %.cu`); Makefiles are not rewritten for the new names.
Why: make would look for `.cu` files that the output no longer has.
Fix: translate without `--rename` (hipcc compiles `.cu` files as HIP), or rename the
sources in the Makefile by hand.
""")
register("CP930", "skipped-binary", "info", "binary file with a source extension skipped", """
What: a file named like C/C++/CUDA source contains NUL bytes or a UTF-16/32 byte-order mark.
Why: it is not text, so it is not translated (below a folder's `--out-dir` it is copied unchanged).
Fix: nothing to do, unless the file is source in another encoding: convert it to UTF-8.
""")
register("CP931", "symlink-outside-root", "warning", "symbolic link leaving the tree not followed", """
What: a symbolic link below the translated folder points outside it (or is broken).
Why: following it could translate, or write next to, files that are not part of the tree.
Fix: translate the link's target separately if it is yours.
""")
register("CP932", "symlinked-folder", "info", "symbolic link to a folder not followed", """
What: a symbolic link to a folder inside the tree was not descended into; with --out-dir
the same link (relative, to the same folder of the output) is made in the output.
Why: the folder is translated through its real path; following links could visit files
twice or loop. Made again, the link keeps include paths and build files that name it
working in the output tree.
Fix: nothing to do.
""")
register("CP933", "stale-mirror", "error", "translated mirror is out of date", """
What: the committed translation of a source file is missing or differs from what cudaport
produces now.
Why: the HIP mirror no longer matches its CUDA source.
Fix: rerun `cudaport translate SRC --out-dir MIRROR` and commit the result.
""")
# CP501-CP519: `cudaport verify` (the HIP compiler's verdict on translated code).
register("CP501", "does-not-compile", "error", "translated code does not compile for the target", """
What: the HIP compiler rejected the translated file; the message is the compiler's, the
location is the line of the original CUDA file it came from.
Why: a CUDA API left untranslated (see CP101/CP105), a construct HIP lacks, or a
difference in a header's declarations.
Fix: read the compiler's message; `cudaport verify -v` prints its full output with
locations mapped to the CUDA sources.
""")
register("CP502", "compiler-warning", "warning", "the HIP compiler warns about translated code", """
What: the HIP compiler accepted the translated file but printed a warning there.
Why: warnings often point at behaviour that differs on the target (deprecated HIP API,
implicit conversions of vector types).
Fix: read the warning; silence it in the CUDA source if it does not apply.
""")
register("CP503", "inline-ptx", "error", "inline PTX assembly", """
What: an `asm("...")` statement whose text is PTX, NVIDIA's virtual instruction set.
Why: AMD GPUs cannot assemble PTX; a syntax check does not look inside the string, so the
failure would only show when device code is generated.
Fix: replace it with a HIP intrinsic (`__lane_id()`, `__clock64()`, `__shfl_*`) or portable
C++, keeping the PTX under `#ifdef __CUDA_ARCH__` / `#if !defined(__HIP_PLATFORM_AMD__)`.
""")
register("CP504", "header-not-found", "error", "a header the translation includes is missing", """
What: the HIP compiler could not find a header the translated file includes.
Why: the target library is not installed (the message names the package when cudaport
knows it), or a project include folder was not passed (`-I`, `-p compile_commands.json`).
Fix: install the library, or pass the include folders.
""")
register("CP505", "compiler-failed", "error", "the HIP compiler failed without a diagnostic", """
What: the compiler exited with an error but printed no error cudaport could map (a crash,
a timeout, a bad flag).
Fix: run `cudaport verify -v` to see its output and the command line.
""")
register("CP506", "does-not-build", "error", "the ported project does not build", """
What: `cudaport verify --build` ran the project's own build (make, or CMake's configure
and build) on the translation against ROCm, and it failed; the message is the first error,
on the CUDA file and line it comes from when the error is in a translated file.
Why: compiling each file (plain `verify`) does not prove the project links: a library the
Makefile still names, relocatable device code linked without `-fgpu-rdc`, a build setting
only nvcc understands.
Fix: read the finding named with it (a CP3xx on the build file, a CP1xx on the source);
otherwise the build's output (`--verbose`) says the rest.
""")

register("CP600", "framework-header-unmapped", "error",
         "framework CUDA header with no known equivalent on the target", """
What: the file includes one of PyTorch's own CUDA headers (`ATen/cuda/...`, `c10/cuda/...`)
and cudaport knows no header of the target's PyTorch port that replaces it.
Why: the include will not resolve when building against the target's PyTorch.
Fix: include the matching header of the port (for torch_musa, below `torch_musa/csrc/`),
or add a `headers:` rule with `--rules`.
""")
register("CP601", "cudnn-backend-flag", "warning", "torch.backends.cudnn is CUDA-only", """
What: the Python code reads or sets `torch.backends.cudnn` settings.
Why: on the target these settings have no effect (torch_musa uses muDNN), so code that
relies on them (determinism, benchmark mode) may behave differently.
Fix: check what the setting was for and use the target's equivalent, if any.
""")
register("CP602", "extension-builds-as-is", "info",
         "ROCm PyTorch builds this CUDA extension as written", """
What: the build script uses `torch.utils.cpp_extension.CUDAExtension`/`BuildExtension`.
Why: ROCm builds of PyTorch hipify the extension's sources while building it, so the
build script needs no change; only compiler flags meant for nvcc may need attention.
Fix: nothing, unless another finding names a flag.
""")
register("CP603", "nvcc-flag-equivalent", "warning", "nvcc-only flag with a HIP equivalent", """
What: `extra_compile_args['nvcc']` holds a flag only nvcc understands; the message names
what to use with the HIP compiler instead.
Why: on ROCm these flags reach hipcc/clang, which rejects or ignores them.
Fix: use the named equivalent (for example under `if torch.version.hip:`).
""")
register("CP604", "nvcc-flag-unmapped", "warning", "nvcc-only flag with no HIP equivalent", """
What: `extra_compile_args['nvcc']` holds a flag only nvcc understands and the HIP compiler
has no equivalent for.
Why: the flag is rejected or ignored on the target.
Fix: drop the flag for the target build, and check what it was tuning.
""")
register("CP605", "extension-build-review", "warning", "build script needs a manual change", """
What: a part of the extension's build script that cudaport did not rewrite for the target
(a compiler-argument key, source file names, a CUDA-only helper).
Why: the build would still ask for CUDA tools or files.
Fix: change it as the message says.
""")
register("CP606", "python-cuda-only", "warning", "CUDA-only Python API left as written", """
What: a `torch` Python attribute that exists for CUDA only (such as `Tensor.is_cuda`) or a
CUDA name cudaport does not rewrite in Python.
Why: on the target it reports or does something CUDA-specific.
Fix: use the target's equivalent (torch_musa: `is_musa`, `torch.musa`).
""")

# CP701-CP709: `cudaport shim` (unmodified sources built through generated headers).
register("CP701", "needs-source-edit", "error", "construct a compatibility header cannot port", """
What: the file holds something the translation rewrites in place and a header cannot reach
by renaming names: inline PTX, a braced initializer HIP's vector types reject, a spaced
kernel launch, a name used other than in a call where the shim maps its calls with a
function-like macro, a call whose argument holds a comma the preprocessor splits at.
Why: the shim maps names with the preprocessor, uniformly; it cannot change a statement,
so the unmodified file does not compile with it (or computes something else).
Fix: edit that place so both compilers accept it (for example under
`#ifdef __HIP_PLATFORM_AMD__`), or translate the file: `cudaport translate FILE` rewrites it.
""")
register("CP702", "own-declaration-mapped", "warning", "the project declares a name the shim maps", """
What: the project declares a name spelled like a CUDA API name (its own `cudaMalloc` in
its namespace, a polyfill of a warp function) and uses the CUDA API's name elsewhere, so
the shim maps that name with a macro.
Why: a macro renames the declaration and its uses alike, which compiles unless the new
name is one HIP declares in the same scope, where the two clash.
Fix: rename the project's own declaration, or translate that file (`cudaport translate`
keeps project names apart).
""")

# Portability hazards (CP2xx) and clang tool problems (CP903-CP909): cudaport/translate/passes/hazards.py
# and cudaport/clang/. Warp-width codes fire only when the target's warp is wider than 32.
register("CP182", "cxx-fix-in-cuda-free-file", "warning", "C++ hipcc's clang rejects, in a file that uses no CUDA, left as written", """
What: a construct the translation rewrites in CUDA files because hipcc's clang rejects it
(the `register` storage class in C++17; a negative constant in the braces of an unsigned
type, `size_type{-1}`), found in a file that uses no CUDA (no CUDA name, launch or
qualifier, not a .cu/.cuh file).
Why: a file that uses no CUDA is never edited (it may belong to the project's host-only
build). A HIP unit that includes it still fails at this line.
Fix: if a HIP unit includes the file, make the edit by hand (drop `register`; write
`size_type(-1)`): both keep the meaning for every compiler.
""")


register("CP178", "absent-target-header", "error", "ROCm header the target's packages do not install", """
What: code a build for the target compiles (a file written for HIP, or the project's own
HIP branch, `#elif defined __HIP__`) includes a ROCm header that the target's packages do
not install: ROCProfiler's `rocprofiler.h` or ROCTracer's `roctracer.h` with ROCm 7.2 from
Debian's packages (`absent_headers` in rules/hip/target.yaml says which, and why).
Why: the translation leaves the project's own ROCm code as it is, so the include stays and
the build stops at "file not found"; the file and every file including it are not ported.
Fix: move to the header named instead (ROCprofiler-SDK for the deprecated ROCProfiler and
ROCTracer), install the component from AMD's packages where the build runs, or guard the
include and its uses with a switch the build sets only where the component is there.
Bad: `#elif defined __HIP__` / `#include <rocprofiler.h>` (ROCm 7.2, Debian's packages)
Good: `#if defined(__HIP__) && defined(HAVE_ROCPROFILER)` around the include and its uses
""")
register("CP179", "integer-handle-cast", "info", "cast of a CUDA integer handle made a C-style cast", """
What: a `reinterpret_cast` or `static_cast` to `CUdeviceptr` (or an alias of it, or a
texture or surface object type), or a `static_cast` of a variable of the type, became a
C-style cast: `reinterpret_cast<CUdeviceptr>(p)` -> `(hipDeviceptr_t)(p)`.
Why: CUDA's type is an integer (`unsigned long long`), HIP's a pointer (`void*`): there
`reinterpret_cast` from a `const` pointer casts away qualifiers and `static_cast` between
the pointer and an integer is not allowed, so the renamed cast does not compile. A C-style
cast converts each of these as CUDA's cast does, to the same value.
Fix: nothing.
Bad: `return reinterpret_cast<address_t>(device_ptr);` with `const void* device_ptr` and `using address_t = CUdeviceptr;`
Good: `return (address_t)(device_ptr);`
""")
register("CP180", "integer-handle-arithmetic", "error", "CUDA integer handle used as a number", """
What: a variable declared as `CUdeviceptr` (or an alias of it, or a texture or surface
object type) is used as a number: arithmetic (`d + offset`, `d += n`), bitwise operators
(`d & ~0xff`), an ordered comparison with a number, or a comparison or assignment of a
number other than 0.
Why: CUDA's type is an integer (`unsigned long long`), HIP's `hipDeviceptr_t` a `void*`
(texture and surface objects pointers to opaque structs): arithmetic on `void*`, bitwise
operators and comparisons with integers do not compile there.
Fix: convert for the arithmetic and back: `(hipDeviceptr_t)((uintptr_t)d + offset)`
(the same address); compare `(uintptr_t)d` with the number.
Bad: `CUdeviceptr d; ... cuMemcpyHtoD(d + 16, h, n);`
Good: `cuMemcpyHtoD((CUdeviceptr)((uintptr_t)d + 16), h, n);` (becomes `(hipDeviceptr_t)(...)`)
""")
register("CP201", "ballot-in-32-bits", "warning", "warp ballot stored in a 32-bit integer", """
What: the result of `__ballot_sync`/`__activemask` is kept in a 32-bit integer.
Why: on a 64-wide wavefront (AMD CDNA) the ballot has 64 bits; the upper 32 lanes are lost.
Fix: use a 64-bit type. Bad: `unsigned m = __ballot_sync(FULL, p);`
Good: `unsigned long long m = __ballot_sync(FULL, p);` (or `auto`).
Automatic fix (safe, `--fix`): the declaration's type becomes `unsigned long long`.
""")
register("CP202", "full-mask-32", "warning", "32-bit full-warp mask in a *_sync intrinsic", """
What: a `*_sync` warp intrinsic gets the mask `0xffffffff`.
Why: HIP's `*_sync` intrinsics take a 64-bit mask; `0xffffffff` names only lanes 0-31 of a
64-wide wavefront, so half the lanes do not take part.
Fix: use a full mask of the right width. Bad: `__shfl_down_sync(0xffffffff, v, 1)`
Good: `__shfl_down_sync(~0ull, v, 1)` or a `FULL_MASK` macro defined per platform.
""")
register("CP203", "lane-math-32", "warning", "lane or warp index computed for 32-wide warps", """
What: a thread index is split into lane and warp with `& 31`, `% 32`, `>> 5` or `/ 32`.
Why: with 64-wide wavefronts the lane is `& 63` / `% 64` and the warp `>> 6` / `/ 64`; the
32-based arithmetic puts two wavefront halves in one "warp".
Fix: derive it from `warpSize`. Bad: `int lane = threadIdx.x & 31;`
Good: `int lane = threadIdx.x % warpSize;`
Automatic fix (unsafe, `--unsafe-fixes`): `& 31`/`% 32` become `% warpSize`, `>> 5`/`/ 32`
become `/ warpSize`, when the operand is the whole left-hand side; storage sized from 32
stays and must be reviewed with it.
""")
register("CP204", "per-warp-array-32", "warning", "array sized for 32 lanes or 32 warps", """
What: a `__shared__` array is sized `[32]`, one slot per lane or per warp.
Why: a block of 1024 threads has 16 wavefronts of 64 on AMD, but a per-lane buffer needs 64
slots; code indexing it by lane overflows.
Fix: size it from the target's warp width. Bad: `__shared__ float partial[32];`
Good: `__shared__ float partial[WARP_SLOTS];` with `WARP_SLOTS` chosen per platform.
""")
register("CP205", "warp-size-assumed", "warning", "warp size assumed to be 32", """
What: the code fixes the warp size at 32 (`#define WARP_SIZE 32`, `warpSize == 32`, a
`constexpr` 32).
Why: AMD CDNA wavefronts have 64 lanes; every computation built on the constant is wrong.
Fix: use `warpSize` (device code) or `hipDeviceProp_t::warpSize` (host), or define the
constant per platform. Bad: `#define WARP_SIZE 32` Good: `#define WARP_SIZE warpSize`.
""")
register("CP206", "shuffle-reduction-32", "warning", "shuffle reduction that covers 32 lanes", """
What: a shuffle reduction starts at offset 16 (or uses a width of 32), so it combines 32 lanes.
Why: on a 64-wide wavefront lanes 32-63 are never combined with lanes 0-31; the result is
a partial sum.
Fix: start at `warpSize / 2`. Bad: `for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(m, v, o);`
Good: `for (int o = warpSize / 2; o > 0; o /= 2) ...`.
Automatic fix (unsafe, `--unsafe-fixes`): the loop starts at `warpSize / 2`.
""")
register("CP207", "cub-warp-width", "warning", "CUB warp collective with the default logical warp", """
What: `cub::WarpReduce<T>` or `cub::WarpScan<T>` without its logical-warp width.
Why: CUB's default width is 32 threads; hipCUB's is the device's wavefront (64 on CDNA
GPUs), so each reduction or scan spans two CUDA warps: code that gives each 32-thread
row of a block its own reduction (`dim3 block(32, 4)`, as ankan-ban/llama2.cu's matrix-vector
kernel does) adds two rows together.
Fix: give the width: `cub::WarpReduce<float, 32>` keeps CUDA's grouping on any wavefront
(rocPRIM's logical warps may be narrower than the hardware's).
Bad: `using WarpReduce = cub::WarpReduce<float>;`
Good: `using WarpReduce = cub::WarpReduce<float, 32>;`
Automatic fix (safe, `--fix`): the width 32 is added.
""")
register("CP210", "inline-ptx", "error", "inline PTX assembly", """
What: an `asm(...)` statement whose instructions are NVIDIA PTX (`mov.u32`, `.reg .pred`,
`%%laneid`), or that cudaport cannot tell from PTX (`nop`, a template a macro builds).
Not reported: the target's own assembly, told by its instructions (for HIP, AMD GPU ones:
`s_waitcnt`, `v_dot2c_f32_f16`, `ds_bpermute_b32`, `buffer_load_dword`, `global_load_*`),
a declaration's symbol label (`__asm("llvm.amdgcn.rcp.f32")`), an empty barrier
(`asm volatile("" : "+v"(x))`) whose constraints the target's compiler accepts (an NVPTX
register class such as `"h"` or `"l"` is reported), assembly in a `.c` or `.cpp` file
without device code (nvcc gives those to the host compiler: it is the CPU's, as in ggml's
CPU back end or PolyBench-ACC's `rdtsc`), and assembly that is not PTX in any other file
without device code (host functions' assembly: ggml's RISC-V and Hexagon headers).
PTX whose every instruction has a HIP form is rewritten (CP230); for the rest the message
names the instruction that has none (`ldmatrix`, `mma.sync`, `cp.async.bulk`, a named
barrier, a predicate), or says the text is built from macros cudaport cannot read.
Why: PTX does not assemble for other GPUs; the target compiler rejects it or the host
compiler misreads it.
Fix: replace it with a portable intrinsic (most PTX snippets have one: `__shfl_sync`,
`__ldg`, `atomicAdd`, `clock64`), or guard it with `#if defined(__CUDA_ARCH__)` and provide
a target version. Bad: `asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));`
Good: `int w = threadIdx.x / warpSize;` where the warp's number in the block is meant.
""")
register("CP230", "inline-ptx-ported", "warning", "inline PTX rewritten with HIP code", """
What: an `asm(...)` statement whose every PTX instruction has a HIP meaning was rewritten:
special registers (`%laneid`, `%smid`, `%globaltimer` and its `_lo`/`_hi` halves, `%tid.x`),
cache-hinted, acquire, release and volatile loads and stores, `atom`/`red`, `fence`/`membar`,
`prmt`, `lop3`, `mul.hi`/`mul.wide`, full-warp `shfl.sync` and `redux.sync`, `bar.sync 0`,
`cvt` packs to `f16x2`/`bf16x2`, FP8/FP4/E8M0 pair conversions (`e4m3x2`, `e5m2x2`,
`e2m1x2`, `ue8m0x2`, through the portable header), `cvt.rni.sat.s8`, shifts,
`add`/`sub`/`mul`/`fma` on `f32` (in the rounding asked for), on half and bfloat16 values
and pairs, and on sm_100's `f32x2` pairs, `.approx` math, `griddepcontrol`, `brkpt` and the
Ampere `cp.async` copy. Operands are read and written bit for bit, inputs before outputs,
as the asm statement does.
Why: HIP cannot assemble PTX, but these instructions are expressions or builtins there.
Information when the rewrite computes the same; a warning when it comes with a caveat the
message states: an approximation replaced by a more exact function, a clock of another
rate, a lane number of a 64-wide wavefront, an asynchronous copy made synchronous (same
result, no overlap), a breakpoint that ends the kernel when a debugger resumes it.
Fix: nothing where the rewrite is exact; where the message states a caveat, check that the
code does not depend on it (bit-exact approximations, timer units, lane numbers above 31).
Bad: `asm volatile("mul.hi.u32 %0, %1, %2;" : "=r"(hi) : "r"(a), "r"(b));`
Good (written by the translation): `hi = __builtin_bit_cast(__typeof__(hi), static_cast<unsigned int>(__umulhi(__builtin_bit_cast(unsigned int, a), __builtin_bit_cast(unsigned int, b))));`
""")
register("CP231", "async-copy-synchronous", "warning", "asynchronous copy made synchronous", """
What: a pipeline primitive (`__pipeline_memcpy_async`, `__pipeline_commit`,
`__pipeline_wait_prior`) became a function of cudaport's portable header that copies at
once; commit and wait do nothing, as every copy is complete when it returns. (The inline
`cp.async` form is rewritten the same way and reported with CP230.)
Why: HIP has no asynchronous global-to-shared copy. The bytes that arrive are the same,
and the code's own `__syncthreads()` still orders them for other threads, but the copy
no longer overlaps the work issued after it: a multi-stage pipeline runs as one stage.
Fix: nothing for correctness; for speed, restructure the loop for the target (prefetch
into registers a step ahead, or use the target's own asynchronous loads).
Bad: `__pipeline_memcpy_async(&tile[i], &g[i], 16); __pipeline_commit(); __pipeline_wait_prior(0);`
Good (written by the translation): `cudaport_pipeline_memcpy_async(&tile[i], &g[i], 16);
cudaport_pipeline_commit(); cudaport_pipeline_wait_prior(0);`
""")
register("CP236", "wmma-fragment-elements", "warning", "WMMA fragment element indexed", """
What: `frag.x[i]` of a WMMA fragment ported to rocWMMA.
Why: which elements of the matrix a thread holds is unspecified in CUDA and differs in
rocWMMA (a 64-lane wavefront shares a fragment, so each thread holds fewer elements, and
in another order). An operation applied alike to every `x[i]` (scaling, conversion,
activation) computes the same matrix; code that reads `i` as a row or a column does not.
Fix: keep element-wise loops over `num_elements` as they are; for a position-dependent
operation store the fragment to shared memory, work on the rows there, and load it again.
Bad: `if (i < 4) frag.x[i] = 0;`
Good: `for (int i = 0; i < frag.num_elements; i++) frag.x[i] *= scale;`
""")
register("CP237", "wmma-warp-32", "error", "WMMA work divided among 32-thread warps", """
What: in a file that uses WMMA fragments, a warp index computed as `threadIdx.x / 32` (or a
name defined as 32), or a launch of a block of a multiple of 32 threads that is not a
multiple of the wavefront.
Why: a CUDA warp of 32 threads owns a fragment; in rocWMMA the whole wavefront (64 lanes on
CDNA: gfx90a, gfx942) owns it. Two of the code's 32-thread warps then run in one wavefront,
and each fragment load, product and store takes half its lanes from each warp's tile: the
kernel compiles and computes something else. (On RDNA's 32-lane wavefronts, `--warp-size
32`, the division is right and nothing is reported.)
Fix: count warps with `warpSize` (`threadIdx.x / warpSize`) and size blocks, shared memory
and tiles per wavefront; launch a multiple of 64 threads per block.
Bad: `#define WARP_SIZE 32` ... `int warpId = threadIdx.x / WARP_SIZE;`
Good: `int warpId = threadIdx.x / warpSize;`
""")
register("CP238", "wmma-arch-limited", "warning", "WMMA fragment rocWMMA builds for some GPUs only", """
What: a signed 8-bit m16n16k16 fragment (`signed char`, `int8_t`) ported to rocWMMA.
Why: rocWMMA multiplies 8-bit 16x16 blocks with K = 16 on gfx908, gfx90a and RDNA3
(gfx1100 ...); on gfx940 and later (gfx942) its 8-bit 16x16 blocks need K >= 32, so a
build for those GPUs stops at a static_assert ("BlockK is not a minimum of MinK").
Fix: build for the GPUs that have it, or, for gfx942, take two K = 16 steps as one
m16n16k32 fragment of rocWMMA's own (CUDA has no such shape), or call hipBLASLt.
Bad: `wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;` built for gfx942
Good: the same, built with `--offload-arch=gfx90a` or `gfx1100`
""")
register("CP211", "texture-reference", "error", "texture or surface reference", """
What: a `texture<...>` or `surface<...>` reference (the legacy texture API).
Why: CUDA 12 removed texture and surface references; HIP keeps them only as deprecated.
Fix: use texture objects (`cudaTextureObject_t` with `cudaCreateTextureObject`), which
map to `hipTextureObject_t`. Bad: `texture<float, 1> tex;` Good: `cudaTextureObject_t tex;`
""")
register("CP212", "dynamic-parallelism", "error", "kernel launched from device code", """
What: a kernel launch (`<<<...>>>`) inside a `__global__` or `__device__` function.
Why: dynamic parallelism is CUDA-only; HIP cannot launch kernels from the device.
Fix: launch the child work from the host, or fold it into the parent kernel.
Bad: `__global__ void parent() { child<<<1, 32>>>(); }` Good: launch `child` from the host.
""")
register("CP213", "cooperative-groups-gap", "error", "cooperative-groups feature HIP lacks", """
What: a cooperative-groups type or function that HIP's cooperative groups do not provide at
the target version (clusters, `cg::inclusive_scan`/`exclusive_scan`, `memcpy_async`,
`labeled_partition` before ROCm 7.2...; HIP 5.2 also lacks `meta_group_rank` and
`binary_partition`, which ROCm 6.4 has). `cg::reduce` is not among them: where
`<cooperative_groups/reduce.h>` was included, cudaport puts its own definition of it; nor,
from ROCm 7.2, `labeled_partition`: it becomes the portable header's
`cudaport_labeled_partition`.
Why: the translated code will not compile against that version's `hip_cooperative_groups.h`.
Fix: write the operation with shuffles and `__syncthreads`, or use rocPRIM/hipCUB.
Bad: `cg::inclusive_scan(tile, v)` Good: a shuffle scan over the tile's lanes (`shfl_up`).
""")
register("CP214", "device-prop-field", "error", "struct member with no HIP counterpart", """
What: a member of a CUDA struct that the target's type lacks or declares with another type
at the target version: `cudaDeviceProp` members `hipDeviceProp_t` lacks (HIP 5.2 lacks ~56,
ROCm 6.4 nine, such as `mpsEnabled` and the NUMA fields), and the members of other structs
listed in the target's `struct_members` facts (the cluster fields of `cudaFuncAttributes`
and `cudaLaunchAttributeValue`, cuRAND's generator state, the driver's
`CUDA_KERNEL_NODE_PARAMS` grid fields, NCCL 2.28's `ncclConfig_t` fields RCCL lacks ...).
A member of another struct is reported where it is reached through a variable, parameter
or array the file declares with the struct's CUDA name.
Why: the translated code will not compile (or reads a member of another type).
Fix: query the attribute with `hipDeviceGetAttribute` where one exists, use the member the
message names, or drop the use.
Bad: `prop.mpsEnabled`, `attr.requiredClusterWidth` Good: a platform-guarded query.
""")
register("CP215", "arch-condition", "warning", "preprocessor condition on CUDA arch or version", """
What: `#if`/`#ifdef` on `__CUDA_ARCH__` or `__CUDA_ARCH_LIST__`, on CUDA's version macros
(`CUDART_VERSION`, `CUDA_VERSION`, `__CUDACC_VER_MAJOR__`/`MINOR`/`BUILD`), on another CUDA
name the target lacks, on `__NVCC__` in a file with HIP branches of its own, or on
`__has_include` of a CUDA header the target has no equivalent of, that the target's facts
do not decide: a file with HIP branches of its own (whose gates were written knowing that
HIP reads them as 0), or a threshold the run does not know.
Why: the target compiler defines none of these (nor finds that header), so the condition
reads them as 0 and the build takes a branch a CUDA build would not; the message says
whether the branch is compiled. (In a file with no HIP branches of its own, gates on
CUDA's architecture and version are decided from the target's facts instead: CP223.)
Findings in branches the target never compiles are not reported.
Fix: check that the branch the target takes is the one it needs; where it is not, test the
target's own macro (`__HIP_PLATFORM_AMD__`, `HIP_VERSION`, `__HIP_DEVICE_COMPILE__`) too.
Bad: `#if __CUDA_ARCH__ >= 700` Good: `#if __CUDA_ARCH__ >= 700 || defined(__HIP_DEVICE_COMPILE__)`.
""")
register("CP223", "gate-decided", "info", "architecture or version gate decided by the target's features", """
What: a `#if` on `__CUDA_ARCH__` or on CUDA's version in a file with no HIP branches of its
own, decided from what the target has (rules/hip/facts/gates.yaml): the HIP build takes the
branch CUDA takes on the newest GPU or CUDA where every AMD GPU has what that branch relies
on (the condition then tests `__HIP_DEVICE_COMPILE__` or `__HIP_PLATFORM_AMD__` too, with a
comment), or keeps the fallback where the target lacks all of it.
Why: hipcc defines neither macro, so read as written every such gate takes the branch for
the oldest GPU or CUDA: half arithmetic replaced by placeholders, a sample printing "not
supported" for a feature HIP has.
Fix: nothing to do; the message names the features the decision rests on.
Bad: `#if __CUDA_ARCH__ >= 530` (read as 0 by hipcc) Good: `#if (__CUDA_ARCH__ >= 530) || defined(__HIP_DEVICE_COMPILE__)`.
""")
register("CP224", "gate-differs", "warning", "gated branch whose features differ on the target", """
What: an architecture or version gate (in a file with no HIP branches of its own) whose
branch relies on something the target has with another meaning (independent thread
scheduling, an asynchronous copy made synchronous), or whose newest branch relies on some
features the target has and some it lacks, or on one only some AMD GPUs have.
Why: the HIP build compiles the branch the message names; what differs may change what it
does (a lane that waits for another lane of its wavefront does not progress on AMD GPUs,
whose lanes run in lockstep) or only how fast.
Fix: read the branch taken with what differs in mind; where another branch fits the target
better, test `__HIP_DEVICE_COMPILE__` (or a `__gfx*__` macro) in its condition.
Bad: `#if __CUDA_ARCH__ >= 700` around a spin lock among lanes Good: the pre-Volta branch, which HIP compiles.
""")
register("CP225", "placeholder-branch", "warning", "the target compiles a placeholder branch", """
What: the branch a HIP build compiles for an architecture or version gate looks like a
placeholder: it traps or asserts, reports "not supported", is called a dummy or stub,
returns only zeros, or is an empty function body, because the branch CUDA takes on newer
GPUs or CUDA relies on what the target lacks.
Why: the port compiles and runs, but the code computes nothing (or stops) where the
original, on the GPUs it was written for, computed results.
Fix: write the missing path for the target (HIP's own intrinsics, rocWMMA, the AMD GPU
builtins), or keep the program from reaching it.
Bad: `#else` `half2 mad(half2, half2, half2) { return half2(); }` Good: a HIP implementation of it.
""")
register("CP226", "arch-macro-value", "error", "CUDA architecture macro used as a value", """
What: `__CUDA_ARCH__` (or another of nvcc's architecture macros) used as a value in code
that a HIP build compiles (`int arch = __CUDA_ARCH__;`, `static_assert(__CUDA_ARCH__ >= 700)`).
Why: hipcc defines no such macro, so the name is undeclared there and the file does not
compile.
Fix: use the target's own macros (`__HIP_DEVICE_COMPILE__`, `__gfx942__`, ...) or a value
of the project's own.
Bad: `printf("arch %d", __CUDA_ARCH__);` Good: the same under `#if !defined(__HIP_PLATFORM_AMD__)`.
""")
register("CP216", "gemm-ex-data-type-compute", "error", "cuBLAS GEMM compute type given as a data type", """
What: `cublasGemmEx`, `cublasGemmBatchedEx` or `cublasGemmStridedBatchedEx` with a
`cudaDataType` as its compute type (the pre-CUDA 11 form) that cuBLAS's compatibility
overload rejects (`CUDA_C_16F`, `CUDA_C_32I`: CUBLAS_STATUS_NOT_SUPPORTED), or with a target
that lacks the compute-type names.
Why: the translated call, `hipblasGemmEx` and friends, takes only a `hipblasComputeType_t`,
so it does not compile, and there is no compute type to write that keeps cuBLAS's answer.
The data types the overload converts are not reported: cudaport writes the compute type it
converts them to (`CUDA_R_32F` and `CUDA_C_32F` -> `HIPBLAS_COMPUTE_32F`, the 64-bit ones
-> `HIPBLAS_COMPUTE_64F`, `CUDA_R_16F` -> 16F, `CUDA_R_32I` -> 32I), and for a variable the
file declares as `cudaDataType` that conversion as an expression on it (CP108, information).
Fix: pass the compute type the call means (`CUBLAS_COMPUTE_32F`, ...); cudaport maps it.
Bad: `cublasGemmEx(..., C, CUDA_C_16F, ldc, CUDA_C_16F, algo)` Good: `cublasGemmEx(..., C, CUDA_C_32F, ldc, CUBLAS_COMPUTE_32F, algo)`.
""")
register("CP217", "block-below-wavefront", "error", "warp-collective block algorithm with too few threads", """
What: `cub::BlockLoad`/`BlockStore` with a `*_WARP_TRANSPOSE` algorithm in a block whose
thread count is not a multiple of the target's wavefront (for example 32 threads on a
64-lane AMD GPU).
Why: hipCUB runs these on rocPRIM, which static_asserts "BlockSize must be a multiple of
hardware warpsize"; the translated kernel does not compile.
Fix: launch 64 threads or more (the ROCm ports of such kernels widen them), or use
`BLOCK_LOAD_DIRECT`/`BLOCK_LOAD_STRIPED`. Bad: `cub::BlockLoad<float, 32, 4,
cub::BLOCK_LOAD_WARP_TRANSPOSE>` Good: `cub::BlockLoad<float, 64, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>`.
""")
register("CP218", "per-warp-storage-32", "warning", "per-warp storage sized for 32-lane warps", """
What: a `__shared__` array sized `[THREADS / 32]` (or `>> 5`): one slot per 32-lane warp.
Why: with 64-lane wavefronts only half the slots are written; code that then reads every
slot (a block reduction over the per-warp partial results) reads uninitialised values.
Fix: size and index the slots with the wavefront width. Bad: `__shared__ float s[THREADS / 32];`
Good: `__shared__ float s[THREADS / WARP_SIZE];` with `WARP_SIZE` 64 on AMD, and loops
bounded by `blockDim.x / warpSize`.
""")
register("CP219", "lane-mask-not-full", "warning", "warp lane mask that is not the full warp", """
What: a `*_sync` warp intrinsic gets a lane mask that is not a visible full-warp constant: a
variable, a partial constant (`0x0000ffff`), a computed value.
Why: HIP's `*_sync` intrinsics take a 64-bit mask with one bit per lane of a 64-wide
wavefront, and check at run time that the mask equals the lanes that are active. A mask
built for 32-lane warps names the wrong lanes: cudaport casts it to 64 bits so the call
compiles, but what it selects is unchanged and must be checked.
Fix: derive the mask from the lanes that take part (`__activemask()`, `__ballot_sync`), with
64-bit arithmetic. Bad: `unsigned m = (1u << 16) - 1; __shfl_sync(m, v, 0);`
Good: `unsigned long long m = __ballot_sync(__activemask(), lane < 16); __shfl_sync(m, v, 0);`
""")
register("CP220", "warpsize-not-constant", "error", "warpSize used as a constant expression (HIP 7)", """
What: `warpSize` in a context that needs a constant: an array bound, a template argument,
a `constexpr` or `static_assert`, a `case` label.
Why: from HIP 7.0 `warpSize` is a device variable read at run time (wave32 and wave64
targets share one binary), no longer a constant expression; such code does not compile.
Fix: use a compile-time width you choose per target, or query it at run time.
Bad: `__shared__ float slot[warpSize];` Good: `__shared__ float slot[64];` (sized for the
widest wavefront) or `extern __shared__` memory sized at launch.
""")
register("CP221", "texture-object-as-integer", "error", "texture or surface object used as an integer", """
What: a `cudaTextureObject_t` or `cudaSurfaceObject_t` (or the driver's `CUtexObject`,
`CUsurfObject`) masked, shifted or or-ed as an integer, or an integer cast to one and then
combined with bit operators.
Why: CUDA's objects are `unsigned long long`; HIP's are pointers (`struct __hip_texture*`),
on which `&`, `|` and shifts do not compile.
Fix: pass the object itself; where it must be packed into integers, convert explicitly.
Bad: `make_uint2(obj & 0xFFFFFFFF, obj >> 32)` Good:
`uint64_t bits = reinterpret_cast<uintptr_t>(obj);` then pack `bits`.
""")
register("CP903", "clang-parse-errors", "warning", "clang reported errors parsing the file", """
What: clang parsed the file with errors (first errors are in the message, file:line).
Why: a missing include path or define, a header version clang does not know, or code only
nvcc accepts. Facts clang could not establish fall back to the text-based translation; the
translated output is still written.
Fix: pass the project's flags (`-p build/`, `-I`, `-D`, `--std`), or `--header-mode`.
""")
register("CP904", "clang-unavailable", "warning", "clang could not be used", """
What: `--clang` was asked for but libclang, clang's resource headers or the requested CUDA
headers are missing.
Why: cudaport then translates by text only, as without `--clang`.
Fix: install what the message names (`pip install libclang`, `apt-get install clang-15`,
the CUDA header wheels) or choose another `--header-mode`.
""")
register("CP905", "inactive-branch", "info", "code in an inactive preprocessor branch", """
What: these lines are in an `#if` branch that is inactive for the given flags.
Why: clang does not see them, so their translation is text-only (default), or they are left
as written with `--inactive-branches keep`.
Fix: nothing, unless the branch matters on the target: then check it by hand.
""")
register("CP906", "cuda-name-shadowed", "info", "CUDA name that refers to the project's own code", """
What: the identifier has a CUDA API's name, but clang resolves it to a declaration in the
project (for example a wrapper `mine::cudaMalloc`).
Why: renaming it would break the project's own code, so cudaport leaves it unchanged.
Fix: nothing; rename your function if the clash is confusing.
""")


@dataclass(frozen=True)
class Fix:
    applicability: str  # "safe" or "unsafe"
    description: str
    edits: tuple[tuple[int, int, bytes], ...]  # (start, end, replacement) on the source
    applied: bool = False
    # Per edit: (line, column, end line, end column), 1-based, columns in bytes.
    regions: tuple[tuple[int, int, int, int], ...] = ()

    def to_dict(self) -> dict:
        return {"applicability": self.applicability, "description": self.description,
                "applied": self.applied,
                "edits": [{"line": g[0], "col": g[1], "end_line": g[2], "end_col": g[3],
                           "replacement": r.decode("utf-8", "replace")}
                          for (_s, _e, r), g in zip(self.edits, self.regions)]}

    def located(self, linecol) -> "Fix":
        """The same fix with the lines and columns of its edits (``linecol(offset)``)."""
        return dataclasses.replace(self, regions=tuple(
            linecol(s) + linecol(e) for s, e, _r in self.edits))


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    path: str = "<stdin>"
    line: int = 0
    col: int = 0
    severity: str = ""
    identifier: str = ""
    library: str = ""
    engine: str = "lexical"
    offset: int = -1
    fix: object = None  # a cudaport.translate.fixes.Fix, when the finding can be fixed

    def __init__(self, code: str, message: str, path: str = "<stdin>", line: int = 0,
                 col: int = 0, severity: str = "", identifier: str = "", library: str = "",
                 engine: str = "lexical", offset: int = -1, fix: object = None) -> None:
        # The fields set in one step (a run over CCCL makes 150,000 findings; the frozen
        # dataclass's own __init__ set them one object.__setattr__ at a time).
        self.__dict__.update(code=code, message=message, path=path, line=line, col=col,
                             severity=severity or CODES[code].severity, identifier=identifier,
                             library=library, engine=engine, offset=offset, fix=fix)

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("offset")
        d.pop("fix")
        if self.fix is not None:
            d["fix"] = self.fix.to_dict()
        return d


@dataclass(frozen=True)
class Reference:
    """One occurrence of a CUDA name, translated or not."""

    identifier: str
    library: str
    status: str  # converted, same, unsupported, experimental, version, unknown
    replacement: str | None
    rule_id: str
    path: str = "<stdin>"
    line: int = 0
    col: int = 0
    context: str = "code"  # code, comment, string, include
    offset: int = -1

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("offset")
        return d
