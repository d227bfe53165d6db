"""Every ported library call compiles (issue 31).

tests/data/libcalls/*.cu hold one call of every CUDA library function the HIP rules map,
with arguments of the types the CUDA 13 headers declare (tools/gen_lib_calls.py). Each file
is translated for every variant of its library with --hip-version 7.2 and 6.4 and compiled
to an object file with that ROCm (tools/lib_calls.py); a call the translation reports with
an error finding (left for the user to rewrite) is set aside, and every other call must
compile. bench/lib_calls.py prints the same as a table.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "libcalls"


def _tool(name: str):
    if name in sys.modules:
        return sys.modules[name]
    sys.path.insert(0, str(ROOT / "tools"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


L = _tool("lib_calls")
GEN = _tool("gen_lib_calls")

# Calls that do not compile yet: (file stem, choice, version) -> {CUDA name: why}. Strict:
# a call listed here that compiles, or one that fails and is not listed, fails the test.
NOT_YET_FILE = DATA / "not-yet.tsv"


def _not_yet() -> dict[tuple[str, str, str], dict[str, str]]:
    return L.read_not_yet(NOT_YET_FILE)


def test_every_mapped_function_has_a_generated_call():
    """A new mapping (or a new library in the generator) without a regenerated call fails
    here: rerun tools/gen_lib_calls.py, then the compile tests check the new call."""
    from cudaport.rules.loader import default_rules_root, load_table
    table = load_table("hip", [default_rules_root()])
    covered: dict[str, set[str]] = {}
    for stem, (library, *_rest) in GEN.FILES.items():
        text = (DATA / f"{stem}.cu").read_text()
        _, found = L.blocks(text.encode())
        names = covered.setdefault(library, set())
        names.update(name for name, _ in found)
        for line in text.splitlines():
            if line.startswith("// undeclared: "):
                names.update(line.split(": ", 1)[1].split())
    for library, names in covered.items():
        assert set(GEN.mapped_names(table, library)) == names, library


def test_every_file_and_variant_is_checked():
    assert sorted(p.stem for p in DATA.glob("*.cu")) == sorted(L.GROUPS) == sorted(GEN.FILES)


def _cases():
    for stem in L.GROUPS:
        for choice in L.choices(stem):
            for version in L.VERSIONS:
                marks = ()
                if choice in L.UNAVAILABLE:
                    marks = pytest.mark.skip(reason=L.UNAVAILABLE[choice])
                yield pytest.param(stem, choice, version, marks=marks,
                                   id=f"{stem}-{choice}-{version}")


@pytest.mark.slow
@pytest.mark.parametrize("stem, choice, version", list(_cases()))
def test_ported_calls_compile(stem, choice, version):
    hipcc = L.compiler(version)
    if hipcc is None:
        import os
        if os.environ.get("CUDAPORT_SKIP_HIP") == "1":
            pytest.skip(f"no ROCm {version} toolchain and CUDAPORT_SKIP_HIP=1")
        pytest.fail(f"no ROCm {version} toolchain: run tools/setup-rocm.sh {version}")
    outcome = L.run(stem, choice, version, hipcc)
    expected = _not_yet().get((stem, choice, version), {})
    assert not outcome.file_errors, outcome.file_errors[:5]
    failing = {name: message for name, message in outcome.errors.items()}
    fixed = sorted(set(expected) - set(failing))
    new = {name: message for name, message in failing.items() if name not in expected}
    assert not new, f"calls that do not compile: {new}"
    assert not fixed, f"calls that compile now (drop them from {NOT_YET_FILE.name}): {fixed}"


def test_library_types_follow_the_library_header():
    """rocblas.h declares neither hipComplex nor __half, which cublas_v2.h brought in
    through cublas_api.h: the translation includes their headers after it; hipblas.h
    declares the complex types (hip/hip_complex.h) but not __half."""
    from cudaport import Options, translate_bytes
    src = (b"#include <cublas_v2.h>\nvoid f(cublasHandle_t h, cuComplex *x, __half *y,\n"
           b"       __nv_bfloat16 *z) {}\n")
    out = translate_bytes(src, Options(variants=(("blas", "rocblas"),),
                                       target_version="7.2")).output.decode()
    assert out.startswith("#include <rocblas/rocblas.h>\n#include <hip/hip_complex.h>\n"
                          "#include <hip/hip_fp16.h>\n#include <hip/hip_bf16.h>\nvoid f(")
    out = translate_bytes(src, Options(target_version="6.4")).output.decode()
    assert out.startswith("#include <hipblas/hipblas.h>\n#include <hip/hip_fp16.h>\n"
                          "#include <hip/hip_bf16.h>\nvoid f(")
    # cuda_fp16.h's `half` and `half2` (no rule's names: a word the code holds) count too
    src = b"#include <cublas_v2.h>\nvoid f(cublasHandle_t h, half *y, half2 *z) {}\n"
    out = translate_bytes(src, Options(target_version="7.2")).output.decode()
    assert out.startswith("#include <hipblas/hipblas.h>\n#include <hip/hip_fp16.h>\nvoid f(")
    src = b"#include <cublas_v2.h>\nvoid f(cublasHandle_t h) {}  // half\n"
    assert b"hip_fp16.h" not in translate_bytes(src, Options(target_version="7.2")).output
    # A file that includes the type header itself, or uses none of its names, gets nothing.
    src = b"#include <cuComplex.h>\n#include <cusparse.h>\nvoid f(cuComplex *x) {}\n"
    out = translate_bytes(src, Options(variants=(("sparse", "rocsparse"),))).output.decode()
    assert out.count("hip_complex.h") == 1
    src = b"#include <cusparse.h>\nvoid f(float *x) {}\n"
    out = translate_bytes(src, Options(variants=(("sparse", "rocsparse"),))).output.decode()
    assert "hip_complex.h" not in out
    # Translating the output again changes nothing.
    src = b"#include <cusolverDn.h>\nvoid f(cuDoubleComplex *x) {}\n"
    once = translate_bytes(src, Options(variants=(("solver", "rocsolver"),))).output
    assert b"#include <hip/hip_complex.h>\n" in once
    assert translate_bytes(once, Options(variants=(("solver", "rocsolver"),))).output == once


def test_miopen_beta_macro_only_where_the_backend_api_is_used():
    """miopen.h declares the backend API (miopenBackendCreateDescriptor ...) only with
    MIOPEN_BETA_API defined: a file calling it gets the macro before its first include; a
    file that includes the runtime and a project header does not (that is for the main
    header's own macros)."""
    from cudaport import Options, translate_bytes
    src = (b"#include <cudnn.h>\nvoid f(cudnnBackendDescriptor_t *d) {\n"
           b"  cudnnBackendCreateDescriptor(CUDNN_BACKEND_TENSOR_DESCRIPTOR, d);\n}\n")
    out = translate_bytes(src, Options(target_version="7.2")).output.decode()
    assert out.startswith("#ifndef MIOPEN_BETA_API\n#define MIOPEN_BETA_API\n#endif\n"
                          "#include <miopen/miopen.h>\n")
    src = b'#include <cuda_runtime.h>\n#include "common.h"\nint main() { return 0; }\n'
    assert b"MIOPEN_BETA_API" not in translate_bytes(src, Options(target_version="7.2")).output


def test_legacy_cublas_calls_stay_with_their_header():
    """A file on cuBLAS's legacy API (cublas.h: no handle) keeps its BLAS calls as written,
    as it keeps the include (CP130): renamed, hipblasSscal(n, alpha, x, incx) would lack
    the handle hipBLAS and rocBLAS take first, and not compile. With cublas_v2.h the same
    names are the handle API's and are ported."""
    from cudaport import Options, translate_bytes
    src = (b"#include <cublas.h>\nvoid f(int n, float a, float *x) {\n"
           b"  cublasSscal(n, a, x, 1);\n  cublasStatus_t s = cublasGetError();\n}\n")
    for choice in ("hipblas", "rocblas"):
        result = translate_bytes(src, Options(variants=(("blas", choice),)), "legacy.cu")
        assert result.output == src
        errors = sorted((f.line, f.code) for f in result.findings if f.severity == "error")
        assert errors == [(1, "CP130"), (3, "CP130"), (4, "CP130")]
        assert all(r.status == "unsupported" for r in result.references
                   if r.identifier.startswith("cublas") and r.context == "code")
    v2 = src.replace(b"cublas.h", b"cublas_v2.h").replace(b"(n, a, x, 1)", b"(h, n, &a, x, 1)")
    out = translate_bytes(v2, Options(), "v2.cu").output
    assert b"hipblasSscal(h, n, &a, x, 1);" in out


_PTSZ = (b"#include <cuda_runtime.h>\n__global__ void k(int *p) { p[0] = 1; }\n"
         b"cudaError_t f(int *p, cudaStream_t s) {\n"
         b"  void *args[] = {&p};\n"
         b"  if (cudaLaunchKernelExC_ptsz(nullptr, (const void *)k, args) != cudaSuccess) return cudaErrorUnknown;\n"
         b"  return cudaLaunchKernel_ptsz((const void *)k, dim3(1), dim3(1), args, 0, s);\n}\n")


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_per_thread_stream_launches(tmp_path, version):
    """cuda_runtime_api.h declares cudaLaunchKernel_ptsz and cudaLaunchKernelExC_ptsz only
    under --default-stream per-thread (so tools/gen_lib_calls.py lists them undeclared):
    the first is hipLaunchKernel_spt, which HIP declares with the same parameters; the
    second is the portable header's cudaport_launch_kernel_ex_c_ptsz on 7.2 (stream 0 is
    hipStreamPerThread), and on 6.4, which has no hipLaunchKernelExC, a CP107 by name; the
    translation compiles (on 6.4 without the reported line)."""
    from cudaport import Options, translate_bytes
    from conftest import compile_object
    result = translate_bytes(_PTSZ, Options(target_version=version), "ptsz.cu")
    out = result.output.decode()
    assert "return hipLaunchKernel_spt((const void *)k, dim3(1), dim3(1), args, 0, s);" in out
    errors = [(f.line, f.code) for f in result.findings if f.severity == "error"]
    path = tmp_path / "ptsz.hip"
    if version == "7.2":
        assert errors == [] and "if (cudaport_launch_kernel_ex_c_ptsz(nullptr, (const void *)k, args)" in out
        assert "c.stream = hipStreamPerThread;" in out
        path.write_text(out)
    else:
        assert errors == [(5, "CP107")] and "cudaport_" not in out
        line = next(t for t in out.splitlines() if "cudaLaunchKernelExC_ptsz" in t)
        path.write_text(out.replace(line + "\n", ""))  # (the reported line)
    compile_object(path, "gfx942", version)
