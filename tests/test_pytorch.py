"""``--framework pytorch``: an extension-shaped project (kernel, binding, setup.py, a Python
test) translated for ROCm PyTorch and torch_musa, and PyTorch's names left alone without it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT
from cudaport import Options, translate_bytes
from cudaport.cli.main import main
from cudaport.builds.python_side import translate_python_file

FIXTURE = ROOT / "tests" / "data" / "pytorch_ext"
SOURCES = sorted(p.relative_to(FIXTURE / "src") for p in (FIXTURE / "src").rglob("*")
                 if p.is_file())
TARGETS = ("hip", "musa")


def port(data: bytes, rel: Path | str, target: str, framework: str | None = "pytorch"):
    options = Options(target=target, framework=framework)
    if str(rel).endswith((".py", ".toml")):
        return translate_python_file(data, options, str(rel))
    return translate_bytes(data, options, str(rel))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("rel", SOURCES, ids=str)
def test_expected_output_and_idempotent(target, rel):
    data = (FIXTURE / "src" / rel).read_bytes()
    result = port(data, rel, target)
    assert result.output == (FIXTURE / "expected" / target / rel).read_bytes()
    assert port(result.output, rel, target).output == result.output


CPP = [rel for rel in SOURCES if rel.suffix in (".cu", ".cpp")]
PYTORCH_NAMES = re.compile(rb"(?:at|c10)::cuda::\w+|\b(?:ATen|c10)/cuda/[\w/.]+|"
                           rb"\b\w*CUDA(?:Guard|Stream)\b|C10_CUDA_\w+|AT_CUDA_CHECK")


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("rel", CPP, ids=str)
def test_api_rules_alone_leave_pytorch_names(target, rel):
    """Without --framework, every PyTorch-internal name and header stays as written, while
    the CUDA API around them is still translated."""
    data = (FIXTURE / "src" / rel).read_bytes()
    result = port(data, rel, target, framework=None)
    names = PYTORCH_NAMES.findall(data)
    assert names and PYTORCH_NAMES.findall(result.output) == names
    assert not [f for f in result.findings if f.identifier in ("cuda", "CUDA_VERSION")
                and f.code == "CP105"]
    if b"cudaStream_t" in data:
        assert b"cudaStream_t" not in result.output


@pytest.mark.parametrize("target", TARGETS)
def test_qualified_cuda_namespace_is_pytorch_not_cuda_api(target):
    src = b"void f() { auto s = at::cuda::getCurrentCUDAStream(); ::c10::cuda::device_count(); }\n"
    assert translate_bytes(src, Options(target=target)).output == src


def test_musa_framework_renames_pytorch_namespace_and_names():
    src = (b"#include <c10/cuda/CUDAGuard.h>\n"
           b"void f() { c10::cuda::CUDAGuard g(0); auto s = at::cuda::getCurrentCUDAStream(); }\n")
    out = translate_bytes(src, Options(target="musa", framework="pytorch")).output
    assert out == (b"#include <torch_musa/csrc/core/MUSAGuard.h>\n"
                   b"void f() { c10::musa::MUSAGuard g(0); auto s = "
                   b"at::musa::getCurrentMUSAStream(); }\n")


@pytest.mark.parametrize("header, expected", [
    ("ATen/cuda/CUDAContext.h", "ATen/hip/HIPContext.h"),
    ("ATen/cuda/detail/IndexUtils.cuh", "ATen/hip/detail/IndexUtils.cuh"),
    ("ATen/native/cuda/Loops.cuh", "ATen/native/hip/Loops.cuh"),
    ("ATen/native/transformers/cuda/sdp_utils.h", "ATen/native/transformers/hip/sdp_utils.h"),
    ("c10/cuda/CUDAGuard.h", "c10/hip/HIPGuard.h"),
    ("c10/cuda/impl/cuda_cmake_macros.h", "c10/hip/impl/hip_cmake_macros.h"),
    ("c10/cuda/driver_api.h", "c10/hip/driver_api.h"),
    ("ATen/ATen.h", "ATen/ATen.h"),
    ("my/cuda/CUDAThing.h", "my/cuda/CUDAThing.h"),
])
def test_rocm_include_paths(header, expected):
    src = f'#include "{header}"\n'.encode()
    out = translate_bytes(src, Options(target="hip", framework="pytorch")).output
    assert out == f'#include "{expected}"\n'.encode()
    assert translate_bytes(src, Options(target="hip")).output == src


def test_rocm_c10_headers_come_from_the_facts_table():
    """ROCm's layout (c10/hip, ATen/hip) is not in PyTorch's CPU wheel, so the facts table is
    the reference: every c10/cuda header it lists maps to its c10/hip name."""
    import yaml

    pack = yaml.safe_load((ROOT / "rules/hip/frameworks/pytorch/rocm.yaml").read_text())
    c10 = {k: v for k, v in pack["headers"].items() if k.startswith("c10/cuda/")}
    assert len(c10) >= 15
    for cuda, hip in c10.items():
        assert hip == cuda.replace("cuda", "hip").replace("CUDA", "HIP")


def test_musa_unknown_pytorch_header_is_reported_not_renamed():
    src = b"#include <ATen/native/cuda/Loops.cuh>\n"
    result = translate_bytes(src, Options(target="musa", framework="pytorch"))
    assert result.output == src
    assert [f.code for f in result.findings] == ["CP600"]


def test_user_rules_override_framework_rules(tmp_path):
    rules = tmp_path / "mine.yaml"
    rules.write_text("headers:\n  ATen/native/cuda/Loops.cuh: acme/musa_loops.h\n"
                     "identifiers:\n  getCurrentCUDAStream: acmeStream\n")
    src = b"#include <ATen/native/cuda/Loops.cuh>\nauto s = getCurrentCUDAStream();\n"
    out = translate_bytes(src, Options(target="musa", framework="pytorch",
                                       rule_files=(str(rules),))).output
    assert out == b"#include <acme/musa_loops.h>\nauto s = acmeStream();\n"


# ---- Python side -------------------------------------------------------------------------

PY = b'''# uses cuda
import torch
x = torch.zeros(3, device="cuda")  # "cuda" in a comment stays
y = x.cuda(); z = x.to('cuda:1'); s = "cuda is fast"; f = f"cuda:{0}"
'''


def test_python_musa():
    result = port(PY, "m.py", "musa")
    assert result.output == b'''# uses cuda
import torch
import torch_musa
x = torch.zeros(3, device="musa")  # "cuda" in a comment stays
y = x.musa(); z = x.to('musa:1'); s = "cuda is fast"; f = f"cuda:{0}"
'''
    assert port(result.output, "m.py", "musa").output == result.output


def test_python_unchanged_for_hip_and_without_framework():
    assert port(PY, "m.py", "hip").output == PY
    assert port(PY, "m.py", "musa", framework=None).output == PY


@pytest.mark.parametrize("src, expected", [
    (b"import torch", b"import torch\nimport torch_musa\n"),
    (b"import torch\r\nimport torch_musa\r\n", b"import torch\r\nimport torch_musa\r\n"),
    (b"from torch import nn\r\nx = 1\r\n", b"from torch import nn\r\nimport torch_musa\r\nx = 1\r\n"),
    (b"import numpy\n", b"import numpy\n"),
    (b"from torch.cuda import (amp,\n    nvtx)\n",
     b"from torch.musa import (amp,\n    nvtx)\nimport torch_musa\n"),
])
def test_python_torch_musa_import(src, expected):
    assert port(src, "m.py", "musa").output == expected


def test_python_reports_cudnn_and_is_cuda():
    src = b"import torch\ntorch.backends.cudnn.benchmark = True\nok = t.is_cuda\n"
    codes = [f.code for f in port(src, "m.py", "musa").findings]
    assert codes == ["CP601", "CP606"]


def test_python_syntax_error_is_an_input_error():
    from cudaport.translate.pipeline import InputError

    with pytest.raises(InputError, match="bad.py"):
        port(b"def f(:\n  'x\n", "bad.py", "musa")


# ---- build scripts -------------------------------------------------------------------------

def test_setup_hip_reports_flags_and_changes_nothing():
    src = (FIXTURE / "src" / "setup.py").read_bytes()
    result = port(src, "setup.py", "hip")
    assert result.output == src
    assert [(f.line, f.code) for f in result.findings] == [
        (4, "CP603"), (4, "CP603"), (5, "CP603"), (5, "CP604"), (10, "CP602")]


def test_setup_musa_keeps_other_cpp_extension_names():
    src = (b"from torch.utils.cpp_extension import CUDA_HOME, CUDAExtension, BuildExtension\n"
           b"ext = CUDAExtension('m', ['k.cpp'], extra_compile_args={'nvcc': ['-O3']})\n")
    result = port(src, "pkg/setup.py", "musa")
    assert result.output == (
        b"from torch.utils.cpp_extension import CUDA_HOME, CUDAExtension, BuildExtension\n"
        b"from torch_musa.utils.musa_extension import MUSAExtension, BuildExtension\n"
        b"ext = MUSAExtension('m', ['k.cpp'], extra_compile_args={'mcc': ['-O3']})\n")
    assert [f.code for f in result.findings] == ["CP605"]  # CUDA_HOME
    assert port(result.output, "pkg/setup.py", "musa").output == result.output


# ---- command line and configuration ---------------------------------------------------------

def test_cli_framework_option(tmp_path):
    out = tmp_path / "out.cu"
    res = CliRunner().invoke(main, ["translate", str(FIXTURE / "src/scale_op/scale_kernel.cu"),
                                    "-t", "musa", "--framework", "pytorch", "-o", str(out), "-q",
                                    "--fail-on", "never"])
    assert res.exit_code == 0, res.output
    assert out.read_bytes() == (FIXTURE / "expected/musa/scale_op/scale_kernel.cu").read_bytes()


def test_config_framework_key(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.cudaport]\nframework = "pytorch"\n')
    kernel = tmp_path / "k.cu"
    kernel.write_bytes(b"#include <c10/cuda/CUDAGuard.h>\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-m", "cudaport", "translate", str(kernel), "-q"],
                         capture_output=True, env=env, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout == b"#include <c10/hip/HIPGuard.h>\n"
    (tmp_path / "pyproject.toml").write_text('[tool.cudaport]\nframework = "tensorflow"\n')
    res = subprocess.run([sys.executable, "-m", "cudaport", "translate", str(kernel), "-q"],
                         capture_output=True, env=env, cwd=tmp_path)
    assert res.returncode == 2 and b"pyproject.toml:2" in res.stderr


def test_framework_a_target_does_not_have_is_a_usage_error():
    res = CliRunner().invoke(main, ["translate", str(FIXTURE / "src/scale_op/binding.cpp"),
                                    "-t", "maca", "--framework", "pytorch"])
    assert res.exit_code == 2
    assert "maca has no pytorch rules" in res.output


def test_generator_reproduces_the_packs(tmp_path):
    reference = ROOT.parent / "shared" / "reference"
    for candidate in (reference, Path("/work/shared/reference")):
        if (candidate / "pytorch-rocm-extension.tsv").is_file():
            reference = candidate
            break
    else:
        pytest.skip("the reference facts (../shared/reference) are not on this machine")
    import shutil

    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, str(ROOT / "tools/gen_pytorch_rules.py"), "--reference",
                    str(reference), "--rules", str(rules)], check=True, env=env,
                   capture_output=True)
    for rel in ("hip/frameworks/pytorch/rocm.yaml", "musa/frameworks/pytorch/torch_musa.yaml"):
        assert (rules / rel).read_bytes() == (ROOT / "rules" / rel).read_bytes()


def test_pyproject_musa_needs_torch_musa_in_build_requires():
    src = b'[build-system]\nrequires = ["setuptools", "torch>=2.1"]\n'
    result = port(src, "pyproject.toml", "musa")
    assert result.output == src
    assert [(f.code, f.line) for f in result.findings] == [("CP605", 2)]
    assert not port(src, "pyproject.toml", "hip").findings
    ok = b'[build-system]\nrequires = ["torch", "torch_musa"]\n'
    assert not port(ok, "pyproject.toml", "musa").findings


@pytest.mark.parametrize("target", TARGETS)
def test_tree_translation_includes_python_side(tmp_path, target):
    """A folder with --framework: Python files and setup.py go through the Python side
    (written for MUSA; for HIP only reported, since ROCm PyTorch needs no change)."""
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["translate", str(FIXTURE / "src"), "-t", target,
                                    "--framework", "pytorch", "--out-dir", str(out),
                                    "--fail-on", "never"])
    assert res.exit_code == 0, res.output
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert written == sorted(str(rel) for rel in SOURCES)  # (the whole project)
    for rel in written:
        if target == "hip" and rel.endswith(".py"):  # (nothing to change for ROCm PyTorch)
            assert (out / rel).read_bytes() == (FIXTURE / "src" / rel).read_bytes()
            continue
        assert (out / rel).read_bytes() == (FIXTURE / "expected" / target / rel).read_bytes()
    if target == "hip":
        assert "CP603" in res.output and "CP602" in res.output


def test_setup_musa_python_side_and_builder_together():
    src = (b"import torch\n"
           b"from torch.utils.cpp_extension import CUDAExtension, BuildExtension\n"
           b"if torch.cuda.is_available():\n"
           b"    ext = CUDAExtension('m', ['k.cpp'], extra_compile_args={'nvcc': ['-O3']})\n")
    result = port(src, "setup.py", "musa")
    assert result.output == (
        b"import torch\n"
        b"from torch_musa.utils.musa_extension import MUSAExtension, BuildExtension\n"
        b"if torch.musa.is_available():\n"
        b"    ext = MUSAExtension('m', ['k.cpp'], extra_compile_args={'mcc': ['-O3']})\n")
    assert port(result.output, "setup.py", "musa").output == result.output


def test_musa_cuda_device_checks_are_reported():
    src = b"bool f(const at::Tensor& t) { return t.is_cuda() && t.device().type() == at::kCUDA; }\n"
    result = translate_bytes(src, Options(target="musa", framework="pytorch"))
    assert result.output == src
    assert [(f.code, f.identifier) for f in result.findings] == [
        ("CP101", "is_cuda"), ("CP101", "kCUDA")]
    assert not translate_bytes(src, Options(target="musa")).findings
