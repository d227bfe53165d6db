"""Architecture and version gates (cudaport/preprocessor/gates.py, rules/hip/facts/
gates.yaml): in a file with no HIP branches of its own, the HIP build takes the branch
whose features every AMD GPU has, keeps the fallback where it lacks them, warns where they
differ, and never compiles a placeholder in silence. One decision per threshold of the
table, from small inputs; the slow tests compile their translations with ROCm 7.2 and 6.4."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import compile_object
from cudaport import Options, translate_bytes
from cudaport.preprocessor import gates
from cudaport.rules.compiled import get_compiled

FACTS = gates.facts(get_compiled(Options()))
ARCH_GATE = "|| defined(__HIP_DEVICE_COMPILE__)"
VERSION_GATE = "|| defined(__HIP_PLATFORM_AMD__)"


def run(src: str, version: str = "7.2", main_header: bool = False):
    return translate_bytes(src.encode(), Options(target_version=version,
                                                 insert_main_header=main_header), "k.cu")


def codes(result) -> list[tuple[int, str]]:
    return sorted((f.line, f.code) for f in result.findings
                  if f.code in ("CP215", "CP223", "CP224", "CP225", "CP226"))


# ---------------------------------------------------------------------------------------
# The table

def test_the_table_gives_every_feature_for_every_amd_gpu():
    assert FACTS.targets == ("gfx90a", "gfx942", "gfx950", "gfx11", "gfx12")
    for f in FACTS.features.values():
        assert [g for g, _ in f.amd] == list(FACTS.targets)
        assert {s for _, s in f.amd} <= {"yes", "no", "differs"}
    rows = [r.value for r in FACTS.arch]
    assert rows == sorted(rows) and rows[0] == 100
    assert {f for r in FACTS.arch for f in r.features} | {FACTS.specific_feature} \
        == set(FACTS.features)


@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_the_version_rows_name_api_the_rules_know(version):
    # the `lacks` lists of gates.yaml are the rule tables' answer at the HIP version
    import yaml

    data = yaml.safe_load((Path(__file__).parent.parent / "rules" / "hip" / "facts" /
                           "gates.yaml").read_text())
    compiled = get_compiled(Options(target_version=version))
    for value, row in data["versions"].items():
        lacking = set()
        for name in row["names"]:
            r = compiled.identifiers.get(name.encode())
            assert r is not None, (value, name)
            if r.status in gates.LACKING:
                lacking.add(name)
        assert lacking == set(row.get("lacks") or ()) | (
            {"cudaLaunchKernelEx"} if version == "6.4" and value == 12000 else set()), value


# ---------------------------------------------------------------------------------------
# One decision per architecture threshold

HEADERS = ("#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n#include <cuda_fp8.h>\n"
           "#include <cstdio>\n__global__ void child() {}\n")

# threshold -> (the body of the branch gated on it, the decision, the finding)
ARCH_CASES = {
    110: ("return atomicAdd(p, 1);", "newest", "CP223"),
    120: ("return __all(p[0]);", "newest", "CP223"),
    130: ("return (int)__hiloint2double(p[0], p[1]);", "newest", "CP223"),
    200: ('printf("%d\\n", p[0]); return p[1];', "newest", "CP223"),
    300: ("return __shfl_xor(p[0], 1);", "newest", "CP223"),
    320: ("return __funnelshift_l(p[0], p[1], 3);", "newest", "CP223"),
    350: ("return __ldg(p);", "newest", "CP223"),
    370: ("return p[0] + 1;", "newest", "CP223"),
    500: ("return p[0] + 1;", "newest", "CP223"),
    520: ("return p[0] + 1;", "newest", "CP223"),
    530: ("return __half2float(__hadd(__float2half(f[0]), __float2half(f[1])));", "newest", "CP223"),
    600: ("return atomicAdd_system(p, 1);", "newest", "CP223"),
    610: ("return __dp4a(p[0], p[1], p[2]);", "newest", "CP223"),
    620: ("return p[0] + 1;", "newest", "CP223"),
    # (nothing in the branch shows which of Volta's features it uses: independent thread
    # scheduling, which AMD GPUs lack, keeps the pre-Volta branch, with a warning)
    700: ("return p[0];", "fallback", "CP224"),
    720: ("return p[0];", "newest", "CP224"),  # (8-bit WMMA differs on gfx942/gfx950)
    750: ("return p[0];", "fallback", "CP223"),  # (mma.sync PTX, 1-bit WMMA: none of it)
    800: ("__nv_bfloat16 b = __float2bfloat16(f[0]);\n  return (int)__bfloat162float(__hadd(b, b));",
          "newest", "CP223"),
    860: ("return p[0] + 1;", "newest", "CP223"),
    870: ("return p[0] + 1;", "newest", "CP223"),
    # (CUDA's OCP FP8 is host-only in gfx942's device code: one GPU lacks it)
    890: ("__nv_fp8_e4m3 x(f[0]);\n  return (int)float(x);", "fallback", "CP224"),
    900: ("return p[0];", "fallback", "CP224"),  # (clusters no, dependent launch differs)
    1000: ("return p[0];", "fallback", "CP224"),  # (FP4 yes, tensor memory no)
    1010: ("return p[0] + 1;", "newest", "CP223"),
    1030: ("return p[0] + 1;", "newest", "CP223"),
    1100: ("return p[0] + 1;", "newest", "CP223"),
    1200: ("return p[0] + 1;", "newest", "CP223"),
    1210: ("return p[0] + 1;", "newest", "CP223"),
    1300: ("return p[0];", "fallback", "CP223"),  # (newer than the table knows)
}


def arch_case(threshold: int) -> str:
    body, _, _ = ARCH_CASES[threshold]
    return (f"__device__ int probe_{threshold}(int* p, float* f) {{\n"
            f"#if __CUDA_ARCH__ >= {threshold}\n  {body}\n#else\n  return -1;\n#endif\n}}\n")


def test_every_threshold_of_the_table_has_a_case():
    assert set(ARCH_CASES) | {100} == {r.value for r in FACTS.arch} | {1300}


@pytest.mark.parametrize("threshold", sorted(ARCH_CASES))
def test_an_architecture_gate_takes_the_branch_the_target_has_the_features_of(threshold):
    _, outcome, code = ARCH_CASES[threshold]
    r = run(HEADERS + arch_case(threshold))
    gate = f"#if (__CUDA_ARCH__ >= {threshold}) {ARCH_GATE} /* cudaport: HIP takes"
    assert (gate in r.text) == (outcome == "newest"), r.text
    if outcome != "newest":
        assert f"#if __CUDA_ARCH__ >= {threshold}\n" in r.text
    assert [c for _, c in codes(r)] == [code], r.findings
    message = next(f.message for f in r.findings if f.code == code)
    assert ("the HIP build takes the branch" in message) == (outcome == "newest")
    assert run(r.text).text == r.text  # (the file now has a HIP branch of its own)


def test_device_code_takes_its_branch_in_the_device_pass_only():
    # `#ifdef __CUDA_ARCH__` is nvcc's device pass: hipcc's is __HIP_DEVICE_COMPILE__, and
    # the host pass keeps the host branch (threshold 100 of the table)
    src = ("__host__ __device__ int lane(int i) {\n#ifdef __CUDA_ARCH__\n  return threadIdx.x + i;\n"
           "#else\n  return i;\n#endif\n}\n__host__ __device__ int host(int i) {\n"
           "#ifndef __CUDA_ARCH__\n  return -i;\n#else\n  return i;\n#endif\n}\n")
    r = run(src)
    assert "#if (defined(__CUDA_ARCH__)) || defined(__HIP_DEVICE_COMPILE__) /* cudaport" in r.text
    assert "#if (!defined(__CUDA_ARCH__)) && !defined(__HIP_DEVICE_COMPILE__) /* cudaport" in r.text
    assert codes(r) == [(2, "CP223"), (9, "CP223")]


def test_a_device_launch_keeps_the_fallback():
    # sm_35's other feature: dynamic parallelism, which AMD GPUs lack
    src = (HEADERS + "__device__ int launch(int* p) {\n#if __CUDA_ARCH__ >= 350\n"
           "  child<<<1, 1>>>();\n  return 0;\n#else\n  return p[0];\n#endif\n}\n")
    r = run(src)
    assert "#if __CUDA_ARCH__ >= 350\n" in r.text
    [found] = [f for f in r.findings if f.code == "CP223"]
    assert found.line == 7 and "kernel launches from device code" in found.message


def test_volta_features_the_branch_shows_take_it_with_the_scheduling_warning_elsewhere():
    src = ("__device__ unsigned peers(int key) {\n#if __CUDA_ARCH__ >= 700\n"
           "  return __match_any_sync(__activemask(), key);\n#else\n  return 1u;\n#endif\n}\n")
    r = run(src)
    assert f"#if (__CUDA_ARCH__ >= 700) {ARCH_GATE}" in r.text
    assert codes(r) == [(2, "CP223")]


def test_pre_volta_branch_for_lockstep_warps_is_kept_with_a_warning():
    # cuCollections: a CAS the pre-Volta branch writes for lockstep warps, and one that
    # spins on another lane's write, which needs independent thread scheduling
    src = ("__device__ int insert(int* slot, int v) {\n#if (__CUDA_ARCH__ < 700)\n"
           "  return atomicCAS(slot, 0, v);\n#else\n  while (atomicCAS(slot, 0, v) != 0) {}\n"
           "  return v;\n#endif\n}\n")
    r = run(src)
    assert "#if (__CUDA_ARCH__ < 700)\n" in r.text
    [warning] = [f for f in r.findings if f.code == "CP224"]
    assert "independent thread scheduling" in warning.message
    assert "lockstep" in warning.message


# ---------------------------------------------------------------------------------------
# Placeholders

MIXBENCH = """\
#include <cuda_fp16.h>
template<class T> inline __device__ T mad(const T a, const T b, const T c){ return a*b+c; }
#if __CUDA_ARCH__ >= 530
template<>
inline __device__ half2 mad(const half2 a, const half2 b, const half2 c){ return __hfma2(a, b, c); }
#else
// a dummy implementations as a workaround
template<>
inline __device__ half2 mad(const half2 a, const half2 b, const half2 c){ return half2(); }
#endif
"""


def test_mixbench_computes_half_arithmetic_not_zeros():
    r = run(MIXBENCH)
    assert f"#if (__CUDA_ARCH__ >= 530) {ARCH_GATE} /* cudaport: HIP takes the branch for " \
           "sm_53 and later, as AMD GPUs have half-precision arithmetic */\n" in r.text
    assert codes(r) == [(3, "CP223")]


@pytest.mark.parametrize("fallback, why", [
    ("  __trap();\n  return 0;", "it stops the program (__trap())"),
    ('  printf("clusters not supported\\n");\n  return -1;', 'it reports "not supported"'),
    ("  return 0;", "it returns only zeros"),
    ("  // stub: never called on these GPUs\n  return -1;", "its comment calls it a stub"),
])
def test_a_placeholder_the_target_compiles_is_reported(fallback, why):
    src = ("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
           "__device__ int rank() {\n#if __CUDA_ARCH__ >= 900\n"
           "  return cg::this_cluster().block_rank();\n#else\n" + fallback + "\n#endif\n}\n")
    r = run(src)
    assert "#if __CUDA_ARCH__ >= 900\n" in r.text  # (AMD GPUs have no clusters)
    [found] = [f for f in r.findings if f.code == "CP225"]
    assert found.line == 6 and why in found.message and "clusters" in found.message
    assert [c for _, c in codes(r)] == ["CP223", "CP225"]


def test_an_empty_kernel_body_is_a_placeholder():
    # cuda-samples' tensor-core samples: the whole kernel under `#if __CUDA_ARCH__ >= 800`
    src = ('__global__ void gemm(float* c) {\n#if __CUDA_ARCH__ >= 750\n'
           '  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, '
           '{%4,%5}, {%6}, {%0,%1,%2,%3};" : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) '
           ': "r"(0), "r"(0), "r"(0));\n#endif\n}\n')
    r = run(src)
    assert "#if __CUDA_ARCH__ >= 750\n" in r.text
    [found] = [f for f in r.findings if f.code == "CP225"]
    assert "an empty function body" in found.message and "inline PTX" in found.message


def test_a_placeholder_in_a_file_with_hip_branches_of_its_own_is_reported_too():
    src = ("#ifdef USE_ROCM\nint rocm;\n#endif\n__device__ int f(int* p) {\n"
           "#if __CUDA_ARCH__ >= 600\n  return atomicAdd_system(p, 1);\n#else\n  return 0;\n"
           "#endif\n}\n")
    r = run(src)
    assert "#if __CUDA_ARCH__ >= 600\n" in r.text  # (left as written: the project's call)
    assert codes(r) == [(5, "CP215"), (7, "CP225")]
    assert "left as written" in next(f.message for f in r.findings if f.code == "CP225")


# ---------------------------------------------------------------------------------------
# Conditions

def test_a_condition_with_a_switch_not_known_is_rewritten_atom_by_atom():
    src = ("__device__ int f(int* p) {\n#if defined(USE_FAST) && __CUDA_ARCH__ >= 600\n"
           "  return atomicAdd_system(p, 1);\n#else\n  return -1;\n#endif\n}\n")
    r = run(src)
    assert ("#if defined(USE_FAST) && (__CUDA_ARCH__ >= 600 || defined(__HIP_DEVICE_COMPILE__)) "
            "/* cudaport") in r.text


@pytest.mark.parametrize("cond", ["!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600",
                                  "__CUDA_ARCH__ == 800", "__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890"])
def test_a_gate_hipcc_already_reads_as_the_table_does_is_left_as_written(cond):
    # jacobi's atomicAdd(double) for GPUs before sm_60; tuning for one NVIDIA GPU
    src = f"#if {cond}\nint a = 1;\n#else\nint a = 2;\n#endif\n"
    r = run(src)
    assert r.text == src
    assert codes(r) == [(1, "CP223")]
    assert "compiles, as written," in r.findings[0].message


def test_arch_specific_features_keep_the_fallback():
    src = ("#ifdef __CUDA_ARCH_FEAT_SM90_ALL\nint wgmma;\n#else\nint plain;\n#endif\n"
           "#if defined(__CUDA_ARCH_SPECIFIC__)\nint specific;\n#endif\n")
    r = run(src)
    assert r.text == src
    assert codes(r) == [(1, "CP223"), (6, "CP223")]
    assert all("arch- and family-specific" in f.message for f in r.findings if f.code == "CP223")


def test_the_architecture_as_a_value_does_not_compile():
    # a branch that reads __CUDA_ARCH__'s value relies on what HIP lacks: hipcc's reading
    # stands (rodinia's dwt2d: SHM_BANKS from __CUDA_ARCH__ in device code, 16 on the host)
    src = ("__device__ int arch() {\n#ifdef __CUDA_ARCH__\n  return __CUDA_ARCH__;\n#else\n"
           "  return 16;\n#endif\n}\n#define ARCH __CUDA_ARCH__\n"
           "__device__ int major() { return __CUDA_ARCH__ / 100; }\n")
    r = run(src)
    assert r.text.startswith("__device__ int arch() {\n#ifdef __CUDA_ARCH__\n")
    assert codes(r) == [(2, "CP224"), (9, "CP226")]
    assert "the value of __CUDA_ARCH__" in r.findings[0].message
    # in a file with HIP branches of its own, the branch stays dead for HIP: no error
    r = run("#ifdef __HIPCC__\nint h;\n#endif\n" + src)
    assert [c for _, c in codes(r)] == ["CP215", "CP226"]


# ---------------------------------------------------------------------------------------
# Version gates: one decision per CUDA version of the table

def version_case(value: int) -> str:
    return (f"int v_{value}() {{\n#if CUDART_VERSION >= {value}\n  return {value};\n#else\n"
            f"  return -1;\n#endif\n}}\n")


VERSION_FALLBACKS = {12030, 12080}  # (conditional graph nodes, batched copies: HIP lacks them)


def test_every_version_of_the_table_has_a_case():
    assert len(FACTS.versions) == 17


@pytest.mark.parametrize("value", [r.value for r in FACTS.versions])
def test_a_version_gate_takes_the_branch_of_the_cuda_whose_api_the_target_has(value):
    r = run(version_case(value))
    newest = value not in VERSION_FALLBACKS
    assert (f"#if (CUDART_VERSION >= {value}) {VERSION_GATE} /* cudaport" in r.text) == newest
    # (12.8's branch: HIP has its FP4 types but not its batched copies: a warning)
    assert [c for _, c in codes(r)] == ["CP224" if value == 12080 else "CP223"]
    message = r.findings[0].message
    assert ("the HIP build takes the branch CUDA takes with CUDA 13.0" in message) == newest
    if not newest:
        assert "HIP 7.2 lacks" in message


def test_the_api_a_version_branch_names_decides_it():
    src = ("#include <cuda_runtime.h>\n#include <cstdio>\nvoid* get(size_t n, cudaStream_t s) {\n"
           "  void* p = nullptr;\n#if CUDART_VERSION >= 11020\n  cudaMallocAsync(&p, n, s);\n#else\n"
           '  printf("stream-ordered allocation not supported\\n");\n#endif\n  return p;\n}\n'
           "void copy(void** d, void** s, size_t* n, size_t k, cudaStream_t st) {\n"
           "#if CUDART_VERSION >= 12080\n  cudaMemcpyBatchAsync(d, s, n, k, nullptr, nullptr, 0, nullptr, st);\n"
           "#else\n  for (size_t i = 0; i < k; ++i) cudaMemcpyAsync(d[i], s[i], n[i], cudaMemcpyDefault, st);\n"
           "#endif\n}\n")
    r = run(src)
    assert f"#if (CUDART_VERSION >= 11020) {VERSION_GATE}" in r.text
    assert "#if CUDART_VERSION >= 12080\n" in r.text
    assert codes(r) == [(5, "CP223"), (13, "CP223")]
    assert "cudaMemcpyBatchAsync" in next(f.message for f in r.findings if f.line == 13)
    assert not [f for f in r.findings if f.code == "CP101"]  # (the batched copy is dead)


# ---------------------------------------------------------------------------------------
# Compiled with ROCm: the translations of the cases above, batched in two files

def _arch_batch() -> str:
    cases = "".join(arch_case(t) for t in sorted(ARCH_CASES))
    return HEADERS + MIXBENCH.split("\n", 1)[1] + cases + (
        "__host__ __device__ int both(int i) {\n#ifdef __CUDA_ARCH__\n  return threadIdx.x + i;\n"
        "#else\n  return i;\n#endif\n}\n__global__ void k(int* p, float* f) {\n"
        + "".join(f"  p[{i}] = probe_{t}(p, f);\n" for i, t in enumerate(sorted(ARCH_CASES)))
        + "  p[0] += both(1);\n}\n")


def _version_batch() -> str:
    return "#include <cuda_runtime.h>\n" + "".join(version_case(r.value) for r in FACTS.versions)


@pytest.mark.slow  # compiles
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_the_translated_cases_compile(tmp_path, version):
    for name, src in (("arch", _arch_batch()), ("versions", _version_batch())):
        out = tmp_path / f"{name}.hip"
        out.write_bytes(run(src, version, main_header=True).output)
        compile_object(out, "gfx942", version)


def test_a_placeholder_under_an_architecture_and_version_gate_is_reported():
    # nvshmem's reducescatter.cuh: the version part HIP has, the sm_90 part (clusters) it
    # lacks: hipcc compiles the assert(0), and CP225 says so whichever dimension is told
    src = ("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
           "__device__ int rank() {\n#if __CUDA_ARCH__ >= 900 && CUDART_VERSION >= 12010\n"
           "  return cg::this_cluster().block_rank();\n#else\n"
           '  assert(0 && "Unsupported on this platform");\n  return 0;\n#endif\n}\n')
    r = run(src)
    [found] = [f for f in r.findings if f.code == "CP225"]
    assert found.line == 6 and "Unsupported" in found.message


def test_a_device_launch_reads_the_same_once_translated():
    """A launch inside `#ifdef __CUDA_ARCH__` (dynamic parallelism, which AMD GPUs lack)
    keeps the gate as written; the translation writes the launch as hipLaunchKernelGGL,
    and a second pass read no launch there and rewrote the gate (a fuzz run's failure on
    nvshmem's proxy_device.cuh with a macro `M(x) x<<<1,1>>>()` inside the branch)."""
    src = ("__global__ void child() {}\n#ifdef __CUDA_ARCH__\n"
           "__device__ void f() { child<<<1, 1>>>(); }\n#endif\n")
    options = Options(target_version="7.2", launch="hip")  # (launches written as calls)
    first = translate_bytes(src.encode(), options, "k.cu")
    assert b"hipLaunchKernelGGL" in first.output and ARCH_GATE.encode() not in first.output
    assert (2, "CP224") in codes(first)
    second = translate_bytes(first.output, options, "k.cu")
    assert second.output == first.output


@pytest.mark.parametrize("number", ["010", "08", "0x10"])
def test_a_version_condition_with_octal_or_invalid_numbers_is_read_without_a_crash(number):
    """A version gate's numbers are read as C reads them: `010` is octal, `08` no number
    (a fuzz run's crash: int(b'010', 0) raised ValueError from gates._decide_version)."""
    src = (f"#if CUDART_VERSION >= 11000 && FLAGS == {number}\n__device__ int f() {{ return 1; }}\n"
           "#else\n__device__ int f() { return 0; }\n#endif\n")
    first = run(src)
    assert run(first.output.decode()).output == first.output
