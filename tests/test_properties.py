"""Property tests: for generated token soups and mutated real-looking files, translation
never raises, is idempotent, keeps bytes outside edits and never edits comments or
strings unless asked (cudaport.translate.integrity checks all four)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cudaport import Options
from cudaport.translate.integrity import problems
from conftest import EXAMPLES

FRAGMENTS = [
    b"cudaMalloc", b"cudaMemcpyToSymbol", b"cudaFuncSetAttribute", b"__shfl_down_sync",
    b"cublasSgemm", b"cub", b"::", b"cudaStream_t", b"CUDA_CHECK", b"cudaNotAThing",
    b"__global__", b"threadIdx", b"k", b"T", b"<", b">", b"<<<", b">>>", b"(", b")",
    b"[", b"]", b"{", b"}", b",", b";", b" ", b"\t", b"\n", b"\r\n", b"\\\n", b"0xffffffff",
    b"1'000", b"'x'", b"'\\''", b'"str cudaFree"', b'R"d(raw <<< cudaFree )d"', b'u8"x"',
    b"// cudaMalloc comment\n", b"/* block cudaFree */", b"/* unterminated", b'"unterminated',
    b"#include <cuda_runtime.h>\n", b'#include "cuda.h"\n', b"#include <cublas_v2.h>\n",
    b"#if X\n", b"#else\n", b"#endif\n", b"#define M(x) x<<<1,1>>>()\n", b"#pragma once\n",
    b"\xe9", b"\xc4\xe3\xba\xc3", b"\xef\xbb\xbf",
    # GBK/Shift-JIS characters whose second byte is a backslash (read through a mask)
    b"\x81\\", b"\x95\\", b'"\xc1\\"', b"// \x95\\\n", b"template", b"dim3(1, 2)", b"namespace",
]
soup = st.lists(st.sampled_from(FRAGMENTS), max_size=60).map(b"".join)
OPTIONS = st.builds(Options, launch=st.sampled_from(["cuda", "hip"]),
                    rewrite_comments=st.booleans(), rewrite_strings=st.booleans(),
                    target_version=st.sampled_from([None, "5.2"]))
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(src=soup, options=OPTIONS)
def test_token_soup_keeps_promises(src, options):
    assert problems(src, options) == []


def _example_sources() -> list[bytes]:
    return [p.read_bytes() for p in sorted(EXAMPLES.rglob("*.cu*")) if "expected" not in p.parts]


@SETTINGS
@given(data=st.data(), options=OPTIONS)
def test_mutated_real_files_keep_promises(data, options):
    sources = _example_sources()
    src = bytearray(data.draw(st.sampled_from(sources)))
    for _ in range(data.draw(st.integers(0, 8))):
        pos = data.draw(st.integers(0, len(src)))
        action = data.draw(st.sampled_from(["insert", "delete", "flip"]))
        if action == "insert":
            src[pos:pos] = data.draw(st.sampled_from(FRAGMENTS))
        elif action == "delete":
            del src[pos:pos + data.draw(st.integers(1, 40))]
        elif pos < len(src):
            src[pos] = data.draw(st.integers(1, 255))
    assert problems(bytes(src), options) == []
