"""cublasSetWorkspace ports to hipblasSetWorkspace (ROCm 7.2) or rocblas_set_workspace."""

from __future__ import annotations

import pytest

from cudaport import Options, translate_bytes
from tests.conftest import compile_object

SOURCE = b"""\
#include <cublas_v2.h>
cublasStatus_t use(cublasHandle_t h, void* w, size_t n) {
  cublasStatus_t s = cublasSetWorkspace(h, w, n);
  return s != CUBLAS_STATUS_SUCCESS ? s : cublasSetWorkspace_v2(h, w, n);
}
"""


def test_workspace_ports_per_variant_and_version():
    r = translate_bytes(SOURCE, Options())
    assert b"hipblasStatus_t s = hipblasSetWorkspace(h, w, n);" in r.output
    assert b": hipblasSetWorkspace(h, w, n);" in r.output
    assert not [f for f in r.findings if f.severity == "error"]
    old = translate_bytes(SOURCE, Options(target_version="6.4"))
    assert {f.identifier for f in old.findings if f.code == "CP107"} == {
        "cublasSetWorkspace", "cublasSetWorkspace_v2"}
    roc = translate_bytes(SOURCE, Options(target_version="6.4",
                                          variants=(("blas", "rocblas"),)))
    assert b"rocblas_set_workspace(h, w, n);" in roc.output
    assert not [f for f in roc.findings if f.severity == "error"]


@pytest.mark.slow
def test_translation_compiles_with_rocm_7_2(tmp_path):
    path = tmp_path / "workspace.hip"
    path.write_bytes(translate_bytes(SOURCE, Options()).output)
    compile_object(path, "gfx942")
