"""User rule files (``--rules FILE.yaml``): one test per kind, the override order, and
errors that name the file and line."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from cudaport import Options, translate_bytes
from cudaport.cli.main import main
from cudaport.rules import RuleError, get_compiled
from conftest import ROOT


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


def run(src: str, *rule_files: str, target: str = "hip"):
    result = translate_bytes(src.encode(), Options(target=target, rule_files=tuple(rule_files)))
    return result.output.decode(), result


def test_identifier_rename_overrides_builtin(tmp_path):
    rules = write(tmp_path, "r.yaml", """
        identifiers:
          cudaMalloc: myMalloc            # built-in says hipMalloc
          acmeCudaInit: acmeHipInit       # a name no built-in rule knows
    """)
    out, result = run("#include <cuda_runtime.h>\ncudaMalloc(&p, n); acmeCudaInit();\n", rules)
    assert "myMalloc(&p, n); acmeHipInit();" in out
    ref = next(r for r in result.references if r.identifier == "cudaMalloc")
    assert ref.library == "runtime"  # inherited from the rule it replaces
    assert ref.rule_id.startswith("user/r:")


def test_header_map(tmp_path):
    rules = write(tmp_path, "h.yaml", """
        library: acme
        headers:
          acme_cuda_utils.h: acme_hip_utils.h
          cuda_runtime.h: {to: "acme/runtime.h", main: true}
    """)
    out, _ = run('#include "acme_cuda_utils.h"\n#include <cuda_runtime.h>\ncudaFree(p);\n', rules)
    assert out == '#include "acme_hip_utils.h"\n#include <acme/runtime.h>\nhipFree(p);\n'


def test_call_template_reorders_arguments_and_keeps_the_rest(tmp_path):
    rules = write(tmp_path, "c.yaml", """
        calls:
          acmeCopy: {template: "acme::copy($2, $1, $*)"}
          cudaMemset: {template: "acmeMemset($1, $3, $2)"}
    """)
    out, _ = run("acmeCopy(src, dst, n,  flags);\ncudaMemset(p, 0, n);\n", rules)
    assert "acme::copy(dst, src, n,  flags);" in out
    assert "acmeMemset(p, n, 0);" in out


def test_variant_call_templates_apply_only_with_their_variant():
    """rules/hip/rocblas-calls.yaml (variant: rocblas) rewrites cublasGemmEx for --blas
    rocblas only; the default variant keeps hipBLAS's argument list."""
    src = ("#include <cublas_v2.h>\ncublasGemmEx(h, ta, tb, m, n, k, a, A, CUDA_R_16F, lda, B,"
           " CUDA_R_16F, ldb, b, C, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);\n")
    roc = translate_bytes(src.encode(), Options(variants=(("blas", "rocblas"),))).output.decode()
    assert ("rocblas_gemm_ex(h, ta, tb, m, n, k, a, A, rocblas_datatype_f16_r, lda, B, "
            "rocblas_datatype_f16_r, ldb, b, C, rocblas_datatype_f32_r, ldc, C, "
            "rocblas_datatype_f32_r, ldc, rocblas_datatype_f32_r, rocblas_gemm_algo_standard, 0, "
            "rocblas_gemm_flags_none);") in roc
    hip = translate_bytes(src.encode(), Options(target_version="6.4")).output.decode()
    assert "hipblasGemmEx_v2(h, ta, tb, m, n, k, a, A, HIP_R_16F, lda, B," in hip
    assert "hipblasGemmEx(h, ta, tb, m, n, k, a, A, HIP_R_16F, lda, B," in \
        translate_bytes(src.encode(), Options()).output.decode()  # hipBLAS 3 (HIP 7)
    assert "rocblas" not in hip and hip.count(", ldc") == 1
    # complex pointers are cast to rocBLAS's element type (rocblas-casts.yaml, generated)
    roc = translate_bytes(b"#include <cublas_v2.h>\ncublasCscal(h, n, &a, x, 1);\n",
                          Options(variants=(("blas", "rocblas"),))).output.decode()
    assert ("rocblas_cscal(h, n, reinterpret_cast<const rocblas_float_complex*>(&a), "
            "reinterpret_cast<rocblas_float_complex*>(x), 1);") in roc


def test_macro_rename(tmp_path):
    rules = write(tmp_path, "m.yaml", """
        macros:
          CUDA_CHECK: HIP_CHECK
          CUDA_LEGACY_FLAG: null
    """)
    out, result = run("#define X CUDA_CHECK(cudaFree(p))\nint y = CUDA_LEGACY_FLAG;\n", rules)
    assert "HIP_CHECK(hipFree(p))" in out and "CUDA_LEGACY_FLAG" in out
    entry = get_compiled(Options(rule_files=(rules,))).table.identifiers["CUDA_CHECK"]
    assert entry.kind == "macro"
    assert [f.code for f in result.findings if f.identifier == "CUDA_LEGACY_FLAG"] == ["CP101"]


def test_keep_never_touches_a_name(tmp_path):
    rules = write(tmp_path, "k.yaml", """
        keep: [cudaMemcpyToSymbol, cudaMyOwnHelper]
    """)
    src = "cudaMemcpyToSymbol(sym, &v, 4); cudaMyOwnHelper(); cudaFree(p);\n"
    out, result = run(src, rules)
    assert "cudaMemcpyToSymbol(sym, &v, 4); cudaMyOwnHelper(); hipFree(p);" in out
    # cudaMyOwnHelper looks like CUDA API, but kept names are never reported as unknown.
    assert not [f for f in result.findings if f.identifier in ("cudaMyOwnHelper",
                                                                "cudaMemcpyToSymbol")]


def test_check_only_rule_reports_user_code_and_changes_nothing_else(tmp_path):
    rules = write(tmp_path, "ci.yaml", """
        checks:
          acme_internal_alloc: {code: ACME001, severity: error, message: "use acme::alloc instead"}
          cudaDeviceReset: {code: ACME-002, message: "do not reset the device in library code"}
    """)
    src = "void f() { acme_internal_alloc(4); cudaDeviceReset(); }\n// acme_internal_alloc\n"
    out, result = run(src, rules)
    assert "acme_internal_alloc(4); hipDeviceReset();" in out  # the built-in rename still applies
    found = {(f.code, f.severity, f.identifier, f.line) for f in result.findings}
    assert ("ACME001", "error", "acme_internal_alloc", 1) in found
    assert ("ACME-002", "warning", "cudaDeviceReset", 1) in found
    assert not any(f.line == 2 for f in result.findings)  # comments are not code


def test_later_file_overrides_earlier(tmp_path):
    first = write(tmp_path, "a.yaml", "identifiers: {cudaFree: firstFree}\n")
    second = write(tmp_path, "b.yaml", "identifiers: {cudaFree: secondFree}\n")
    assert "secondFree(p)" in run("cudaFree(p);\n", first, second)[0]
    assert "firstFree(p)" in run("cudaFree(p);\n", second, first)[0]


def test_user_rules_apply_to_other_targets(tmp_path):
    rules = write(tmp_path, "m.yaml", "identifiers: {cudaMalloc: acmeMusaMalloc}\n")
    out, _ = run("cudaMalloc(&p, 4); cudaFree(p);\n", rules, target="musa")
    assert "acmeMusaMalloc(&p, 4); musaFree(p);" in out


@pytest.mark.parametrize("text, line, message", [
    ("identifiers:\n  cudaFree: a\n  cudaFree: b\n", 3, "duplicate key 'cudaFree'"),
    ("identifiers: {cudaFree: x}\nmacros: {cudaFree: y}\n", 2, "already defined in this file"),
    ("checks:\n  foo: {code: CP101, message: m}\n", 2, "reserved"),
    ("checks:\n  foo: {code: ACME1, severity: fatal, message: m}\n", 2, "not one of"),
    ("checks:\n  foo: {code: ACME1}\n", 2, "missing required key 'message'"),
    ("calls:\n  foo: {template: \"bar($1\"}\n", 2, "must look like name(arguments)"),
    ("keep: [ok, 'not a name']\n", 1, "is not a C/C++ identifier"),
    ("identifiers:\n  cudaFree: cudaMalloc\n", 2, "would not be idempotent"),
    ("bogus: 1\n", 1, "unknown key 'bogus'"),
])
def test_errors_name_file_and_line(tmp_path, text, line, message):
    rules = write(tmp_path, "bad.yaml", text)
    with pytest.raises(RuleError) as info:
        get_compiled(Options(rule_files=(rules,)))
    assert info.value.path == rules and info.value.line == line
    assert message in str(info.value)


def test_cli_rules_option_and_bad_rules_exit_2(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text("void f() { legacy_alloc(1); }\n")
    rules = write(tmp_path, "r.yaml", """
        checks:
          legacy_alloc: {code: ACME7, severity: error, message: "banned"}
    """)
    result = CliRunner().invoke(main, ["translate", str(src), "--rules", rules])
    assert result.exit_code == 1 and "ACME7 banned" in result.output
    bad = write(tmp_path, "bad.yaml", "identifiers: [1, 2]\n")
    result = CliRunner().invoke(main, ["translate", str(src), "--rules", bad])
    assert result.exit_code == 2 and f"{bad}:1:" in result.output


def test_documented_examples_load(tmp_path):
    """Every ```yaml block of rules/README.md's user-rules section is a valid rule file."""
    text = (ROOT / "rules" / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## User rules"):]
    blocks = [b.split("```", 1)[0] for b in section.split("```yaml\n")[1:]]
    assert len(blocks) >= 6
    for i, block in enumerate(blocks):
        get_compiled(Options(rule_files=(write(tmp_path, f"doc{i}.yaml", block),)))


def test_subprocess_cli_with_two_rule_files(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text("cudaFree(p);\n")
    a = write(tmp_path, "a.yaml", "identifiers: {cudaFree: aFree}\n")
    b = write(tmp_path, "b.yaml", "identifiers: {cudaFree: bFree}\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "cudaport", "translate", str(src), "-q",
                           "--rules", a, "--rules", b], capture_output=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b"#include <hip/hip_runtime.h>\nbFree(p);\n"
