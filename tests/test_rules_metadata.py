"""Metadata semantics of rule entries: each behaviour the rules README promises, pinned.

Most cases use a small user pack layered over the real HIP table (so the behaviour, not
a table fact, is under test); a few use real table entries the issue names.
"""

from __future__ import annotations

import textwrap

import pytest

from cudaport import Options, translate_bytes
from cudaport.rules import RuleError, default_rules_root, get_compiled, load_table

PACK = """\
library: runtime
identifiers:
  cudaTestGone: {kind: function, to: hipTestGone, cuda_deprecated: "11.0", cuda_removed: "12.0"}
  cudaTestOld: {kind: function, to: hipTestOld, cuda_deprecated: "11.0"}
  cudaTestNew: {kind: function, to: hipTestNew, to_since: "6.1.0"}
  cudaTestExact: {kind: function, to: hipTestExact, to_since: "5.2.0"}
  cudaTestDropped: {kind: function, to: hipTestDropped, to_since: "4.0", to_removed: "6.0"}
  cudaTestExp: {kind: function, to: hipTestExp, experimental: true}
  cudaTestForced: {kind: function, to: hipTestForced, status: unsupported}
  cudaTestNone: {kind: function, cuda_since: "12.4"}
  cudaTestNoted: {kind: function, to: hipTestNoted, note: "argument order differs"}
"""


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    """One pack file for the module, so the layered table is built once."""
    path = tmp_path_factory.mktemp("meta") / "meta.yaml"
    path.write_text(PACK)
    return str(path)


def run(src: str, pack: str, **options):
    opts = Options(rule_files=(pack,), insert_main_header=False, **options)
    result = translate_bytes(src.encode(), opts, "t.cu")
    return result.output.decode(), {(f.code, f.identifier) for f in result.findings}


def test_unsupported_is_reported_not_renamed(pack):
    out, codes = run("cudaTestNone(); cudaTestForced();", pack)
    assert out == "cudaTestNone(); cudaTestForced();"
    assert ("CP101", "cudaTestNone") in codes and ("CP101", "cudaTestForced") in codes


def test_experimental_only_with_flag(pack):
    out, codes = run("cudaTestExp();", pack)
    assert out == "cudaTestExp();" and ("CP104", "cudaTestExp") in codes
    # left unchanged, the CUDA name does not compile on the target: the file is not ported
    # (CUDALibrarySamples' cusolverDnXgeqrf example was reported "ports with warnings")
    from cudaport.findings import CODES

    assert CODES["CP104"].severity == "error"
    out, codes = run("cudaTestExp();", pack, experimental=True)
    assert out == "hipTestExp();" and not any(c == "CP104" for c, _ in codes)


def test_deprecated_and_removed_are_renamed_and_reported(pack):
    out, codes = run("cudaTestOld(); cudaTestGone();", pack)
    assert out == "hipTestOld(); hipTestGone();"
    assert ("CP102", "cudaTestOld") in codes and ("CP103", "cudaTestGone") in codes
    assert ("CP102", "cudaTestGone") not in codes  # removed says more than deprecated


def test_deprecation_names_the_product_whose_release_it_is():
    # cuDNN entries carry cuDNN's release numbers: "since CUDA 9.0" would be false.
    result = translate_bytes(b"cudnnSetPooling2dDescriptor(d, m, n, 2, 2, 0, 0, 2, 2);",
                             Options(), "p.cu")
    messages = [f.message for f in result.findings if f.code == "CP102"]
    assert messages == ["cudnnSetPooling2dDescriptor is deprecated since cuDNN 9.0.0"]


@pytest.mark.parametrize("version, new, exact, dropped", [
    (None, "hipTestNew", "hipTestExact", None),
    ("5.2", None, "hipTestExact", "hipTestDropped"),
    ("5.1.9", None, None, "hipTestDropped"),
    ("6.1", "hipTestNew", "hipTestExact", None),
])
def test_hip_version_limits_names(pack, version, new, exact, dropped):
    out, codes = run("cudaTestNew(); cudaTestExact(); cudaTestDropped();", pack,
                     target_version=version)
    assert out == (f"{new or 'cudaTestNew'}(); {exact or 'cudaTestExact'}(); "
                   f"{dropped or 'cudaTestDropped'}();")
    assert (("CP107", "cudaTestNew") in codes) == (new is None)
    assert (("CP107", "cudaTestExact") in codes) == (exact is None)
    # A removed target name is unavailable (CP101), not "too new".
    assert (("CP101", "cudaTestDropped") in codes) == (dropped is None)


def test_note_reported_where_used(pack):
    out, codes = run("cudaTestNoted(a, b);", pack)
    assert out == "hipTestNoted(a, b);" and ("CP108", "cudaTestNoted") in codes


def test_variant_choice_and_missing_variant():
    opts = Options(variants=(("blas", "rocblas"),))
    c = get_compiled(opts)
    assert c.identifiers[b"cublasSgemm"].replacement == b"rocblas_sgemm"
    assert get_compiled(Options()).identifiers[b"cublasSgemm"].replacement == b"hipblasSgemm"
    # A name whose rocBLAS column is empty is unmapped for that variant only.
    table = load_table("hip")
    no_roc = next(n for n, e in table.identifiers.items()
                  if e.library == "cublas" and e.main.to and "rocblas" not in e.variants
                  and not e.main.experimental and not e.main.since)
    assert c.identifiers[no_roc.encode()].status == "unsupported"
    assert "rocblas" in c.identifiers[no_roc.encode()].reason


def test_variant_note_only_for_that_variant(tmp_path):
    table = _layer(tmp_path, "library: cublas\nnotes:\n  cublasSgemm: {rocblas: order}\n")()
    assert table.identifiers["cublasSgemm"].variants["rocblas"].note == "order"
    assert table.identifiers["cublasSgemm"].main.note is None
    # The built-in GemmEx template for rocBLAS rewrites the call: no stale "takes 24
    # arguments" note, and nothing about rocBLAS when hipBLAS is the target.
    src = b"cublasGemmEx(h, ta, tb, m, n, k, al, A, at, lda, B, bt, ldb, be, C, ct, ldc, cp, alg);"
    roc = translate_bytes(src, Options(variants=(("blas", "rocblas"),)), "g.cu")
    hip = translate_bytes(src, Options(), "g.cu")
    assert roc.output.startswith(b"rocblas_gemm_ex(")
    assert not any(f.code == "CP108" for f in roc.findings)
    assert not any("rocblas" in f.message for f in hip.findings)


@pytest.mark.parametrize("generated, kept", [(True, None), (False, "rewrite the call")])
def test_generated_signature_note_gives_way_to_a_template(tmp_path, generated, kept):
    # A generated note says how the parameter lists differ ("rewrite the call"); where the
    # column has an argument template the call is rewritten and the note would be stale.
    # A hand-written note is advice and stays.
    text = (f"library: runtime\ngenerated: {str(generated).lower()}\n"
            "identifiers:\n  cudaFree: hipFree\n"
            "notes:\n  cudaMalloc: {main: rewrite the call}\n  cudaFree: {main: differs}\n"
            "calls:\n  cudaMalloc: {template: 'hipMalloc($1, $2)'}\n")
    table = _layer(tmp_path, text)()
    assert table.identifiers["cudaMalloc"].template == "hipMalloc($1, $2)"
    assert table.identifiers["cudaMalloc"].main.note == kept
    assert table.identifiers["cudaFree"].main.note == "differs"


def test_miopen_argument_order_is_rewritten_without_a_stale_note():
    src = b"cudnnConvolutionForward(h, a, xd, x, wd, w, cd, algo, ws, wss, b, yd, y);"
    result = translate_bytes(src, Options(), "c.cu")
    assert result.output.startswith(b"miopenConvolutionForward(h, a, xd, x, wd, w, cd, algo, "
                                    b"b, yd, y, ws, wss)")
    assert not any(f.code in ("CP108", "CP120") for f in result.findings)
    # A call without a template keeps the generated note that says how MIOpen differs: the
    # renamed call is wrong until rewritten, an error (CP120), so the file is not ported.
    src = b"cudnnDropoutForward(h, d, xd, x, yd, y, r, n);"
    result = translate_bytes(src, Options(), "c.cu")
    assert any(f.code == "CP120" and f.severity == "error"
               and "miopenDropoutForward takes 9 arguments" in f.message
               for f in result.findings)


def test_a_call_the_rules_say_to_rewrite_blocks_the_file():
    # CUDALibrarySamples' cuSPARSE spsm_csr: hipsparseSpSM_solve takes one more argument
    # (the analysis step's buffer); as an information note the file was called ported
    # while ROCm 6.4 rejected the call
    from cudaport.report.verdict import BLOCKED, verdict

    src = b"void f() { cusparseSpSM_solve(h, a, b, &al, A, B, C, t, alg, d); }\n"
    result = translate_bytes(src, Options(), "s.cu")
    assert [(f.code, f.severity) for f in result.findings] == [("CP120", "error")]
    assert verdict(result.findings).status == BLOCKED


def test_cuda13_names_are_known_not_unknown():
    src = b"cuMemBatchDecompressAsync(p, n, s); cudaStreamGetDevice(s, &d); CUDA_CHECK(x);"
    result = translate_bytes(src, Options(), "n.cu")
    codes = {(f.code, f.identifier) for f in result.findings}
    assert ("CP101", "cuMemBatchDecompressAsync") in codes
    assert ("CP105", "CUDA_CHECK") in codes  # a project's own macro stays "unknown"
    assert not any(c == "CP105" and i != "CUDA_CHECK" for c, i in codes)
    entry = load_table("hip").identifiers["cuMemBatchDecompressAsync"]
    assert entry.cuda_present == "13" and entry.library == "driver"


def test_nccl_maps_to_rccl_and_lowp_types_to_hip():
    src = b"#include <nccl.h>\n#include <cuda_bf16.h>\nncclAllReduce(a); __nv_bfloat16 x;\n"
    out = translate_bytes(src, Options(), "n.cu").output
    assert b"#include <rccl/rccl.h>" in out and b"#include <hip/hip_bf16.h>" in out
    assert b"ncclAllReduce(a); __hip_bfloat16 x;" in out


MINI_PACK = """\
library: cublas
identifiers:
  cublasSgemm: {kind: function, to: hipblasSgemm, variants: {rocblas: rocblas_sgemm}}
"""
RUNTIME_PACK = "library: runtime\nidentifiers:\n  cudaMalloc: hipMalloc\n"


def _layer(tmp_path, text: str):
    """A small target (the real target.yaml, two tiny packs) plus the user pack: the
    validation under test is the loader's, the table size is irrelevant."""
    root = tmp_path / "rules"
    (root / "hip").mkdir(parents=True)
    (root / "hip" / "target.yaml").write_text(
        (default_rules_root() / "hip" / "target.yaml").read_text())
    (root / "hip" / "blas.yaml").write_text(MINI_PACK)
    (root / "hip" / "rt.yaml").write_text(RUNTIME_PACK)
    path = tmp_path / "user.yaml"
    path.write_text(textwrap.dedent(text))
    return lambda: load_table("hip", [root], extra_files=[path], use_cache=False)


@pytest.mark.parametrize("text, message", [
    ("library: cublas\nnotes:\n  cublasNope: {rocblas: x}\n", "not an identifier"),
    ("library: cublas\nnotes:\n  cublasSgemm: {mkl: x}\n", "unknown column 'mkl'"),
    ("library: runtime\nnotes:\n  cudaMalloc: {hipblas: x}\n", "unknown column"),
    ("library: runtime\npresent_in_cuda: thirteen\n", "a version"),
])
def test_notes_and_present_in_cuda_are_validated(tmp_path, text, message):
    with pytest.raises(RuleError) as err:
        _layer(tmp_path, text)()
    assert message in str(err.value) and "user.yaml:" in str(err.value)


def test_notes_section_attaches_to_a_column(tmp_path):
    table = _layer(tmp_path, "library: runtime\nnotes:\n  cudaMalloc: {main: checked}\n"
                             "  cublasSgemm: {rocblas: order}\n")()
    assert table.identifiers["cudaMalloc"].main.note == "checked"
    assert table.identifiers["cublasSgemm"].variants["rocblas"].note == "order"
    assert table.identifiers["cublasSgemm"].main.note is None
