"""Call-level test programs (tests/data/calls/*.cu, valid CUDA checked with nvcc 13) compile
after translation with ROCm 6.4's hipcc, in every library variant and with --launch hip.

Each program exercises the common calls of one library (cuBLAS with GemmEx, batched,
complex, half and bf16; cuSPARSE generic SpMV/SpMM, SpSV and ilu02 with solve policies;
cuRAND host and device API; cuFFT; cuSOLVER dense; cuDNN convolution, activation,
softmax, pooling; the runtime with launches). A
combination that does not compile yet is listed in NOT_YET with the reason, as a strict
xfail: it fails the run once it compiles, so the list only shrinks.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from cudaport import Options, translate_bytes
from cudaport.run.verify import find_compiler

CALLS = Path(__file__).parent / "data" / "calls"

# program -> the variant group of its library (None: no variants)
PROGRAMS = {
    "runtime_calls.cu": None,
    "cublas_calls.cu": "blas",
    "cublas_bf16_calls.cu": "blas",
    "curand_calls.cu": "rand",
    "cufft_calls.cu": None,
    "cusolver_calls.cu": "solver",
    "cusparse_calls.cu": "sparse",
    "cudnn_calls.cu": "dnn",
}
CHOICES = {"blas": ("hipblas", "rocblas"), "rand": ("hiprand", "rocrand"),
           "solver": ("hipsolver", "rocsolver"), "sparse": ("hipsparse", "rocsparse"),
           "dnn": ("miopen",)}  # (hipDNN, the other --dnn choice, is not in ROCm 6.4)

NOT_YET: dict = {}


def _cases():
    for program, group in PROGRAMS.items():
        variants = CHOICES[group] if group else ("default",)
        for choice in variants:
            for launch in ("cuda", "hip"):
                marks = ()
                if (program, choice) in NOT_YET:
                    marks = pytest.mark.xfail(strict=True, reason=NOT_YET[(program, choice)])
                yield pytest.param(program, group, choice, launch, marks=marks,
                                   id=f"{program[:-3]}-{choice}-launch_{launch}")


@pytest.fixture(scope="module", params=["7.2", "6.4"])
def rocm(request):
    """Each ROCm folder; the call programs are translated for its HIP version and compiled
    to object code."""
    found = find_compiler(toolchain="rocm", rocm=request.param)
    if found is None:
        if os.environ.get("CUDAPORT_SKIP_HIP") == "1":
            pytest.skip("no ROCm toolchain and CUDAPORT_SKIP_HIP=1")
        pytest.fail(f"no ROCm {request.param} toolchain: run tools/setup-system.sh")
    return found


@pytest.mark.slow
@pytest.mark.parametrize("program, group, choice, launch", list(_cases()))
def test_call_program_compiles_with_each_rocm(rocm, tmp_path, program, group, choice, launch):
    variants = ((group, choice),) if group else ()
    result = translate_bytes((CALLS / program).read_bytes(),
                             Options(variants=variants, launch=launch,
                                     target_version=rocm.hip_version), program)
    out = result.output.decode()
    if launch == "hip" and "<<<" in (CALLS / program).read_text():
        assert "hipLaunchKernelGGL(" in out  # (::ns::kernel<<<>>> is issue 17's launch part)
    path = tmp_path / (program[:-3] + ".hip")
    path.write_bytes(result.output)
    proc = subprocess.run(rocm.command(path, flags=["-std=c++17"]), capture_output=True, text=True,
                          env={**os.environ, **dict(rocm.env)})
    assert proc.returncode == 0, proc.stderr[-3000:]


# HIP 5.2 (the host's Debian packages) has hipRAND/rocRAND and hipSPARSE/rocSPARSE only.
NOT_YET_52 = {
    ("curand_calls.cu", "rocrand"):
        "rocrand_create_generator_host_blocking (curandCreateGeneratorHost) needs a newer "
        "ROCm (reported as CP107)",
    ("cusparse_calls.cu", "hipsparse"):
        "HIP 5.2's hipSPARSE lacks HIPSPARSE_ORDER_COL and takes another hipsparseSpSV_solve "
        "(reported: the name needs a newer target)",
    ("cusparse_calls.cu", "rocsparse"):
        "HIP 5.2's rocsparse_spmv (rocSPARSE 2.3) takes no stage argument: the buffer size "
        "query and the compute call are one form there, and the rules give the 6.x form",
}


def _cases_52():
    for program, group in (("curand_calls.cu", "rand"), ("cusparse_calls.cu", "sparse")):
        for choice in CHOICES[group]:
            reason = NOT_YET_52.get((program, choice))
            marks = pytest.mark.xfail(strict=True, reason=reason) if reason else ()
            yield pytest.param(program, group, choice, marks=marks,
                               id=f"{program[:-3]}-{choice}")


@pytest.mark.slow
@pytest.mark.parametrize("program, group, choice", list(_cases_52()))
def test_call_program_compiles_with_hip_5_2(tmp_path, program, group, choice):
    system = find_compiler(toolchain="system")
    if system is None:
        if os.environ.get("CUDAPORT_SKIP_HIP") == "1":
            pytest.skip("no HIP compiler and CUDAPORT_SKIP_HIP=1")
        pytest.fail("no HIP compiler: run tools/setup-system.sh (clang-15, libamdhip64-dev)")
    result = translate_bytes((CALLS / program).read_bytes(),
                             Options(variants=((group, choice),), target_version="5.2"), program)
    path = tmp_path / (program[:-3] + ".hip")
    path.write_bytes(result.output)
    proc = subprocess.run(system.command(path, flags=["-std=c++17"]), capture_output=True,
                          text=True, env={**os.environ, **dict(system.env)})
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_miopen_calls_are_rewritten_in_miopen_order():
    src = (b"#include <cudnn.h>\nvoid f(cudnnHandle_t h, cudnnTensorDescriptor_t xd, float *x,\n"
           b"       cudnnTensorDescriptor_t yd, float *y, const float *a, const float *b) {\n"
           b"  cudnnSoftmaxForward(h, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, a, xd, x,"
           b" b, yd, y);\n  cudnnSetTensor4dDescriptor(xd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT,"
           b" 1, 2, 3, 4);\n  cudnnAddTensor(h, a, xd, x, b, yd, y);\n}\n")
    result = translate_bytes(src, Options(), "dnn.cu")
    out = result.output.decode()
    assert ("miopenSoftmaxForward_V2(h, a, xd, x, b, yd, y, MIOPEN_SOFTMAX_ACCURATE, "
            "MIOPEN_SOFTMAX_MODE_CHANNEL);") in out
    assert "miopenSet4dTensorDescriptor(xd, miopenFloat, 1, 2, 3, 4);" in out
    assert ("miopenOpTensor(h, miopenTensorOpAdd, b, yd, y, a, xd, x, "
            "&static_cast<const double&>(0.0), yd, y);") in out
    notes = [f for f in result.findings if f.code == "CP108" and f.line in (5, 6)]
    assert {f.line for f in notes} == {5, 6}  # the dropped format and the rewrite are noted


def test_miopen_tanh_activation_keeps_its_formula():
    """cuDNN's TANH is tanh(x) and ignores coef; MIOpen's is beta * tanh(alpha * x). dlib's
    cudnn_dlibapi.cpp passes coef 0 for every mode, with the mode in a variable: coef as
    alpha and beta 0 made every tanh layer output 0. A TANH mode gets alpha = beta = 1; the
    others keep coef as alpha (CLIPPED_RELU's threshold, ELU's alpha) and beta 0."""
    src = (b"#include <cudnn.h>\nvoid f(cudnnActivationDescriptor_t d, cudnnActivationMode_t m,"
           b" double coef) {\n  cudnnSetActivationDescriptor(d, m, CUDNN_PROPAGATE_NAN, coef);\n"
           b"  cudnnSetActivationDescriptor(d, CUDNN_ACTIVATION_CLIPPED_RELU,"
           b" CUDNN_NOT_PROPAGATE_NAN, 6.0);\n}\n")
    result = translate_bytes(src, Options(target_version="7.2"), "act.cu")
    out = result.output.decode()
    assert ("miopenSetActivationDescriptor(d, m, (m) == miopenActivationTANH ? 1.0 : (coef), "
            "(m) == miopenActivationTANH ? 1.0 : 0.0, 0.0);") in out
    assert ("miopenSetActivationDescriptor(d, miopenActivationCLIPPEDRELU, "
            "(miopenActivationCLIPPEDRELU) == miopenActivationTANH ? 1.0 : (6.0), "
            "(miopenActivationCLIPPEDRELU) == miopenActivationTANH ? 1.0 : 0.0, 0.0);") in out
    assert translate_bytes(result.output, Options(target_version="7.2")).output == result.output
    notes = [f for f in result.findings if f.code == "CP108"]
    assert notes and all("TANH" in f.message and f.severity == "info" for f in notes)


def test_every_program_is_listed():
    # (runtime.cu, driver.cu and libraries.cu are tests/test_rules_compile.py's programs.)
    assert sorted(p.name for p in CALLS.glob("*_calls.cu")) == sorted(PROGRAMS)


def test_legacy_cublas_is_reported_not_renamed():
    """cublas.h (the handle-less v1 API) has no HIP form: the include and its handle-less
    helpers are CP130 errors and stay as written (hipBLAS has no cublasAlloc)."""
    src = (b"#include <cublas.h>\nvoid f(int n, float **d) {\n  cublasAlloc(n, 4, (void **)d);\n"
           b"  cublasStatus s = cublasGetError();\n  cublasFree(*d);\n  cublasShutdown();\n}\n")
    result = translate_bytes(src, Options(), "legacy.cu")
    out = result.output.decode()
    assert "#include <cublas.h>" in out and "hipblas.h" not in out
    for name in ("cublasAlloc", "cublasGetError", "cublasFree", "cublasShutdown"):
        assert f"{name}(" in out
    codes = sorted((f.line, f.code) for f in result.findings if f.code == "CP130")
    assert codes == [(1, "CP130"), (3, "CP130"), (4, "CP130"), (5, "CP130"), (6, "CP130")]
    assert all(f.severity == "error" for f in result.findings if f.code == "CP130")


def test_rocsparse_dense_order_is_not_crossed():
    """The HIPIFY table maps CUSPARSE_ORDER_COL to rocsparse_order_row (and back), which
    compiles and transposes every dense matrix; rules/hip/rocsparse-fixes.yaml corrects it."""
    src = b"#include <cusparse.h>\nint a = CUSPARSE_ORDER_COL, b = CUSPARSE_ORDER_ROW;\n"
    out = translate_bytes(src, Options(variants=(("sparse", "rocsparse"),))).output.decode()
    assert "int a = rocsparse_order_column, b = rocsparse_order_row;" in out


def test_variant_arguments_are_spelled_for_the_callee():
    """rules/hip/rocsparse-calls.yaml's ``arguments:``: a CUDA data type passed to a
    cuSPARSE call becomes rocSPARSE's under --sparse rocsparse, and stays hipBLAS's
    elsewhere; rocSOLVER calls get rocBLAS's fill mode whatever --blas says."""
    src = (b"#include <cusparse.h>\nvoid f(cusparseDnVecDescr_t *v, float *x) {\n"
           b"  cudaDataType t = CUDA_R_32F;\n  cusparseCreateDnVec(v, 4, x, CUDA_R_64F);\n}\n")
    out = translate_bytes(src, Options(variants=(("sparse", "rocsparse"),))).output.decode()
    assert "hipDataType t = HIP_R_32F;" in out
    # (the constant goes through the converter a cudaDataType variable needs: unchanged)
    assert "rocsparse_create_dnvec_descr(v, 4, x, [](auto cudaport_t) {" in out
    assert "else return cudaport_t; }(rocsparse_datatype_f64_r));" in out
    src = (b"#include <cusolverDn.h>\nvoid f(cusolverDnHandle_t h, float *A, int *info) {\n"
           b"  cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, 4, A, 4, nullptr, 0, info);\n}\n")
    out = translate_bytes(src, Options(variants=(("solver", "rocsolver"),
                                                 ("blas", "hipblas")))).output.decode()
    assert "rocsolver_spotrf(h, static_cast<rocblas_fill>(rocblas_fill_lower), 4, A, 4, info);" in out
