"""``cudaport rules list|explain|check|stats`` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from cudaport.cli.main import main
from cudaport.rules import default_rules_root

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def rules(*args: str):
    return CliRunner().invoke(main, ["rules", *args])


def test_explain_the_three_names_of_the_issue():
    r = rules("explain", "cudaMallocAsync")
    assert r.exit_code == 0
    assert "renamed to hipMallocAsync" in r.output and "since CUDA 11.2" in r.output
    assert "runtime.yaml:" in r.output
    r = rules("explain", "cublasGemmEx", "--blas", "rocblas")
    assert r.exit_code == 0
    assert "renamed to rocblas_gemm_ex" in r.output
    assert "--blas hipblas:" in r.output and "[selected]" in r.output
    # rocBLAS's GemmEx takes D (= C here), a solution index and flags: the call is rewritten.
    assert "calls are rewritten as rocblas_gemm_ex($1, $2, $3, $4, $5, $6, $7, $8, $9" in r.output
    r = rules("explain", "cudnnConvolutionForward", "--dnn", "miopen")
    assert r.exit_code == 0
    assert "renamed to miopenConvolutionForward" in r.output
    assert "--dnn hipdnn:" in r.output
    assert "rewritten as miopenConvolutionForward($1, $2, $3, $4, $5, $6, $7, $8, $11, $12, $13, "\
           "$9, $10)" in r.output  # beta, yDesc, y before the workspace


def test_explain_unknown_name_and_header():
    r = rules("explain", "CUDA_CHECK")
    assert r.exit_code == 1 and "not in the HIP rule table" in r.output
    r = rules("explain", "cublas_v2.h", "--blas", "rocblas")
    assert r.exit_code == 0 and "rocblas.h" in r.output


def test_explain_cuda13_name_and_hip_version():
    r = rules("explain", "cuMemcpyBatchAsync")
    assert "CUDA 13 headers" in r.output and "CP101" in r.output
    r = rules("explain", "cudaMallocAsync", "--hip-version", "5.1")
    assert "needs HIP 5.2.0" in r.output and "CP107" in r.output


def test_list_filters():
    r = rules("list", "--library", "cublas", "--status", "experimental")
    assert r.exit_code == 0
    rows = [line.split("\t") for line in r.output.splitlines() if "\t" in line]
    assert rows and all(row[1] == "cublas" and row[2] == "experimental" for row in rows)
    r = rules("list", "--library", "nccl", "--status", "supported", "--format", "json")
    data = json.loads(r.output[: r.output.rindex("]") + 1])
    assert {"name": "ncclAllReduce", "library": "nccl", "kind": "function", "status": "same",
            "to": "ncclAllReduce"}.items() <= next(d for d in data
                                                   if d["name"] == "ncclAllReduce").items()
    r = rules("list", "--library", "nosuch")
    assert r.exit_code == 2 and "no such library" in r.output


def test_check_valid_invalid_and_builtin(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text("library: runtime\nidentifiers:\n  cudaMyThing: {kind: function}\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("library: runtime\nidentifiers:\n  cudaX: {kind: function}\n"
                   "  cudaY: {kind: fnction}\n")
    r = rules("check", str(bad), str(good))
    assert r.exit_code == 2
    assert f"{bad}:4:" in r.output and "'fnction' is not one of" in r.output
    assert f"{good}: ok" in r.output
    r = rules("check", str(default_rules_root() / "hip" / "calls.yaml"))
    assert r.exit_code == 0
    r = rules("check", str(tmp_path / "missing.yaml"))
    assert r.exit_code == 2 and "no such rule file" in r.output


def test_stats_text_and_json():
    r = rules("stats")
    assert r.exit_code == 0 and "cublas" in r.output and "CUDA names" in r.output
    r = rules("stats", "--format", "json")
    data = json.loads(r.output)
    assert data["totals"]["with_hip_equivalent"] >= 4900
    assert data["libraries"]["nccl"]["supported"] > 50


def test_rules_command_in_a_fresh_process():
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-m", "cudaport", "rules", "explain", "cudaMalloc"],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == 0 and "hipMalloc" in proc.stdout
