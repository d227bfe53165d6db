"""Headers CUDA's runtime header brings in and the target's main header does not.

cuda_runtime.h declares C99's classification functions (isfinite ...) in the global
namespace for host code; ROCm 6.4's hip/hip_runtime.h does not, so llm.c's ``validate_result`` (an
unqualified ``isfinite`` in a host template) stopped compiling after translation. The
translated file gets ``#include <math.h>`` after the main header when it needs it
(``main_header_companions`` in rules/hip/target.yaml).
"""

from __future__ import annotations


import pytest

from cudaport import Options, translate_bytes
from conftest import compile_hip

HOST_CHECK = b"""\
#include <cuda_runtime.h>
#include <stdio.h>
template <class T> int faults(const T* ref, int n) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (!isfinite(ref[i])) bad++;
  return bad;
}
int main() {
  float x[2] = {1.0f, 2.0f};
  printf("%d\\n", faults(x, 2));
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
"""


def _translate(src: bytes, **options) -> str:
    return translate_bytes(src, Options(**options), "check.cu").output.decode()


def test_math_header_follows_the_translated_runtime_header():
    out = _translate(HOST_CHECK)
    assert out.startswith("#include <hip/hip_runtime.h>\n#include <math.h>\n#include <stdio.h>\n")
    assert _translate(out.encode()) == out  # idempotent


@pytest.mark.parametrize("src", [
    HOST_CHECK.replace(b"#include <stdio.h>", b"#include <math.h>"),  # already there
    HOST_CHECK.replace(b"!isfinite(", b"!std::isfinite("),  # qualified: <cmath> has it
    HOST_CHECK.replace(b"!isfinite(", b"!ref->isfinite("),  # a member of the project's
    HOST_CHECK.replace(b"if (!isfinite(ref[i]))", b"// isfinite(x) in a comment\n"),
])
def test_no_math_header_when_not_needed(src):
    assert "<math.h>" not in _translate(src).replace(
        "#include <math.h>", "", src.count(b"#include <math.h>"))


def test_math_header_with_the_inserted_main_header():
    src = HOST_CHECK.replace(b"#include <cuda_runtime.h>\n", b"")
    out = _translate(src)
    assert out.startswith("#include <hip/hip_runtime.h>\n#include <math.h>\n")
    assert "<math.h>" not in _translate(src, insert_main_header=False)


def test_global_qualified_call_counts():
    out = _translate(HOST_CHECK.replace(b"!isfinite(", b"!::isfinite("))
    assert "#include <math.h>" in out


@pytest.mark.slow
@pytest.mark.parametrize("toolchain,version", [("rocm", "6.4"), ("system", "5.2")])
def test_translated_host_check_compiles(tmp_path, toolchain, version):
    path = tmp_path / "check.hip"
    path.write_bytes(_translate(HOST_CHECK, target_version=version).encode())
    compile_hip(path, toolchain)


SEQUENCE = b"""\
#include <cuda_runtime.h>
#include "thrust/device_ptr.h"
#include "thrust/for_each.h"
#include "thrust/iterator/zip_iterator.h"
#include "thrust/sort.h"
void reset(unsigned *keys, int n) {
  thrust::device_ptr<unsigned> d(keys);
  thrust::sequence(d, d + n);
}
"""


def test_thrust_sequence_header_follows_the_files_thrust_includes():
    # cuda-samples' smokeParticles: CCCL's thrust headers bring thrust::sequence in,
    # rocThrust 6.4's do not (library_companions in rules/hip/target.yaml).
    out = _translate(SEQUENCE)
    assert '#include "thrust/sort.h"\n#include <thrust/sequence.h>\nvoid reset' in out
    assert _translate(out.encode()) == out
    has_it = SEQUENCE.replace(b'#include "thrust/sort.h"', b"#include <thrust/sequence.h>")
    assert _translate(has_it).count("thrust/sequence.h") == 1
    no_thrust = b"void f() { my::thrust::sequence(1); }\n"  # not thrust's, no thrust include
    assert _translate(no_thrust) == no_thrust.decode()


@pytest.mark.slow
def test_thrust_sequence_translation_compiles_with_rocm_6_4(tmp_path):
    path = tmp_path / "sequence.hip"
    path.write_bytes(_translate(SEQUENCE).encode())
    compile_hip(path, "rocm")


def test_string_header_follows_when_memset_is_called():
    """nvcc's runtime header brings <string.h>; ROCm 7.2's hip_runtime.h does not."""
    src = (b"#include <cuda_runtime.h>\n"
           b"void zero(float* a, size_t n) { memset(a, 0, n * sizeof(float)); }\n")
    out = translate_bytes(src, Options(target_version="7.2"), "z.cu").output
    assert out.startswith(b"#include <hip/hip_runtime.h>\n#include <string.h>\n")
    own = src.replace(b"#include <cuda_runtime.h>\n", b"#include <cuda_runtime.h>\n#include <string.h>\n")
    assert translate_bytes(own, Options(target_version="7.2"), "z.cu").output.count(b"string.h") == 1
