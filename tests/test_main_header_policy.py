"""--main-header: where the target's main header is added (issue 17's include policy)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cudaport import Options, translate_bytes
from cudaport.cli.main import main

LIBRARY_ONLY = b"#include <cublas_v2.h>\nvoid f(cublasHandle_t h) { cublasCreate(&h); }\n"


def _out(src: bytes, path: str = "lib.cu", **options) -> bytes:
    return translate_bytes(src, Options(**options), path).output


def test_default_adds_it_only_where_runtime_or_device_code_needs_it():
    assert _out(LIBRARY_ONLY) == (b"#include <hipblas/hipblas.h>\n"
                                  b"void f(hipblasHandle_t h) { hipblasCreate(&h); }\n")


def test_always_adds_it_to_every_changed_cuda_source():
    out = _out(LIBRARY_ONLY, main_header="always")
    assert out.startswith(b"#include <hip/hip_runtime.h>\n#include <hipblas/hipblas.h>\n")
    assert _out(out, main_header="always") == out  # idempotent
    # Not twice, not in files it does not change, not in C++ sources.
    with_runtime = b"#include <cuda_runtime.h>\n" + LIBRARY_ONLY
    assert _out(with_runtime, main_header="always").count(b"hip_runtime.h") == 1
    assert _out(b"int x;\n", main_header="always") == b"int x;\n"
    assert b"hip_runtime.h" not in _out(LIBRARY_ONLY, "lib.cpp", main_header="always")


@pytest.mark.parametrize("args,config", [(["--main-header", "always"], ""),
                                         ([], 'main-header = "always"\n')])
def test_option_and_config_key(tmp_path, args, config):
    (tmp_path / ".cudaport.toml").write_text(config)
    src = tmp_path / "lib.cu"
    src.write_bytes(LIBRARY_ONLY)
    out = tmp_path / "lib.hip"
    result = CliRunner().invoke(main, ["translate", str(src), "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"#include <hip/hip_runtime.h>\n")


def test_bad_config_value_is_a_clear_error(tmp_path):
    (tmp_path / ".cudaport.toml").write_text('main-header = "sometimes"\n')
    src = tmp_path / "lib.cu"
    src.write_bytes(LIBRARY_ONLY)
    result = CliRunner().invoke(main, ["check", str(src)])
    assert result.exit_code == 2 and "main-header" in result.output


KERNEL_WITH_LIBRARY_HEADER = b"""\
#include <cufft.h>
__global__ void scale(cufftComplex *d, float s) {
  d[blockIdx.x * blockDim.x + threadIdx.x].x *= s;
}
"""


def test_kernel_code_gets_the_main_header_beside_a_library_header():
    # cuda-samples' oceanFFT_kernel.cu includes only cufft.h: nvcc includes cuda_runtime.h
    # in every .cu file, while hipfft/hipfft.h declares the runtime API but no kernel
    # built-ins (threadIdx), so the main header is added.
    out = _out(KERNEL_WITH_LIBRARY_HEADER, "kernel.cu")
    assert out.startswith(b"#include <hip/hip_runtime.h>\n#include <hipfft/hipfft.h>\n")
    assert _out(out, "kernel.hip") == out  # idempotent
    launch = b"#include <cublas_v2.h>\nvoid f(float *d) { k<<<1, 1>>>(d); }\n"
    assert _out(launch).startswith(b"#include <hip/hip_runtime.h>\n")
    assert _out(KERNEL_WITH_LIBRARY_HEADER, insert_main_header=False).startswith(
        b"#include <hipfft/hipfft.h>\n")


@pytest.mark.slow
def test_kernel_with_library_header_compiles_with_rocm_6_4(tmp_path):
    from conftest import compile_hip

    path = tmp_path / "kernel.hip"
    path.write_bytes(_out(KERNEL_WITH_LIBRARY_HEADER, "kernel.cu"))
    compile_hip(path, "rocm")


def test_header_is_not_put_on_a_line_a_backslash_continues():
    # found by bench/fuzz.py: a first line that is only a backslash splices the next line
    # into it, so an include put there is no directive and a second run added another;
    # the header goes before the continued line
    src = b"\\\n{\n#include <cstdio>\nvoid f() { cudaFree(0); }\n"
    once = translate_bytes(src, Options()).output
    assert once.startswith(b"#include <hip/hip_runtime.h>\n\\\n{\n")
    assert translate_bytes(once, Options()).output == once
    # and a line after the spliced one keeps its meaning (found by bench/fuzz.py: with a
    # break put after the backslash, `#include <cuda_runtime.h>` became a directive, so a
    # second run translated it)
    src = b"\\\n#include <cuda_runtime.h>\n{\n#include <cuda_runtime.h>\n}\n"
    once = translate_bytes(src, Options()).output
    assert once.startswith(b"#include <hip/hip_runtime.h>\n\\\n#include <cuda_runtime.h>\n")
    assert translate_bytes(once, Options()).output == once


def test_main_header_in_a_branch_the_target_compiler_selects_counts():
    # found by bench/check_tree.py on NVIDIA warp's cuBQL: `#ifdef __CUDACC__` /
    # `#include <cuda.h>` becomes `#ifdef __HIPCC__` / `#include <hip/hip_runtime.h>`, an
    # already-portable branch that the second run did not look into, adding the header
    src = (b'#pragma once\n#include "mine.h"\n#ifdef __CUDACC__\n# include <cuda.h>\n#endif\n'
           b"__host__ __device__ inline int ok(int e) { return e == cudaSuccess; }\n")
    once = translate_bytes(src, Options(), path="vec.h").output
    assert once.count(b"hip/hip_runtime.h") == 1
    assert translate_bytes(once, Options(), path="vec.h").output == once


def test_byte_order_mark_stays_first():
    # found by bench/fuzz.py: the macros went before the mark, and a second run added more
    src = b"\xef\xbb\xbf#include <cuda_runtime.h>\n__shfl_down_sync"
    six = Options(target_version="6.4")  # the version that needs the warp-sync macro
    once = translate_bytes(src, six).output
    assert once.startswith(b"\xef\xbb\xbf#ifndef HIP_ENABLE_WARP_SYNC_BUILTINS\n")
    assert translate_bytes(once, six).output == once


def test_byte_order_mark_stays_first_before_a_block_too():
    # found by bench/fuzz.py: a header hoisted before a block that opens on the first line
    # went before the mark
    src = b'\xef\xbb\xbfextern "C" {\n#include <cuda_runtime.h>\nvoid f(float* p) { cudaFree(p); }\n}\n'
    once = translate_bytes(src, Options()).output
    assert once.startswith(b'\xef\xbb\xbf#include <hip/hip_runtime.h>\nextern "C" {\n')
    assert translate_bytes(once, Options()).output == once


def _outside(src: bytes):
    """OutsideBlocks over ``src`` as the includes pass builds it (the scan's blanked code)."""
    from cudaport.rules.compiled import get_compiled
    from cudaport.source import lexer
    from cudaport.source.scan import scan
    from cudaport.translate.passes.includes import OutsideBlocks

    found = scan(src, get_compiled(Options()))
    return OutsideBlocks(src, lexer.blank_spans(src, found.literals), found.literals)


def test_outside_blocks_answers_from_the_braces_semicolons_and_directives():
    """Where a line that must stand outside every block goes: the line where the open
    block's declaration begins (after the last ';', '}' or directive), or the conditional
    that opened before the block and closes inside it."""
    src = (b"int a; /* { */\n"                      # 0: a brace in a comment does not count
           b"#define OPEN {\n"                      # 15: nor one in a directive
           b"struct S s =\n"                        # 30: the declaration begins here
           b"{\n"
           b"  1,\n"                                # 45
           b"};\n"                                  # 50
           b"#ifdef __cplusplus\n"                  # 53
           b"extern \"C\" {\n"
           b"#endif\n"
           b"int f(void);\n"                        # 93
           b"#ifdef __cplusplus\n}\n#endif\n"
           b"void g()\n{\n  \"s{\";\n}\n")          # 134
    lines = [0] + [i + 1 for i, c in enumerate(src) if c == 0x0A]
    ask = _outside(src)
    answers = {line: ask(line) for line in lines}
    assert answers[15] == 15 and answers[30] == 30
    assert answers[src.index(b"  1,")] == 30
    assert answers[src.index(b"int f(void)")] == src.index(b"#ifdef __cplusplus")
    assert answers[src.index(b"  \"s{\"")] == src.index(b"void g()")
    assert answers[len(src)] == len(src)
