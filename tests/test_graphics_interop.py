"""OpenGL interop as CUDA's samples write it (simpleGL, particles, nbody).

- ``cuda_gl_interop.h`` before ``cuda_runtime.h``: CUDA's header includes the runtime API
  itself, HIP's ``hip/hip_gl_interop.h`` does not, so the main header goes before it.
  HIP 5.2 declares the GL functions in ``hip/hip_runtime_api.h`` (no GL header yet).
- ``struct cudaGraphicsResource *``: HIP's ``hipGraphicsResource`` is a typedef of
  ``struct _hipGraphicsResource``, and an elaborated typedef name does not compile, so the
  tag is emitted after ``struct`` (``struct_tags`` in rules/hip/target.yaml).
- ``cudaGraphicsMapFlagsWriteDiscard`` passed as a register flag: HIP's register flag of
  the same value (HIP has no map flags).
- ``cudaGraphicsResourceSetMapFlags`` (nbody): usage hints HIP has no call for; a no-op
  that returns hipSuccess.
"""

from __future__ import annotations

import pytest

from conftest import compile_hip
from cudaport import Options, translate_bytes

SAMPLE = b"""\
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

struct cudaGraphicsResource *vbo_resource;

void createVBO(unsigned int vbo, struct cudaGraphicsResource **res, unsigned int flags) {
  cudaGraphicsGLRegisterBuffer(res, vbo, flags);
}

__global__ void kernel(float4 *pos) { pos[threadIdx.x].x = 1.0f; }

int main() {
  createVBO(1, &vbo_resource, cudaGraphicsMapFlagsWriteDiscard);
  cudaGraphicsMapResources(1, &vbo_resource, 0);
  float4 *dptr;
  size_t bytes;
  cudaGraphicsResourceGetMappedPointer((void **)&dptr, &bytes, vbo_resource);
  kernel<<<1, 32>>>(dptr);
  cudaGraphicsUnmapResources(1, &vbo_resource, 0);
  if (cudaGraphicsResourceSetMapFlags(vbo_resource, cudaGraphicsMapFlagsReadOnly) != cudaSuccess)
    return 1;
  return cudaGraphicsMapFlagsNone + cudaGraphicsMapFlagsReadOnly;
}
"""


def _translate(src: bytes, version: str = "6.4") -> tuple[str, list]:
    result = translate_bytes(src, Options(target_version=version), "simpleGL.cu")
    return result.output.decode(), result.findings


def test_runtime_header_goes_before_the_gl_header():
    out, _ = _translate(SAMPLE)
    assert out.startswith("#include <hip/hip_runtime.h>\n#include <hip/hip_gl_interop.h>\n")
    assert _translate(out.encode())[0] == out  # idempotent
    old, _ = _translate(SAMPLE, "5.2")
    assert "#include <hip/hip_runtime_api.h>\n" in old and "hip_gl_interop" not in old


def test_struct_tag_and_register_flags():
    out, findings = _translate(SAMPLE)
    assert "struct _hipGraphicsResource *vbo_resource;" in out
    assert "struct _hipGraphicsResource **res" in out
    assert "struct hipGraphicsResource" not in out
    assert "createVBO(1, &vbo_resource, hipGraphicsRegisterFlagsWriteDiscard);" in out
    assert "hipGraphicsRegisterFlagsNone + hipGraphicsRegisterFlagsReadOnly" in out
    notes = [f for f in findings if f.code == "CP108" and "map flags" in f.message]
    assert len(notes) == 4 and all(f.severity != "error" for f in findings)
    assert any("no-op returning hipSuccess" in f.message for f in findings)
    assert ("if (static_cast<hipError_t>(((void)(vbo_resource), "
            "(void)(hipGraphicsRegisterFlagsReadOnly), hipSuccess)) != hipSuccess)") in out


def test_plain_type_name_keeps_the_typedef():
    out, _ = _translate(b"#include <cuda_runtime.h>\ncudaGraphicsResource *r;\n"
                        b"struct mystruct { cudaGraphicsResource *r; };\n")
    assert "hipGraphicsResource *r;" in out and "_hipGraphicsResource" not in out


@pytest.mark.slow
@pytest.mark.parametrize("toolchain,version", [("rocm", "6.4"), ("system", "5.2")])
def test_translated_sample_compiles(tmp_path, toolchain, version):
    path = tmp_path / "simpleGL.hip"
    path.write_text(_translate(SAMPLE, version)[0])
    compile_hip(path, toolchain)
