"""Every public header of the CUDA toolkit is mapped or reported (issue 16), each header
family with its code, and libcu++ names after ``cuda::`` are reported (CP110).

The walk over the toolkit needs nvcc 13's include folder; the family cases need nothing.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from cudaport.findings import CODES
from cudaport.options import Options
from cudaport.rules.compiled import get_compiled
from cudaport.translate.pipeline import translate_source
from cudaport.run.verify import rocm_dir
from conftest import compile_hip

ROOT = Path(__file__).resolve().parent.parent
ROCM = rocm_dir("7.2")
ROCM64 = rocm_dir("6.4")

_spec = importlib.util.spec_from_file_location("gen_cccl_rules", ROOT / "tools" / "gen_cccl_rules.py")
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)

CUDA_INCLUDE = gen.cuda_include()
needs_toolkit = pytest.mark.skipif(CUDA_INCLUDE is None or not (CUDA_INCLUDE / "cccl").is_dir(),
                                   reason="no CUDA 13 toolkit (nvcc) on this machine")


def _compiled(version: str = "7.2"):
    return get_compiled(Options(target="hip", target_version=version))


@needs_toolkit
def test_every_public_toolkit_header_is_mapped_or_reported():
    compiled = _compiled()
    headers = gen.public_headers(CUDA_INCLUDE)
    assert len(headers) > 400  # toolkit, CUB, Thrust, libcu++, nv/target
    unruled, silent = [], []
    for name in headers:
        r = compiled.header(name.encode())
        if r is None:
            unruled.append(name)
        elif r.status not in ("converted", "same", "drop"):
            code = r.entry.code or "CP106"
            if CODES[code].severity != "error":
                silent.append(name)
    assert unruled == [] and silent == []


# Libraries ROCm 6.4 has that its root (tools/setup-rocm.sh 6.4) leaves out: 6.4's RCCL
# would pull HIP 5 packages in, and roctx, rocWMMA and ROCm SMI are checked on 7.2.
NOT_IN_ROCM64 = ("rccl", "roctracer", "rocwmma", "rocm_smi")


@needs_toolkit
@pytest.mark.parametrize("version, root", [("7.2", ROCM), ("6.4", ROCM64)])
def test_every_mapped_header_exists_in_that_rocm(version, root):
    """A header is mapped only to a file the ROCm of the target version ships (for 6.4,
    headers only 7.2 ships are dated 7.2 and reported)."""
    if not (root / "usr/include/hipcub").is_dir():
        pytest.skip(f"no ROCm {version} headers (tools/setup-system.sh)")
    compiled = _compiled(version)
    include = root / "usr/include"
    missing = []
    for name in gen.public_headers(CUDA_INCLUDE):
        r = compiled.header(name.encode())
        to = r.replacement.decode() if r.status == "converted" else ""
        if version == "6.4" and to.split("/")[0] in NOT_IN_ROCM64:
            continue
        if r.status == "converted" and not (include / r.replacement.decode()).is_file():
            if r.replacement.decode() != "stdint.h" or not Path("/usr/include/stdint.h").is_file():
                # (a C++ standard header: the root's standard library has it)
                if not list(include.glob(f"c++/*/{r.replacement.decode()}")):
                    missing.append((name, r.replacement.decode()))
    assert missing == []


@needs_toolkit
def test_generated_pack_is_current():
    """rules/hip/cccl.yaml is what the generator writes from the installed headers."""
    if not (ROCM / "usr/include/hipcub").is_dir() or not (ROCM64 / "usr/include/hipcub").is_dir():
        pytest.skip("no ROCm 7.2 and 6.4 headers")
    rules, names = gen.build(CUDA_INCLUDE, ROCM / "usr/include", ROCM64 / "usr/include")
    assert (ROOT / "rules/hip/cccl.yaml").read_text() == rules
    assert (ROOT / "rules/hip/libcudacxx-names.txt").read_text() == names


FAMILIES = [
    # include line, code (None: translated), what the translation includes instead
    ("cub/block/block_reduce.cuh", None, "hipcub/hipcub.hpp"),
    ("cub/device/device_scan.cuh", None, "hipcub/hipcub.hpp"),
    ("cub/util_ptx.cuh", None, "hipcub/hipcub.hpp"),
    ("cub/config.cuh", None, "hipcub/hipcub.hpp"),
    ("thrust/sort.h", None, "thrust/sort.h"),
    ("thrust/system/cuda/execution_policy.h", None, "thrust/system/hip/execution_policy.h"),
    ("sm_61_intrinsics.h", None, "hip/hip_runtime.h"),
    ("cub/agent/agent_reduce.cuh", "CP114", None),
    ("cub/detail/type_traits.cuh", "CP114", None),
    ("cuda/std/atomic", "CP110", None),
    ("cuda/std/__atomic/api/owned.h", "CP110", None),
    ("cuda/atomic", "CP110", None),
    ("cuda/barrier", "CP110", None),
    ("nv/target", "CP111", None),
    ("mma.h", None, "rocwmma/rocwmma.hpp"),  # rocWMMA: tests/test_wmma.py
    ("cutlass/gemm/device/gemm.h", "CP113", None),
    ("cute/tensor.hpp", "CP113", None),
    ("cupti.h", "CP106", None),
    ("nvtx3/nvToolsExt.h", None, "roctracer/roctx.h"),  # NVTX is roctx on HIP
    ("cuda_awbarrier.h", "CP106", None),  # (cuda_pipeline.h: tests/test_async_copy.py)
    ("cooperative_groups/reduce.h", None, "hip/hip_cooperative_groups.h"),  # inline: definitions
]


@pytest.mark.parametrize("header,code,to", FAMILIES, ids=[f[0] for f in FAMILIES])
def test_header_family_is_mapped_or_reported(header, code, to):
    src = f"#include <{header}>\n__global__ void k() {{}}\n"
    if code == "CP110":  # (a libcu++ include the file uses: else it is dropped, CP116)
        src += "__device__ cuda::atomic<int>* p;\n"
    r = translate_source(src, target_version="6.4")
    codes = [f.code for f in r.findings]
    if code is None:
        assert f"#include <{to}>".encode() in r.output
        assert not [c for c in codes if CODES[c].severity == "error"]
    else:
        assert set(codes) == {code} and r.findings[0].line == 1
        assert ";" in r.findings[0].message  # names what to use instead
        assert f"#include <{header}>".encode() in r.output


NAMES = [
    ("  int w = CUB_WARP_THREADS(0);", "CP114", "HIPCUB_DEVICE_WARP_THREADS"),
    ("  NV_IF_TARGET(NV_IS_DEVICE, (x[0] = 1;));", "CP111", "__HIP_DEVICE_COMPILE__"),
    ("  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 32, 8, 16, float> c;", "CP112",
     "m16n16k16"),
    ("  cutlass::half_t h;", "CP113", "composable_kernel"),
    ("  cuda::atomic_ref<int, cuda::thread_scope_device> r(x[0]);", "CP110", "HIP atomics"),
    ("  cuda::std::variant<int, float> m;", "CP110", "std::"),  # (optional ports: test_libcudacxx_std)
]


@pytest.mark.parametrize("line,code,hint", NAMES, ids=[n[1] + ":" + n[0].split("(")[0].strip()
                                                       for n in NAMES])
def test_ecosystem_names_are_reported_with_what_to_use(line, code, hint):
    r = translate_source(f"__global__ void k(int *x) {{\n{line}\n}}\n")
    found = [f for f in r.findings if f.code == code]
    assert found and all(f.line == 2 for f in found)
    assert hint in found[0].message


@pytest.mark.parametrize("line", [
    "  auto s = at::cuda::getCurrentCUDAStream();",      # PyTorch's namespace
    "  thrust::sort(thrust::cuda::par, x, x + 4);",      # Thrust's policy namespace
    "  // cuda::std::atomic would be nicer",            # comment
    '  const char *s = "cuda::atomic_ref";',             # string
    "  obj.cuda::barrier();",                            # member access
    "  auto d = cuda::myproject_helper(x);",             # not a libcu++ name
])
def test_cuda_namespace_that_is_not_libcudacxx_is_not_reported(line):
    r = translate_source(f"void f(int *x) {{\n{line}\n}}\n")
    assert [f for f in r.findings if f.code == "CP110"] == []


def test_code_key_must_name_a_cp1xx_code(tmp_path):
    from cudaport.rules.loader import layer_user_files, load_table
    from cudaport.rules.schema import RuleError

    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"identifiers:\n  fooBar: {code: CP999}\n")
    with pytest.raises(RuleError, match="not a registered CP1xx code"):
        layer_user_files(load_table("hip"), [bad], [bad.read_bytes()])


@pytest.mark.slow
def test_mapped_cub_and_thrust_includes_compile_on_rocm_6_4(tmp_path):
    """The translated includes of every CUB family and Thrust header compile (hipcc 6.4)."""
    compiled = _compiled()
    lines = sorted({f"#include <{h.replacement.decode()}>"
                    for name, h in compiled.headers.items()
                    if name.startswith((b"cub/", b"thrust/")) and h.status in ("converted", "same")
                    and not name.startswith(b"thrust/system/")})
    src = "\n".join(lines) + "\n__global__ void k(int *x) { x[0] = hipcub::Max()(1, 2); }\n"
    path = tmp_path / "t.hip"
    path.write_text(src)
    compile_hip(path, "rocm")


def test_a_project_folder_named_like_a_family_is_not_reported():
    """Folder entries follow the toolkit's folders: a project's own "cuda/kernels.cuh"
    (exllamav2 has such a folder) is no libcu++ header."""
    r = translate_source('#include "cuda/cache.cuh"\n#include "cub_helpers/x.cuh"\n')
    assert r.findings == []


def test_thrust_cuda_policies_become_the_hip_backend():
    src = ("void f(int *p, cudaStream_t s) {\n"
           "  thrust::sort(thrust::cuda::par.on(s), p, p + 4);  // thrust::cuda::par\n"
           "  thrust::sort(thrust :: cuda :: par_nosync, p, p + 4);\n}\n")
    out = translate_source(src).text
    assert "thrust::hip::par.on(s)" in out and "// thrust::cuda::par" in out
    assert "thrust :: hip :: par_nosync" in out
    assert translate_source(out).text == out
