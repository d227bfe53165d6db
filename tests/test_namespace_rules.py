"""Namespace rules (``kind: namespace``) count only where the name is used as that
namespace: aiter's own ``struct wmma`` and ``wmma<...>`` (csrc/include/opus/opus.hpp) were
47 WMMA errors (CP112) on a HIP file; ``nvcuda::wmma`` with <mma.h> still is WMMA (ported to
rocWMMA, CP112 where its shape is not rocWMMA's: tests/test_wmma.py)."""

from __future__ import annotations

from cudaport.translate.pipeline import translate_source

OWN = """\
namespace opus {
template <typename A, int M>
struct wmma { static constexpr int m = M; };
using wmma_f32 = wmma<float, 16>;
template <typename W> struct wmma_adaptor : W { using wmma_type = W; };
inline int f() { return opus::wmma<float, 8>::m + wmma_f32::m; }
}
"""

CUDA = """\
#include <mma.h>
using namespace nvcuda;
__global__ void k(half *a) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> f;
  nvcuda::wmma::load_matrix_sync(f, a, 16);
}
"""


def _wmma(src: str) -> list[tuple[int, str]]:
    result = translate_source(src)
    return [(f.line, f.identifier) for f in result.findings if f.code == "CP112"]


def test_a_projects_own_wmma_is_not_wmma():
    result = translate_source(OWN)
    assert [f for f in result.findings if f.severity == "error"] == []
    assert not [r for r in result.references if r.identifier == "wmma"]


def test_nvcuda_wmma_is():
    assert _wmma(CUDA) == []  # rocWMMA runs it
    assert _wmma(CUDA.replace("16, 16, 16", "32, 8, 16")) == [(4, "fragment")]


def test_unqualified_wmma_needs_the_outer_namespace_in_the_file():
    # `wmma::` with no nvcuda in sight is some other wmma (a project namespace)
    frag = "wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> f;\n"
    assert _wmma(frag) == []
    assert _wmma("using namespace nvcuda;\n" + frag) == [(2, "fragment")]
