"""The generated packs are reproducible from their facts.

tools/gen_hip_rules.py needs only ../shared/reference (beside the checkout, as in CI);
the other generators need large inputs (CUDA toolkit, nvidia-* wheels, git snapshots of
ROCm projects) and are checked here only when those are present.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HIP_RULES = ROOT / "rules" / "hip"


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_gen_hip_rules_is_reproducible(tmp_path):
    gen = _tool("gen_hip_rules")
    reference = gen._default_reference()
    if not (reference / "hipify-tables").is_dir():
        pytest.skip(f"{reference} not found")
    out = tmp_path / "hip"
    out.mkdir()
    for path in HIP_RULES.iterdir():
        if not path.is_file():
            continue  # e.g. build/ (CMake rules), not an API pack
        derived = path.suffix == ".yaml" and path.read_text().startswith(gen.DERIVED_PACKS)
        if not derived:
            shutil.copy(path, out / path.name)
    shutil.copytree(HIP_RULES / "ports", out / "ports")  # (hand-written: they win too)
    written = gen.generate(reference, out)
    assert len(written) == len(gen.LIBRARIES)
    for path in written:
        assert path.read_bytes() == (HIP_RULES / path.name).read_bytes(), path.name


def test_hand_written_and_other_generated_packs_win_over_the_tables():
    gen = _tool("gen_hip_rules")
    names = gen._hand_written_names(HIP_RULES)
    assert {"ncclAllReduce", "__nv_bfloat16", "threadIdx"} <= names
    assert "cudaMalloc" not in names  # defined by the tables' own runtime.yaml


def test_signature_comparison():
    gen = _tool("gen_signature_notes")
    protos = gen.prototypes([
        "/* c */ int CUDNNWINAPI f(int a, const float *b, int c[]);\n"
        "#define X(y) y\nint g(void);\nint h(int (*cb)(int));\n"])
    assert protos["f"] == ["int a", "const float *b", "int c[]"]
    assert protos["g"] == [] and "h" not in protos
    assert gen.split_param("const float *b") == ("const float *", "b")
    assert gen.split_param("int c[]") == ("int *", "c")
    same = lambda w: w  # noqa: E731
    assert gen.compare(["int a", "float* b"], ["rocblas_int a", "float *b"], same) is None
    assert gen.compare(["int a", "float* b"], ["float *b", "int a"], same) == "order"
    assert gen.compare(["int a"], ["int a", "int b"], same) == "count"


def test_gen_cuda13_packs_are_reproducible_from_the_committed_names(tmp_path):
    # --from-names: after a hand-written pack takes over names (cufft-xt.yaml), the
    # cuda13-*.yaml packs are rewritten without the toolkit; on the committed tables it
    # changes nothing.
    gen = _tool("gen_cuda13_names")
    out = tmp_path / "hip"
    shutil.copytree(HIP_RULES, out)
    assert gen.main(["--from-names", "--out", str(out)]) == 0
    packs = sorted(p.name for p in HIP_RULES.glob("cuda13-*.yaml"))
    assert packs == sorted(p.name for p in out.glob("cuda13-*.yaml")) and packs
    for name in packs:
        assert (out / name).read_bytes() == (HIP_RULES / name).read_bytes(), name


def test_gen_cuda13_public_name_filter():
    gen = _tool("gen_cuda13_names")
    std = {"sin", "malloc", "__expf"}
    assert gen.is_public("cudaMalloc", "function", std)
    assert gen.is_public("__shfl_sync", "function", std)
    assert gen.is_public("__expf", "function", std)  # glibc's internal, CUDA's intrinsic
    assert not gen.is_public("sin", "function", std)
    assert not gen.is_public("__iAtomicAdd", "function", std)  # helper behind atomicAdd
    assert not gen.is_public("__CUDA_RUNTIME_H__", "macro", std)
    assert not gen.is_public("CUDNN_ADV_H_", "macro", std)
    assert not gen.is_public("_CUB_HELPER", "macro", std)


MIRRORS = Path("/work/.mirror")


ROCM72 = Path(os.environ.get("CUDAPORT_ROCM72_DIR", "/var/cache/cudaport/rocm-7.2"))


@pytest.mark.skipif(not (MIRRORS / "ROCm+rccl" / "repo").is_dir()
                    or not (MIRRORS / "ROCm+clr" / "repo").is_dir()
                    or not (ROCM72 / "usr/include/rccl/rccl.h").is_file(),
                    reason="git snapshots of ROCm/rccl and ROCm/clr, or the ROCm 7.2 root, "
                           "are not on this machine")
def test_gen_hip_extra_rules_is_reproducible(tmp_path):
    gen = _tool("gen_hip_extra_rules")
    assert gen.main(["--rccl", str(MIRRORS / "ROCm+rccl" / "repo"), "--clr",
                     str(MIRRORS / "ROCm+clr" / "repo"), "--rocm72", str(ROCM72),
                     "--out", str(tmp_path)]) == 0
    for name in ("nccl.yaml", "lowp.yaml"):
        assert (tmp_path / name).read_bytes() == (HIP_RULES / name).read_bytes(), name


WINDOW = (b"#include <nccl.h>\nstruct ncclWindow_vidmem;\n"
          b"ncclResult_t reg(ncclComm_t c, void* p, size_t n, ncclWindow_t* w) {\n"
          b"  return ncclCommWindowRegister(c, p, n, w, NCCL_WIN_COLL_SYMMETRIC);\n}\n")


def _window(version: str):
    from cudaport import Options, translate_bytes
    return translate_bytes(WINDOW, Options(target_version=version), "w.cpp")


def test_rccl_names_of_rocm_7_2_map_from_7_2():
    """The window API (TransformerEngine's symmetric memory) is in ROCm 7.2's rccl/rccl.h,
    not in the 2024 RCCL snapshot: mapped from 7.2, too new for 6.4 (CP107)."""
    new = _window("7.2")
    assert b"#include <rccl/rccl.h>\nstruct ncclWindow;\n" in new.output
    assert not [f for f in new.findings if f.severity == "error"], new.findings
    old = _window("6.4")
    # (the forward declaration `struct ncclWindow_vidmem;` needs nothing of 6.4: the
    # project's opaque type there, CP164, not a blocker)
    assert {f.identifier for f in old.findings if f.code == "CP107"} == {
        "ncclWindow_t", "ncclCommWindowRegister", "NCCL_WIN_COLL_SYMMETRIC"}


@pytest.mark.slow
def test_rccl_window_translation_compiles_with_rocm_7_2(tmp_path):
    from conftest import compile_object
    path = tmp_path / "w.hip"
    path.write_bytes(_window("7.2").output)
    compile_object(path, "gfx942")


ALLTOALL = (b"#include <nccl.h>\n"
            b"ncclResult_t a2a(const float* s, float* r, size_t n, ncclComm_t c, cudaStream_t st) {\n"
            b"  return ncclAlltoAll(s, r, n, ncclFloat, c, st);\n}\n")


def test_nccl_alltoall_is_rccls_alltoall():
    """NCCL 2.28's ncclAlltoAll is RCCL's ncclAllToAll (same parameters, same blocks per
    rank; nccl-tests' alltoall.cu): renamed, with RCCL's distinct-buffers rule as a note."""
    from cudaport import Options, translate_bytes
    out = translate_bytes(ALLTOALL, Options(target_version="7.2"), "a.cpp")
    assert b"return ncclAllToAll(s, r, n, ncclFloat, c, st);" in out.output
    assert [f.code for f in out.findings if f.identifier == "ncclAlltoAll"] == ["CP108"]
    assert not [f for f in out.findings if f.severity == "error"], out.findings


@pytest.mark.slow
def test_nccl_alltoall_translation_compiles_with_rocm_7_2(tmp_path):
    from conftest import compile_object
    from cudaport import Options, translate_bytes
    path = tmp_path / "a.hip"
    path.write_bytes(translate_bytes(ALLTOALL, Options(target_version="7.2"), "a.cpp").output)
    compile_object(path, "gfx942")


def test_gen_hip_versions_is_reproducible(tmp_path):
    gen = _tool("gen_hip_versions")
    if not (gen.ROCM_INCLUDE / "hip" / "hip_version.h").is_file():
        pytest.skip(f"no ROCm 6.4 headers at {gen.ROCM_INCLUDE} (tools/setup-system.sh)")
    reference = gen._default_reference()
    if not (reference / "hipify-headers.tsv").is_file():
        pytest.skip(f"{reference} not found")
    for path in HIP_RULES.glob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    assert gen.main(["--out", str(tmp_path), "--reference", str(reference)]) == 0
    names = ["header-paths.tsv", "hipblas-v2.tsv", "hip-spellings.tsv"]
    if (gen.HIP52_INCLUDE / "hip" / "hip_version.h").is_file():  # Debian's HIP 5.2
        names.append("hip52-present.tsv")
    for name in names:
        assert (tmp_path / name).read_bytes() == (HIP_RULES / name).read_bytes(), name


def test_signature_differences_matcher():
    gen = _tool("gen_signature_diffs")
    P, O = gen.Param, gen.Overload
    rename = {"cudaStream_t": "hipStream_t", "cuComplex": "hipFloatComplex"}.get
    typedefs = {"hipFloatComplex": "HIP_vector_type<float,2>",
                "hipComplex": "HIP_vector_type<float,2>"}

    def match(c, h, name="", canonical=None):
        return gen.param_match(P(gen._squash(c), gen._squash(c), False, name),
                               P(gen._squash(h), gen._squash(canonical or h), False),
                               lambda w: rename(w) or w, typedefs)
    assert match("cudaStream_t", "hipStream_t") == ""
    assert match("const cuComplex *", "const hipComplex*", "",
                 "const HIP_vector_type<float, 2>*") == "typedef"
    assert match("float*", "const float*") == "const"
    assert match("const float*", "float*") is None  # HIP drops const: needs a cast
    assert match("const int", "int") == ""  # top-level const is not part of the type
    assert match("float* []", "float**") == ""  # array parameters are pointers
    assert match("const $0&", "const $0&") == ""
    assert match("const $0&", "const void*") is None  # the symbol overload needs a rewrite
    assert match("$0*", "void*", "devPtr") == "void*"
    assert match("$0*", "const void*", "func") is None  # a kernel is no data pointer
    assert match("int*", "$0") == ""  # a target template parameter takes anything
    two = O((P("int*", "int*", False), P("int", "int", True)), False, "a.h:1")
    one = O((P("int*", "int*", False),), False, "b.h:1")
    failing, _ = gen.compare([two], [one], lambda w: w, {})
    assert [n for n, _ in failing] == [2]  # CUDA's default argument: the call form f(p, n)
    failing, kinds = gen.compare([one], [two], lambda w: w, {})
    assert failing == [] and kinds == {"defaults"}


def test_signature_differences_are_all_covered():
    """Every differing signature in the generated list has a template, a note or a
    harmless difference named (the generator's count of uncovered ones is 0) for the
    runtime, driver and hip* libraries. cuDNN -> MIOpen is listed too; its templates are
    kept in their own pack."""
    rows = [line.split("\t") for line in
            (HIP_RULES / "signature-differences.tsv").read_text().splitlines()
            if line and not line.startswith("#")]
    assert rows and all(len(r) == 5 for r in rows)
    assert {r[0] for r in rows} >= {"runtime", "driver", "cublas", "cusparse", "cusolver",
                                    "curand", "cufft", "cudnn"}
    assert [r[1] for r in rows if r[3] not in ("template", "note", "harmless")
            and r[0] != "cudnn"] == []


@pytest.mark.slow
@pytest.mark.parametrize("version, name", [("7.2", "signature-differences.tsv"),
                                           ("6.4", "signature-differences-6.4.tsv")])
def test_gen_signature_diffs_is_reproducible(tmp_path, version, name):
    gen = _tool("gen_signature_diffs")
    rocm = Path(f"/var/cache/cudaport/rocm-{version}/usr/include")
    folders = (Path("/usr/local/cuda/include"), Path("/tmp/cuda-libs/nvidia/cu13/include"),
               rocm, Path("/tmp/cuda-libs/nvidia/cudnn/include"))
    missing = [str(f) for f in folders if not f.is_dir()]
    if missing:
        pytest.skip(f"headers not found: {', '.join(missing)}")
    out = tmp_path / name
    assert gen.main(["--hip-version", version, "--rocm-include", str(rocm), "--out", str(out)]) == 0
    assert out.read_bytes() == (HIP_RULES / name).read_bytes()


@pytest.mark.slow
def test_gen_rocm_counterparts_is_reproducible(tmp_path):
    """rules/hip/rocm-counterparts.yaml is what tools/gen_rocm_counterparts.py writes from
    the ROCm 7.2 and 6.4 folders and the committed packs (the generator runs ROCm's own
    preprocessor over their headers)."""
    gen = _tool("gen_rocm_counterparts")
    roots = [Path(f"/var/cache/cudaport/rocm-{v}") for v in ("7.2", "6.4")]
    if not all((root / "cudaport-hipcc").exists() for root in roots):
        pytest.skip("the ROCm 7.2 and 6.4 folders (tools/setup-system.sh) are not here")
    out = tmp_path / "rocm-counterparts.yaml"
    shutil.copy(HIP_RULES / out.name, out)
    gen.generate(*roots, out)
    assert out.read_bytes() == (HIP_RULES / out.name).read_bytes()
