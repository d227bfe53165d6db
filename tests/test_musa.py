"""The Moore Threads MUSA target: names from the torch_musa facts, the rest reported."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cudaport import Options, translate_bytes
from cudaport.rules import get_compiled
from conftest import EXAMPLES, ROOT

MUSA = Options(target="musa")
# The facts the MUSA packs are generated from live outside the repository (a checkout in
# /work/main or a worktree in /work/wt/NAME); CUDAPORT_REFERENCE points elsewhere.
REFERENCE = next((p for p in (Path(os.environ.get("CUDAPORT_REFERENCE", "/nonexistent")),
                              ROOT.parent / "shared" / "reference",
                              ROOT.parent.parent / "shared" / "reference")
                  if (p / "musa-mapping").is_dir()), Path("/nonexistent"))


def musa(src: str) -> tuple[str, list]:
    result = translate_bytes(src.encode(), MUSA)
    return result.output.decode(), result.findings


def test_vector_add_example():
    """The bundled example against its reviewed MUSA translation (names from the facts)."""
    src = (EXAMPLES / "vector_add" / "vector_add.cu").read_bytes()
    expected = (EXAMPLES / "vector_add" / "expected" / "musa" / "vector_add.mu").read_bytes()
    result = translate_bytes(src, MUSA)
    assert result.output == expected
    assert result.findings == []
    assert translate_bytes(result.output, MUSA).output == result.output  # idempotent
    renamed = {e.replacement for e in result.edits}
    assert renamed == {b"musa_runtime.h", b"musaError_t", b"musaSuccess", b"musaGetErrorName",
                       b"musaGetErrorString", b"musaMalloc", b"musaMemcpy",
                       b"musaMemcpyHostToDevice", b"musaMemcpyDeviceToHost",
                       b"musaGetLastError", b"musaDeviceSynchronize", b"musaFree"}


@pytest.mark.parametrize("cuda, expected", [
    ("#include <cublas_v2.h>\ncublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m);",
     "#include <mublas.h>\nmublasSgemm(h, MUBLAS_OP_N, MUBLAS_OP_T, m);"),
    ("#include <cublasLt.h>\ncublasLtMatmul(lt);", "#include <mublasLt.h>\nmublasLtMatmul(lt);"),
    ("#include <cudnn.h>\ncudnnHandle_t d; cudnnCreate(&d); CUDNN_STATUS_SUCCESS;",
     "#include <mudnn.h>\nmudnnHandle_t d; mudnnCreate(&d); MUDNN_STATUS_SUCCESS;"),
    ("#include <curand_kernel.h>\ncurandState s; curand_init(1, 0, 0, &s);",
     "#include <murand_kernel.h>\nmurandState s; murand_init(1, 0, 0, &s);"),
    ("#include <cufft.h>\ncufftHandle p; cufftPlan1d(&p, n, CUFFT_C2C, 1);",
     "#include <mufft.h>\nmufftHandle p; mufftPlan1d(&p, n, MUFFT_C2C, 1);"),
    ("#include <cusparse.h>\ncusparseCreate(&h);", "#include <musparse.h>\nmusparseCreate(&h);"),
    ("#include <cusolverDn.h>\ncusolverDnCreate(&h);",
     "#include <musolverDn.h>\nmusolverDnCreate(&h);"),
    ("#include <nccl.h>\nncclComm_t c; ncclAllReduce(a, b, n, t, o, c, s);",
     "#include <mccl.h>\nmcclComm_t c; mcclAllReduce(a, b, n, t, o, c, s);"),
    ("#include <cuda.h>\nCUdeviceptr p; cuMemAlloc(&p, 4);",
     "#include <musa.h>\nMUdeviceptr p; muMemAlloc(&p, 4);"),
])
def test_libraries_map_as_the_facts_say(cuda, expected):
    out, findings = musa(cuda + "\n")
    assert out == expected + "\n"
    assert not [f for f in findings if f.code in ("CP101", "CP105", "CP106")]


def test_kernel_language_is_kept():
    src = ("#include <musa_runtime.h>\n__global__ void k(float* x) {\n"
           "  __shared__ float s[128]; s[threadIdx.x] = sinf(x[blockIdx.x * blockDim.x]);\n"
           "  __syncthreads(); atomicAdd(x, __shfl_xor_sync(0xffffffff, s[0], 1));\n}\n")
    out, findings = musa(src)
    assert out == src and [f for f in findings if not f.code.startswith("CP2")] == []


def test_names_without_musa_facts_are_reported_not_guessed():
    src = ("#include <cooperative_groups.h>\n"
           "void f() { cudaGraphInstantiateWithParams(g, e, p); ncclFloat; }\n")
    out, findings = musa(src)
    assert out == "#include <musa_runtime.h>\n" + src  # nothing renamed by prefix
    codes = {(f.code, f.identifier) for f in findings}
    assert ("CP106", "cooperative_groups.h") in codes
    assert ("CP101", "cudaGraphInstantiateWithParams") in codes
    assert ("CP101", "ncclFloat") in codes  # a known NCCL name with no MCCL fact
    msg = next(f.message for f in findings if f.code == "CP101")
    assert "no MUSA equivalent (CUDA 12.0+)" in msg


def test_target_description():
    info = get_compiled(MUSA).target
    assert info.warp_size == 128 and info.extra["warp_sizes"]["mp_31"] == 32
    assert info.extensions == {".cu": ".mu", ".cuh": ".muh"}
    assert info.main_header == "musa_runtime.h" and info.launch_function is None
    assert info.extra["compiler"] == {"command": "mcc", "args": ["-x", "musa"]}
    out, _ = musa("__global__ void k() {}\n")
    assert out == "#include <musa_runtime.h>\n__global__ void k() {}\n"


@pytest.mark.skipif(not (REFERENCE / "musa-mapping").is_dir(),
                    reason="reference facts not available (set CUDAPORT_REFERENCE)")
def test_generated_packs_are_reproducible_from_the_facts(tmp_path):
    out = tmp_path / "musa"
    shutil.copytree(ROOT / "rules" / "musa", out)
    for generated in out.glob("*.yaml"):
        if "generated: true" in generated.read_text(encoding="utf-8"):
            generated.unlink()
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_musa_rules.py"),
                           "--reference", str(REFERENCE), "--out", str(out)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    for committed in (ROOT / "rules" / "musa").glob("*.yaml"):
        assert (out / committed.name).read_bytes() == committed.read_bytes(), committed.name
    facts = json.loads((REFERENCE / "musa-mapping" / "general.json").read_text())
    table = get_compiled(MUSA).table
    assert all(table.identifiers[k].main.to == v for k, v in facts.items())


def test_cli_summary_names_musa(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text("#include <cuda_runtime.h>\nvoid f(){ cudaFree(p); cudaGraphInstantiateWithParams(g, e, p); }\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "cudaport", "translate", str(src),
                           "--target", "musa"], capture_output=True, env=env)
    assert proc.returncode == 1  # an unmapped API is an error finding
    assert b"musaFree(p)" in proc.stdout
    assert b"unmapped on MUSA" in proc.stderr and b"CP101" in proc.stderr


# Property: for token soups mixing names of every MUSA family, translation for the vendor
# targets (with and without a user rule layer) is idempotent, byte-exact outside edits and
# leaves comments and strings alone (cudaport.translate.integrity checks these promises).
VENDOR_FRAGMENTS = [
    b"cudaMalloc", b"cudnnCreate", b"ncclAllReduce", b"ncclFloat", b"__nv_bfloat16",
    b"nppiAdd_8u_C1RSfs", b"cublasLtMatmul", b"CUBLAS_OP_N", b"cuMemAlloc", b"__syncthreads",
    b"__shfl_xor_sync", b"cudaGraphInstantiateWithParams", b"acmeCheck", b"ACME_FLAG",
    b"#include <cudnn.h>\n", b"#include <nccl.h>\n", b"#include <cooperative_groups.h>\n",
    b"// ncclAllReduce\n", b'"cudaFree"', b"(", b")", b",", b";", b" ", b"\n", b"::",
    b"<<<", b">>>", b"#if X\n", b"#endif\n", b"__global__", b"k",
]


@pytest.fixture(scope="module")
def vendor_rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / "acme.yaml"
    path.write_text("macros: {acmeCheck: acmeMusaCheck}\nkeep: [ncclFloat]\n"
                    "checks:\n  ACME_FLAG: {code: ACME9, message: banned flag}\n")
    return str(path)


def test_vendor_targets_keep_promises(vendor_rules):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from cudaport.translate.integrity import problems

    options = st.builds(Options, target=st.sampled_from(["musa", "maca"]),
                        rewrite_comments=st.booleans(),
                        rule_files=st.sampled_from([(), (vendor_rules,)]))

    @settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(src=st.lists(st.sampled_from(VENDOR_FRAGMENTS), max_size=40).map(b"".join),
           opts=options)
    def check(src, opts):
        assert problems(src, opts) == []

    check()
