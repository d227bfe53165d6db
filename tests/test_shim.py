"""`cudaport shim`: generated compatibility headers for building the unmodified CUDA
sources with hipcc (cudaport/shim/)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from cudaport import Options
from cudaport.cli.main import main as cli_main
from cudaport.shim import MARK, ShimError, generate, write

PROGRAM = r"""#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cufft.h>
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>

#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif

__constant__ float coeff[4];

HD inline float twice(float x) { return 2 * x; }

const char* fft_error(cufftResult r) {
  switch (r) {
    case CUFFT_SUCCESS: return "success";
    case CUFFT_MISSING_DEPENDENCY: return "missing dependency";
    default: return "other";
  }
}

__global__ void kernel(float* out, unsigned int* packed, __nv_bfloat16* h, unsigned m) {
  register int i = threadIdx.x;
  float v = out[i] * coeff[0];
  v += __shfl_down_sync(0xffffffff, v, 16);
  v += __shfl_xor_sync(m, v, 1);
  __syncwarp();
  __syncwarp(0xffffffffu);
  packed[i] = __vadd4(packed[i], packed[i + 1]);
  h[i] = __float2bfloat16(twice(v));
  out[i] = v;
}

int main() {
  float* d;
  cudaMalloc(&d, 64 * sizeof(float));
  float c[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(coeff, c, sizeof(c));
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b, cudaEventDisableTiming);
#if CUDART_VERSION >= 11000
  printf("CUDA 11 or newer\n");
#else
#error this branch is for CUDA 10
#endif
  thrust::device_vector<float> v(10, 1.0f);
  float s = thrust::reduce(thrust::cuda::par, v.begin(), v.end());
  void* temp = nullptr; size_t bytes = 0;
  cub::DeviceReduce::Sum(temp, bytes, d, d, 64);
  cudaError_t e = cudaGetLastError();
  printf("%s %f %s\n", cudaGetErrorString(e), s, fft_error(CUFFT_SUCCESS));
  cudaFree(d);
  return 0;
}
"""


def make(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "project"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def shim_of(tmp_path: Path, files: dict[str, str], **options):
    root = make(tmp_path, files)
    return generate([str(root)], Options(**options)), root


def test_one_header_per_cuda_header_each_including_its_hip_counterpart(tmp_path):
    shim, _ = shim_of(tmp_path, {"prog.cu": PROGRAM})
    assert sorted(shim.files) == [
        "cub/cub.cuh", "cuda_bf16.h", "cuda_runtime.h", "cudaport_shim/cub.h",
        "cudaport_shim/cufft.h", "cufft.h", "thrust/device_vector.h", "thrust/reduce.h"]
    text = {k: v.decode() for k, v in shim.files.items()}
    assert "#include <hip/hip_runtime.h>\n" in text["cuda_runtime.h"]
    assert "#include <hipfft/hipfft.h>\n#include <cudaport_shim/cufft.h>\n" in text["cufft.h"]
    assert "#include <hipcub/hipcub.hpp>\n" in text["cub/cub.cuh"]
    assert "namespace cub = hipcub;\n" in text["cudaport_shim/cub.h"]
    # every file says it is generated, by which version, for which HIP
    for data in shim.files.values():
        assert data.startswith(MARK)
        assert b"for HIP 7.2" in data.splitlines()[0]


def test_names_become_macros_as_the_translation_maps_them(tmp_path):
    shim, _ = shim_of(tmp_path, {"prog.cu": PROGRAM})
    runtime = shim.files["cuda_runtime.h"].decode()
    # same-shape names: object-like macros
    assert "#define cudaMalloc hipMalloc\n" in runtime
    assert "#define __nv_bfloat16 __hip_bfloat16\n" in runtime
    # calls that differ: function-like macros from the call templates
    assert ("#define cudaMemcpyToSymbol(a1, ...) hipMemcpyToSymbol(HIP_SYMBOL(a1), "
            "##__VA_ARGS__)\n") in runtime
    assert ("#define cudaFuncSetAttribute(a1, ...) hipFuncSetAttribute("
            "reinterpret_cast<const void*>(a1), ##__VA_ARGS__)\n") in runtime
    # a form chosen by the number of arguments: dispatched by count
    assert "#define CUDAPORT_SHIM_cudaEventCreate_2(a1, a2, ...) hipEventCreateWithFlags(a1, a2)\n" \
        in runtime
    assert "#define CUDAPORT_SHIM_cudaEventCreate_1(...) hipEventCreate(__VA_ARGS__)\n" in runtime
    # warp lane masks widened as the translation widens them
    assert ("#define __shfl_down_sync(a1, ...) __shfl_down_sync(cudaport_shim_lane_mask(a1), "
            "##__VA_ARGS__)\n") in runtime
    assert "#define __syncwarp(...) __syncwarp(__VA_OPT__(cudaport_shim_lane_mask(__VA_ARGS__)))\n" \
        in runtime
    # a device function HIP lacks: the portable header's, copied in
    assert "#define __vadd4 cudaport_vadd4\n" in runtime
    assert "CUDAPORT_PORTABLE_SIMD" in runtime
    # CUDA's version and compiler macros the project tests
    assert "#define CUDART_VERSION 13000\n" in runtime
    assert "#define __CUDACC__ __HIPCC__\n" in runtime
    # `register`, which C++17 removed, accepted as nvcc accepts it
    assert '#pragma clang diagnostic ignored "-Wregister"\n' in runtime
    # a case label of a constant HIP lacks: a value no HIP enumerator takes
    assert "#define CUFFT_MISSING_DEPENDENCY 2147418112\n" in runtime
    # rocThrust must not see __CUDACC__ (it would take itself for nvcc's Thrust)
    wrapper = shim.files["thrust/reduce.h"].decode()
    assert ('#pragma push_macro("__CUDACC__")\n#undef __CUDACC__\n'
            "#include_next <thrust/reduce.h>\n") in wrapper
    assert wrapper.endswith('#pragma pop_macro("__CUDACC__")\n')
    # Thrust's CUDA back end by its name: rocThrust's device back end
    assert "namespace thrust { namespace cuda = ::thrust::hip; }\n" in wrapper


def test_only_the_names_the_project_uses(tmp_path):
    shim, _ = shim_of(tmp_path, {"a.cu": "#include <cuda_runtime.h>\n"
                                 "void f(float** p) { cudaMalloc(p, 4); }\n"})
    runtime = shim.files["cuda_runtime.h"].decode()
    defines = [line for line in runtime.splitlines() if line.startswith("#define ")
               and not line.startswith("#define CUDAPORT_SHIM_CUDA_RUNTIME_H")]
    assert defines == ["#define cudaMalloc hipMalloc"]
    assert sorted(shim.files) == ["cuda_runtime.h"]


def test_regenerating_is_byte_identical_and_removes_what_is_no_longer_needed(tmp_path):
    root = make(tmp_path, {"prog.cu": PROGRAM})
    out = tmp_path / "shim"
    written, removed = write(generate([str(root)], Options()), out)
    assert written and not removed
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    written, removed = write(generate([str(root)], Options()), out)
    assert written == [] and removed == []
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    # the project stops using cuFFT and thrust: their headers go
    (root / "prog.cu").write_text("#include <cuda_runtime.h>\nvoid f(float** p) "
                                  "{ cudaMalloc(p, 4); }\n")
    written, removed = write(generate([str(root)], Options()), out)
    assert sorted(removed) == ["cub/cub.cuh", "cuda_bf16.h", "cudaport_shim/cub.h",
                               "cudaport_shim/cufft.h", "cufft.h", "thrust/device_vector.h",
                               "thrust/reduce.h"]
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) \
        == ["cuda_runtime.h"]


def test_a_file_it_did_not_generate_is_never_overwritten(tmp_path):
    root = make(tmp_path, {"a.cu": "#include <cuda_runtime.h>\nint x;\n"})
    out = tmp_path / "shim"
    out.mkdir()
    (out / "cuda_runtime.h").write_text("// mine\n")
    with pytest.raises(ShimError, match="not generated by cudaport shim"):
        write(generate([str(root)], Options()), out)
    assert (out / "cuda_runtime.h").read_text() == "// mine\n"
    (out / "cuda_runtime.h").unlink()
    (out / "cuda_runtime.h").symlink_to(tmp_path / "elsewhere.h")
    with pytest.raises(ShimError):
        write(generate([str(root)], Options()), out)


def test_nothing_is_written_outside_the_folder(tmp_path):
    root = make(tmp_path, {"a.cu": "#include <cub/../../escape.h>\n#include <cub/cub.cuh>\n"
                           "#include <thrust/../../../escape2.h>\n"
                           "__global__ void k() { cub::WarpReduce<int>* p = nullptr; }\n"})
    out = tmp_path / "shim"
    write(generate([str(root)], Options()), out)
    assert not list(tmp_path.rglob("escape*.h"))
    assert (out / "cub" / "cub.cuh").is_file()
    (out / "cub" / "cub.cuh").unlink()
    (out / "cub").rmdir()
    (tmp_path / "elsewhere").mkdir()
    (out / "cub").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(ShimError, match="symbolic link"):
        write(generate([str(root)], Options()), out)
    assert not list((tmp_path / "elsewhere").iterdir())


def test_what_a_header_cannot_express_needs_a_source_edit(tmp_path):
    shim, root = shim_of(tmp_path, {"k.cu": r"""#include <cuda_runtime.h>
__global__ void k(unsigned* out, float4* v) {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  float4 z = {0};
  out[threadIdx.x] = id;
  v[0] = z;
}
void run(unsigned* o, float4* v) { k<< <1, 32>> >(o, v); }
void (*fp)(int) = nullptr;
typedef cudaError_t (*Create)(cudaEvent_t*, unsigned);
cudaError_t make(cudaEvent_t* e) { return cudaEventCreate(e, cudaEventDefault); }
Create create = cudaEventCreateWithFlags;
"""})
    needs = [(f.line, f.message) for f in shim.findings if f.code == "CP701"]
    lines = [line for line, _ in needs]
    assert 4 in lines and 5 in lines and 9 in lines, needs
    assert all("`cudaport translate " in m and "k.cu` rewrites it" in m for _, m in needs)
    assert any("inline PTX" in m for _, m in needs)
    assert any("braced initializer" in m for _, m in needs)
    assert any("spaced chevrons" in m for _, m in needs)
    assert shim.needs_edit() and list(shim.needs_edit()) == [f"{root}/k.cu"]


def test_nothing_needs_an_edit_in_a_branch_the_shim_build_never_compiles(tmp_path):
    """hipcc defines no __CUDA_ARCH__, and the shim defines CUDA's version macros as
    CUDA 13's: PTX under a switch the project defines only for sm_80 (ggml's
    CP_ASYNC_AVAILABLE) or under a gate for CUDA 10 is never compiled there."""
    shim, _ = shim_of(tmp_path, {
        "common.cuh": "#pragma once\n#define CC_AMPERE 800\n"
                      "#if !defined(MY_USE_HIP) && __CUDA_ARCH__ >= CC_AMPERE\n"
                      "#define ASYNC_OK\n#endif\n",
        "k.cu": '#include <cuda_runtime.h>\n#include "common.cuh"\n'
                "__global__ void k(unsigned* o) {\n"
                "#ifdef ASYNC_OK\n"
                '  asm volatile("cp.async.wait_all;");\n'
                "#endif\n"
                "#if CUDART_VERSION < 11000\n"
                '  asm volatile("mov.u32 %0, %%laneid;" : "=r"(o[0]));\n'
                "#endif\n"
                '  asm volatile("mov.u32 %0, %%laneid;" : "=r"(o[1]));\n'
                "}\n"})
    assert [f.line for f in shim.findings if f.code == "CP701"] == [10]


def test_no_note_that_hipcc_reads_a_version_macro_the_shim_defines_as_0(tmp_path):
    """The translation's CP215 says hipcc reads CUDART_VERSION as 0 and which branch it
    then takes (in a file with HIP branches of its own, as ggml's common.cuh); the shim
    defines it as CUDA 13's, so that note is not about the shim's build."""
    files = {"k.cu": "#include <cuda_runtime.h>\n#if defined(GGML_USE_HIP)\nint h;\n#endif\n"
                     "#if CUDART_VERSION >= 12000\nint a = 1;\n#endif\n"
                     "#if !defined(GGML_USE_HIP) && CUDART_VERSION < 11000\nint c;\n#endif\n"}
    root = make(tmp_path, files)
    checked = CliRunner().invoke(cli_main, ["check", str(root / "k.cu")])
    assert [line for line in checked.output.splitlines() if " CP215 " in line
            and "on CUDART_VERSION:" in line] and "k.cu:5:" in checked.output \
        and "k.cu:8:" in checked.output, checked.output
    shim = generate([str(root)], Options())
    assert "#define CUDART_VERSION 13000\n" in shim.files["cuda_runtime.h"].decode()
    assert not [f for f in shim.findings if f.code == "CP215"], \
        [(f.line, f.message) for f in shim.findings]


def test_a_probed_library_hip_lacks_is_left_out_so_the_fallback_is_built(tmp_path):
    """llm.c's mfu.h: NVML is optional (`__has_include(<nvml.h>)`); ROCm SMI, which the
    translation maps it to, has few of its calls. The shim leaves nvml.h out, the probe
    finds nothing, the `#else` is built, and its NVML code is not reported."""
    probe = ("#if __has_include(<{h}>)\n#define USE_{n} 1\n#include <{h}>\n#else\n"
             "#define USE_{n} 0\n#endif\n")
    shim, _ = shim_of(tmp_path, {"mfu.h": "#ifndef MFU_H\n#define MFU_H\n"
                                 + probe.format(h="nvml.h", n="NVML")
                                 + probe.format(h="cublas_v2.h", n="BLAS") +
                                 "#if USE_NVML\ninline void f() { nvmlDevice_t d; nvmlInit(); "
                                 "nvmlDeviceGetHandleByIndex(0, &d); }\n#endif\n"
                                 "#if USE_BLAS\ninline void g(cublasHandle_t* h) { "
                                 "cublasCreate(h); }\n#endif\n#endif\n"})
    assert "nvml.h" not in shim.files and "cublas_v2.h" in shim.files
    assert "#define cublasCreate hipblasCreate\n" in shim.files["cudaport_shim/cublas.h"].decode()
    assert not [f for f in shim.findings if f.severity == "error"], \
        [(f.code, f.message) for f in shim.findings]


THRUST_POLICY = r"""#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/system/cuda/execution_policy.h>
#ifdef __CUDACC__
#define HD __host__ __device__
#endif
float sum(thrust::device_vector<float>& v, cudaStream_t s) {
  return thrust::reduce(thrust::cuda::par.on(s), v.begin(), v.end())
      + thrust::reduce(thrust::cuda::par, v.begin(), v.end());
}
"""


def test_thrust_cuda_is_the_targets_device_back_end(tmp_path):
    """thrust::cuda (Thrust's CUDA back end) is an alias of rocThrust's thrust::hip, also
    where the project includes thrust/system/cuda/...: the shim maps that header to
    thrust/system/hip/... inside the wrapper (rocThrust's own thrust/system/cuda, which
    would declare a thrust::cuda of its own, is never read), and hides __CUDACC__ around
    it as around every thrust header; nothing needs a source edit."""
    shim, _ = shim_of(tmp_path, {"policy.cu": THRUST_POLICY})
    alias = "namespace thrust { namespace cuda = ::thrust::hip; }\n"
    system = shim.files["thrust/system/cuda/execution_policy.h"].decode()
    assert ('#pragma push_macro("__CUDACC__")\n#undef __CUDACC__\n'
            "#ifndef CUDAPORT_SHIM_THRUST_SYSTEM_CUDA_EXECUTION_POLICY_H\n") in system
    assert "#include <thrust/system/hip/execution_policy.h>\n" in system
    assert "#include_next" not in system and alias in system
    assert system.endswith('#pragma pop_macro("__CUDACC__")\n')
    for name in ("thrust/device_vector.h", "thrust/reduce.h"):
        assert "#include_next <" + name + ">\n" in shim.files[name].decode()
        assert alias in shim.files[name].decode()
    assert not [f for f in shim.findings if f.code == "CP701"]
    # a project that does not name thrust::cuda gets no alias
    plain, _ = shim_of(tmp_path / "plain", {"a.cu": THRUST_POLICY.replace(
        "thrust::cuda::par.on(s)", "v.begin()[0]").replace("thrust::cuda::par, ", "")})
    assert all(b"CUDAPORT_SHIM_THRUST_BACKEND" not in data for data in plain.files.values())


@pytest.mark.slow
def test_thrust_cuda_compiles_to_object_code_with_the_shim(tmp_path):
    """ROCm 7.2's hipcc, object code: thrust::cuda::par through the shim."""
    from conftest import rocm_wrapper

    root = make(tmp_path, {"policy.cu": THRUST_POLICY})
    out = tmp_path / "shim"
    write(generate([str(root)], Options()), out)
    proc = subprocess.run([str(rocm_wrapper("7.2")), "-x", "hip", "--offload-arch=gfx90a",
                           "-std=c++17", "-I", str(out), "-include", "cuda_runtime.h", "-c",
                           str(root / "policy.cu"), "-o", str(tmp_path / "policy.o")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert os.path.getsize(tmp_path / "policy.o") > 0


def test_libcudacxx_standard_names_and_headers(tmp_path):
    shim, _ = shim_of(tmp_path, {"a.cu": "#include <cuda/std/cmath>\n#include <cuda/std/limits>\n"
                                 "__global__ void k(float* x) { x[0] = cuda::std::sqrt(x[1]) + "
                                 "cuda::std::numeric_limits<float>::max(); }\n"})
    assert "#include <cmath>\n" in shim.files["cuda/std/cmath"].decode()
    assert "namespace cuda { namespace std { using namespace ::std; } }\n" \
        in shim.files["cuda_runtime.h"].decode()
    assert not [f for f in shim.findings if f.code == "CP701"]


def test_a_templated_name_used_without_a_call_needs_an_edit(tmp_path):
    shim, _ = shim_of(tmp_path, {"k.cu": """#include <cuda_runtime.h>
__constant__ float c[2];
void set(const float* h) { cudaMemcpyToSymbol(c, h, 8); }
auto copy = &cudaMemcpyToSymbol<float[2]>;
"""})
    assert any(f.code == "CP701" and f.line == 4 and "other than in a call" in f.message
               for f in shim.findings), [(f.code, f.line, f.message) for f in shim.findings]


def test_an_argument_the_preprocessor_would_split_needs_an_edit(tmp_path):
    shim, _ = shim_of(tmp_path, {"k.cu": """#include <cuda_runtime.h>
template <typename T, int N> __global__ void k(T* x) { x[N] = 0; }
void set() {
  cudaFuncSetAttribute(k<float, 4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
  cudaFuncSetAttribute((k<float, 8>), cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
}
"""})
    split = [f for f in shim.findings if f.code == "CP701" and "splits" in f.message]
    assert [f.line for f in split] == [4]
    assert "with 3 argument(s) that the preprocessor splits into 4" in split[0].message


def test_a_project_declaration_of_a_mapped_name_is_reported(tmp_path):
    shim, _ = shim_of(tmp_path, {
        "mine.h": "namespace mine { int cudaMalloc(void** p, int n); }\n",
        "a.cu": '#include <cuda_runtime.h>\n#include "mine.h"\n'
                "void f(float** p) { cudaMalloc(p, 4); mine::cudaMalloc((void**)p, 4); }\n"})
    own = [f for f in shim.findings if f.code == "CP702"]
    assert {(f.identifier, f.path.rsplit("/", 1)[-1], f.line) for f in own} \
        == {("cudaMalloc", "mine.h", 1), ("cudaMalloc", "a.cu", 3)}
    assert all("needs a source edit" in f.message for f in own)


def test_hip_version_decides_the_forms(tmp_path):
    files = {"a.cu": "#include <cuda_runtime.h>\n__global__ void k(float* v) "
                     "{ v[0] = __shfl_down_sync(0xffffffff, v[0], 1); }\n"}
    old, _ = shim_of(tmp_path / "a", files, target_version="5.2")
    runtime = old.files["cuda_runtime.h"].decode()
    assert "#define __shfl_down_sync(a1, a2, ...) __shfl_down(a2, ##__VA_ARGS__)\n" in runtime
    assert b"for HIP 5.2" in old.files["cuda_runtime.h"]
    mid, _ = shim_of(tmp_path / "b", files, target_version="6.4")
    runtime = mid.files["cuda_runtime.h"].decode()
    assert runtime.index("#define HIP_ENABLE_WARP_SYNC_BUILTINS") < runtime.index(
        "#include <hip/hip_runtime.h>")


def test_cli_writes_prints_the_build_lines_and_checks(tmp_path):
    root = make(tmp_path, {"prog.cu": PROGRAM, "inner/shim/keep.txt": "x"})
    out = root / "inner" / "shim"  # inside the project: not read as part of it
    runner = CliRunner()
    first = runner.invoke(cli_main, ["shim", str(root), "--out", str(out)])
    assert first.exit_code == 0, first.output + first.stderr
    assert f"hipcc -I {out.resolve()} -include cuda_runtime.h -x hip" in first.stderr
    assert "CUDAPORT_SHIM_FLAGS := " in first.stderr and "enable_language(HIP)" in first.stderr
    assert (out / "cuda_runtime.h").is_file() and (out / "keep.txt").read_text() == "x"
    again = runner.invoke(cli_main, ["shim", str(root), "--out", str(out), "--check"])
    assert again.exit_code == 0, again.stderr
    (out / "cufft.h").write_bytes((out / "cufft.h").read_bytes() + b"// edited\n")
    stale = runner.invoke(cli_main, ["shim", str(root), "--out", str(out), "--check", "-q"])
    assert stale.exit_code == 1 and "cufft.h: not up to date" in stale.stderr
    missing = runner.invoke(cli_main, ["shim", str(tmp_path / "nope"), "--out", str(out)])
    assert missing.exit_code == 2 and "no such file or folder" in missing.stderr
    assert "nothing written" in missing.stderr
    (root / "bad.cu").write_text("#include <cuda_runtime.h>\n__global__ void k(unsigned* o) "
                                 '{ asm("mov.u32 %0, %%laneid;" : "=r"(o[0])); }\n')
    failing = runner.invoke(cli_main, ["shim", str(root), "--out", str(out), "-q"])
    assert failing.exit_code == 1 and "CP701 error: needs a source edit" in failing.output


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_the_unmodified_program_compiles_to_object_code_with_the_shim(tmp_path, version):
    """ROCm 7.2's and 6.4's hipcc, object code: the program above, unmodified, through the
    shim made for that version (6.4: warp functions need HIP_ENABLE_WARP_SYNC_BUILTINS)."""
    from conftest import rocm_wrapper

    root = make(tmp_path, {"prog.cu": PROGRAM})
    out = tmp_path / "shim"
    write(generate([str(root)], Options(target_version=version)), out)
    proc = subprocess.run([str(rocm_wrapper(version)), "-x", "hip", "--offload-arch=gfx90a",
                           "-std=c++17", "-I", str(out), "-include", "cuda_runtime.h", "-c",
                           str(root / "prog.cu"), "-o", str(tmp_path / "prog.o")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert os.path.getsize(tmp_path / "prog.o") > 0


@pytest.mark.slow
def test_verify_and_verify_build_accept_the_shim(tmp_path):
    """`verify --shim DIR` compiles the sources unmodified through the shim (object code),
    `verify --build --shim DIR` runs the project's own Makefile on them (only the Makefile
    ported, the sources as they are), both with ROCm 7.2."""
    from conftest import rocm_wrapper

    rocm_wrapper("7.2")
    root = make(tmp_path, {
        "saxpy.cu": "#include <cstdio>\n__global__ void saxpy(float a, float* x, float* y, int n)"
                    " { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] += a * x[i];"
                    " }\nint main() { float* x; cudaMalloc(&x, 1024); "
                    "saxpy<<<1, 256>>>(2.0f, x, x, 256); cudaDeviceSynchronize(); "
                    "printf(\"%s\\n\", cudaGetErrorString(cudaGetLastError())); cudaFree(x); }\n",
        "Makefile": "NVCC = nvcc\nsaxpy: saxpy.cu\n\t$(NVCC) -O2 -arch=sm_70 saxpy.cu -o saxpy\n"})
    out = tmp_path / "shim"
    runner = CliRunner()
    made = runner.invoke(cli_main, ["shim", str(root), "--out", str(out), "-q"])
    assert made.exit_code == 0, made.output
    compiled = runner.invoke(cli_main, ["verify", "--rocm", "7.2", "--shim", str(out),
                                        str(root / "saxpy.cu")])
    assert compiled.exit_code == 0, compiled.output
    assert "1 compiled, 0 failed" in compiled.output and "unmodified through the shim" \
        in compiled.output
    built = runner.invoke(cli_main, ["verify", "--build", "--shim", str(out),
                                     str(root)])
    assert built.exit_code == 0, built.output
    assert ": built (make" in built.output
    assert b"cudaMalloc" in (root / "saxpy.cu").read_bytes()  # the input is untouched


@pytest.mark.slow
def test_a_host_file_compiles_with_g_plus_plus_through_the_shim(tmp_path):
    """A .cpp file of the project that a host compiler builds (g++, against HIP's headers
    with __HIP_PLATFORM_AMD__, as HIP documents) includes cuda_runtime.h too: what only
    HIP's compiler reads (hip_bf16.h, the half/bfloat16 portable functions, device
    helpers) is kept from it."""
    from conftest import hip_headers_for_gxx

    root = make(tmp_path, {"prog.cu": PROGRAM,
                           "host.cpp": "#include <cuda_runtime.h>\n#include <cstdio>\n"
                                       "int main() { float* p; cudaMalloc(&p, 4); printf(\"%s\\n\","
                                       " cudaGetErrorString(cudaGetLastError())); cudaFree(p); }\n"})
    out = tmp_path / "shim"
    write(generate([str(root)], Options()), out)
    proc = subprocess.run(["g++", "-std=c++17", "-D__HIP_PLATFORM_AMD__", "-I", str(out), "-I",
                           str(hip_headers_for_gxx(tmp_path)), "-c", str(root / "host.cpp"),
                           "-o", str(tmp_path / "host.o")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
