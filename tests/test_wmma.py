"""CUDA's warp matrix functions (<mma.h>, nvcuda::wmma) ported to AMD's rocWMMA.

The include becomes rules/hip/inline/wmma.h: rocWMMA's header and `namespace nvcuda {
namespace wmma = ::rocwmma; }`, so every spelling of the code reaches rocWMMA's names, which
have CUDA's meaning and argument order (pinned against rocwmma/rocwmma.hpp below). What
rocWMMA cannot run is CP112 naming the shape or type; x[] indexing is CP236 (warning);
WMMA work split into 32-thread warps on a 64-lane wavefront is CP237.

No CPU can run a fragment, so there is no host-side semantic check: the tests pin each
piece of the mapping instead (the name rocWMMA declares for it, with CUDA's arguments), and
the slow tests compile for gfx942, gfx90a and gfx1100 and look for the matrix instruction
(v_mfma_* on CDNA, v_wmma_* on RDNA) in the device code.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from cudaport import Options, translate_bytes
from conftest import rocm_wrapper

GEMM = b"""\
#include <mma.h>
using namespace nvcuda;
__global__ void gemm16(const half* a, const half* b, float* c, float scale) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  for (int i = 0; i < acc.num_elements; i++) acc.x[i] *= scale;
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
__global__ void imma16(const signed char* a, const signed char* b, int* c) {
  namespace w = nvcuda::wmma;
  w::fragment<w::matrix_a, 16, 16, 16, signed char, w::row_major> fa;
  w::fragment<w::matrix_b, 16, 16, 16, signed char, w::col_major> fb;
  w::fragment<w::accumulator, 16, 16, 16, int> acc;
  w::fill_fragment(acc, 0);
  w::load_matrix_sync(fa, a, 16);
  w::load_matrix_sync(fb, b, 16);
  w::mma_sync(acc, fa, fb, acc);
  w::store_matrix_sync(c, acc, 16, w::mem_col_major);
}
"""


def _translate(src: bytes, **options):
    return translate_bytes(src, Options(**options), "gemm.cu")


def _codes(src: bytes, **options) -> list[tuple[str, int, str]]:
    return [(f.code, f.line, f.message) for f in _translate(src, **options).findings
            if f.code in ("CP112", "CP236", "CP237", "CP238")]


def test_include_becomes_rocwmma_and_nvcuda_wmma_names_it():
    result = _translate(GEMM)
    out = result.output.decode()
    assert "#include <rocwmma/rocwmma.hpp>" in out
    assert "namespace nvcuda { namespace wmma = ::rocwmma; }" in out
    assert "#include <mma.h>" not in out
    # the code itself keeps its spelling: only the include line changed
    assert out.split("#endif\n", 1)[1] == GEMM.decode().split("\n", 1)[1]
    assert not [f for f in result.findings if f.severity == "error"]
    assert _translate(result.output).output == result.output  # idempotent


@pytest.mark.parametrize("header", ["mma.h", "crt/mma.h", "crt/mma.hpp"])
def test_every_spelling_of_the_header(header):
    out = _translate(f"#include <{header}>\n".encode()).output.decode()
    assert "#include <rocwmma/rocwmma.hpp>" in out and f"<{header}>" not in out.split("*/")[1]


def test_supported_fragments_port_with_only_the_element_and_arch_warnings():
    found = [(c, line) for c, line, _ in _codes(GEMM)]
    assert found == [("CP236", 11), ("CP238", 16), ("CP238", 17)]  # (8-bit: not on gfx942)


FRAGMENT = "wmma::fragment<wmma::matrix_a, {shape}, {type}, wmma::row_major> f;"


@pytest.mark.parametrize("shape,type,expected", [
    ("32, 8, 16", "half", "shape m32n8k16"),
    ("8, 32, 16", "half", "shape m8n32k16"),
    ("8, 8, 4", "double", "double fragment"),
    ("16, 16, 8", "wmma::precision::tf32", "precision::tf32"),
    ("16, 16, 16", "__nv_bfloat16", "__nv_bfloat16 fragment: rocWMMA takes hip_bfloat16"),
    ("16, 16, 16", "unsigned char", "signed 8-bit integers only"),
    ("16, 16, 16", "uint8_t", "signed 8-bit integers only"),
    ("8, 8, 32", "wmma::experimental::precision::s4", "s4 fragments"),
    ("8, 8, 32", "wmma::experimental::precision::u4", "u4 fragments"),
    ("8, 8, 128", "wmma::experimental::precision::b1", "b1 fragments"),
])
def test_what_rocwmma_lacks_is_an_error_naming_it(shape, type, expected):
    src = ("#include <mma.h>\nusing namespace nvcuda;\n__global__ void k() {\n  "
           + FRAGMENT.format(shape=shape, type=type) + "\n}\n").encode()
    found = _codes(src)
    assert [(c, line) for c, line, _ in found] == [("CP112", 4)]
    assert expected in found[0][2]


def test_shape_spelled_by_names_is_read_from_the_file():
    src = (b"#include <mma.h>\n#define WM 16\nconstexpr int WN = 8;\n"
           b"using F = nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, WM, WM, WM, half, "
           b"nvcuda::wmma::row_major>;\n"
           b"using G = nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 32, WN, 16, half, "
           b"nvcuda::wmma::row_major>;\n"
           b"template <int M> using H = nvcuda::wmma::fragment<nvcuda::wmma::accumulator, M, "
           b"M, M, float>;\n")
    assert [(c, line, m.split(":")[0]) for c, line, m in _codes(src)] == [
        ("CP112", 5, "WMMA shape m32n8k16")]  # M is unknown: left alone


def test_bmma_sync_is_an_error():
    src = b"#include <mma.h>\n__global__ void k() { nvcuda::wmma::bmma_sync(d, a, b, c); }\n"
    assert [(c, line) for c, line, _ in _codes(src)] == [("CP112", 2)]


def test_indexed_elements_are_a_warning_through_aliases_and_arrays():
    src = (b"#include <mma.h>\nusing namespace nvcuda;\n"
           b"using Acc = wmma::fragment<wmma::accumulator, 16, 16, 16, float>;\n"
           b"__global__ void k(float* c) {\n  Acc acc, tiles[2];\n  float other[4];\n"
           b"  tiles[1].x[0] = acc.x[0];\n  other[0] = 1;\n"
           b"  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);\n}\n")
    found = _codes(src)
    assert [(c, line) for c, line, _ in found] == [("CP236", 7)]
    assert all(f.severity == "warning" for f in _translate(src).findings
               if f.code == "CP236")


def test_warps_of_32_sharing_a_wavefront_are_an_error_on_wave64_only():
    src = (b"#include <mma.h>\n#define WARP_SIZE 32\nusing namespace nvcuda;\n"
           b"__global__ void k(const half* a) {\n"
           b"  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> f;\n"
           b"  int warp = threadIdx.x / WARP_SIZE;\n"
           b"  wmma::load_matrix_sync(f, a + warp * 256, 16);\n}\n"
           b"void run(const half* a) { k<<<1, 96>>>(a); k<<<1, 128>>>(a); }\n")
    found = _codes(src)
    assert [(c, line) for c, line, _ in found] == [("CP237", 6), ("CP237", 9)]
    assert "96 threads" in found[1][2]
    assert _codes(src, warp_size=32) == []  # RDNA's 32-lane wavefronts (gfx1100)
    assert _codes(src.replace(b"WARP_SIZE;", b"warpSize;").replace(b"96", b"64")) == []


def test_a_target_that_does_not_port_wmma_is_left_to_its_rules():
    found = [f.code for f in translate_bytes(GEMM.replace(b"16, 16, 16", b"32, 8, 16"),
                                             Options(target="musa"), "gemm.cu").findings]
    assert "CP236" not in found and "CP237" not in found


ROCM72 = Path(os.environ.get("CUDAPORT_ROCM72_DIR", "/var/cache/cudaport/rocm-7.2"))


def test_each_name_has_cudas_meaning_in_rocwmma():
    """The mapping, piece by piece, against rocWMMA 2.2.0 (ROCm 7.2.4): the names the port
    keeps through `nvcuda::wmma = rocwmma` are declared there with CUDA's argument order."""
    header = ROCM72 / "usr/include/rocwmma/rocwmma.hpp"
    if not header.is_file():
        pytest.skip("no rocWMMA in the ROCm 7.2 root")
    text = re.sub(r"\s+", " ", header.read_text())
    for tag in ("row_major", "col_major", "matrix_a", "matrix_b", "accumulator"):
        assert f"struct {tag} {{ }};" in text, tag
    assert "enum layout_t : uint32_t { mem_row_major, mem_col_major };" in text
    for declaration in (
            "void fill_fragment(FragT& frag, DataT value);",
            "void load_matrix_sync(FragT& frag, const DataT* data, uint32_t ldm);",
            "load_matrix_sync(FragT& frag, const DataT* data, uint32_t ldm, layout_t layout);",
            "void store_matrix_sync(DataT* data, FragT const& frag, uint32_t ldm);",
            "store_matrix_sync(DataT* data, FragT const& frag, uint32_t ldm, layout_t layout);",
            "void mma_sync(FragAccumOut& d, FragA const& a, FragB const& b, FragAccumIn& c);",
            "constexpr static uint32_t num_elements = Traits::Size;",
            "::Native_vec_ x;"):
        assert declaration in text, declaration
    # fragment<MatrixT, FragM, FragN, FragK, DataT, DataLayoutT = void>: CUDA's order (the
    # accumulator's layout left out)
    assert ("template <typename MatrixT, uint32_t FragM, uint32_t FragN, uint32_t FragK, "
            "typename DataT, typename DataLayoutT = void,") in text


def _rocwmma_include(version: str) -> list[str] | None:
    """-I flags that give rocWMMA's full headers for ``version``, or None (with why)."""
    if version == "7.2":
        # Debian's librocwmma-dev 7.2.4-1~exp1 ships rocwmma.hpp without the internal/
        # headers it includes; a complete install (or a later package) has them.
        return [] if (ROCM72 / "usr/include/rocwmma/internal").is_dir() else None
    folder = os.environ.get("CUDAPORT_ROCWMMA_INCLUDE")  # rocWMMA 1.x: ROCm 6.x's
    return [f"-I{folder}"] if folder and Path(folder, "rocwmma/rocwmma.hpp").is_file() else None


def _device_asm(source: Path, arch: str, version: str, flags: list[str]) -> str:
    out = source.with_suffix(f".{arch}.s")
    proc = subprocess.run([str(rocm_wrapper(version)), "-x", "hip", f"--offload-arch={arch}",
                           "--offload-device-only", "-S", "-std=c++17", *flags, str(source),
                           "-o", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out.read_text()


INSTRUCTIONS = {"gfx942": ("v_mfma_f32_16x16x16_f16", "v_mfma_i32_16x16x16"),
                "gfx90a": ("v_mfma_f32_16x16x16f16", "v_mfma_i32_16x16x16i8"),
                "gfx1100": ("v_wmma_f32_16x16x16_f16", "v_wmma_i32_16x16x16_iu8")}


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
@pytest.mark.parametrize("arch", ["gfx942", "gfx90a", "gfx1100"])
def test_ported_gemm_compiles_to_matrix_instructions(tmp_path, version, arch):
    flags = _rocwmma_include(version)
    if flags is None:
        pytest.skip(f"no complete rocWMMA for ROCm {version} (7.2: the root's rocwmma/"
                    f"internal; 6.4: $CUDAPORT_ROCWMMA_INCLUDE)")
    source = tmp_path / "gemm.hip"
    gemm = GEMM if arch != "gfx942" else GEMM.split(b"__global__ void imma16")[0]
    source.write_bytes(_translate(gemm, target_version=version).output)
    asm = _device_asm(source, arch, version, flags)
    half, int8 = INSTRUCTIONS[arch]
    assert half in asm
    if arch != "gfx942":  # rocWMMA's 8-bit 16x16 blocks need K >= 32 on gfx940 and later
        assert int8 in asm


SAMPLES = Path(os.environ.get("CUDAPORT_CUDA_SAMPLES", "/tmp/vr/cuda-samples"))


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
@pytest.mark.parametrize("arch", ["gfx942", "gfx90a", "gfx1100"])
def test_cuda_samples_tensor_core_gemm_translates_and_compiles(tmp_path, version, arch):
    from cudaport.cli.main import main

    sample = SAMPLES / "Samples/3_CUDA_Features/cudaTensorCoreGemm/cudaTensorCoreGemm.cu"
    flags = _rocwmma_include(version)
    if not sample.is_file() or flags is None:
        pytest.skip("no cuda-samples checkout, or no complete rocWMMA for this ROCm")
    out = tmp_path / "out"
    with pytest.raises(SystemExit):
        main(["translate", "--hip-version", version, "--out-dir", str(out), str(sample.parent),
              str(SAMPLES / "Common")])
    ported = out / "cudaTensorCoreGemm/cudaTensorCoreGemm.cu"
    assert b"namespace nvcuda { namespace wmma = ::rocwmma; }" in ported.read_bytes()
    asm = _device_asm(ported, arch, version,
                      flags + [f"-I{out / 'Common'}", f"-I{SAMPLES / 'Common'}"])
    assert INSTRUCTIONS[arch][0] in asm
