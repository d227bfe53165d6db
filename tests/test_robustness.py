"""Hostile and messy inputs: no crash, bytes preserved, clear diagnostics (issue 9)."""

from __future__ import annotations

import gc
import time

import pytest

from cudaport import InputError, Options, translate_bytes
from cudaport.translate.integrity import problems

RUNTIME = b"#include <cuda_runtime.h>\n"


def kept(src: bytes, **options) -> bytes:
    """Translate, assert the promises hold, return the output."""
    assert problems(src, Options(**options)) == []
    return translate_bytes(src, Options(**options)).output


@pytest.mark.parametrize("src", [
    b"",
    b"\n",
    b"cudaFree(p);",  # no trailing newline
    b"/* unterminated comment cudaFree(p);",
    b'const char* s = "unterminated cudaFree(p);\ncudaFree(q);\n',
    b'auto r = R"tag(unterminated raw cudaFree(p);\n',
    b"char c = 'x",
    b"k<<<1, 2>>>(a, (b;\n",
    b"k<<<1, 2\n",
    b"<<<>>>\n",
    b">>> <<< >>>\n",
    b"#include <cuda_runtime.h",
    b"#include\n",
    b"#if\n#else\n#else\n#endif\n#endif\n#endif\n",
    b"\\\n\\\n\\",
    b"'''''\"\"\"\"",
], ids=lambda s: repr(s[:24]))
def test_malformed_sources_do_not_crash(src):
    kept(src)
    kept(src, launch="hip")


def test_encodings_survive_byte_for_byte():
    latin1 = RUNTIME + b"// r\xe9sultat \xe0 v\xe9rifier\nvoid f(){ cudaFree(p); } // \xff\n"
    gbk = RUNTIME + "// 释放显存\nvoid f(){ cudaFree(p); }\n".encode("gb18030")
    bom = b"\xef\xbb\xbf" + RUNTIME + b"void f(){ cudaFree(p); }\n"
    for src in (latin1, gbk, bom):
        out = kept(src)
        assert out == src.replace(b"cuda_runtime.h", b"hip/hip_runtime.h").replace(b"cudaFree", b"hipFree")


def test_gbk_byte_that_looks_like_a_backslash_in_a_comment():
    # 0x5C ('\\') can be the second byte of a GBK character; at the end of a // comment it
    # reads as a line continuation, exactly as a compiler would read it.
    src = RUNTIME + b"// \x81\x5c\nvoid f(){ cudaFree(p); }\n"
    kept(src)


def test_mixed_line_endings_preserved():
    src = b"#include <cuda_runtime.h>\r\nint a;\nint b;\r\n\rvoid f(){ cudaFree(p); }\r\n"
    assert kept(src) == src.replace(b"cuda_runtime.h", b"hip/hip_runtime.h").replace(b"cudaFree", b"hipFree")


def test_long_macro_with_continuations():
    body = b"".join(b"  cudaFree(p%d); \\\n" % i for i in range(10_000))
    src = RUNTIME + b"#define FREE_ALL \\\n" + body + b"  0\n"
    out = kept(src)
    assert out.count(b"hipFree(") == 10_000 and b"cudaFree" not in out


def test_one_megabyte_line():
    src = RUNTIME + b"int x = " + b"cudaSuccess + " * 80_000 + b"0;\n"
    out = kept(src)
    assert out.count(b"hipSuccess") == 80_000


def test_deeply_nested_templates_in_launch():
    depth = 200
    kernel = b"k" + b"<A" * depth + b">" * depth
    src = RUNTIME + b"void f(){ " + kernel + b"<<<g, b>>>(x); }\n"
    out = kept(src, launch="hip")
    assert b"hipLaunchKernelGGL(HIP_KERNEL_NAME(" + kernel + b"), dim3(g), dim3(b), 0, 0, x)" in out


def test_launch_in_comment_string_and_macro():
    src = (RUNTIME + b"// k<<<1,1>>>();\nconst char* s = \"k<<<1,1>>>()\";\n"
           b"#define L(k) k<<<1, 1>>>()\n")
    out = kept(src, launch="hip")
    assert b"// k<<<1,1>>>();" in out and b'"k<<<1,1>>>()"' in out
    assert b"#define L(k) hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0)" in out


def _cpu_seconds(data: bytes) -> float:
    """CPU time of one translation, the garbage collector paused: a full test run's heap
    makes collections cost in proportion to everything else alive, not to this input."""
    gc.collect()
    gc.disable()
    try:
        t0 = time.process_time()
        translate_bytes(data)
        return time.process_time() - t0
    finally:
        gc.enable()


def test_large_generated_file_is_linear():
    chunk = b"__global__ void k(float* p) { p[threadIdx.x] = 1; }\nvoid h(){ cudaFree(0); }\n" * 100
    small = chunk * 10  # ~77 kB
    big = chunk * 100  # ~770 kB
    assert translate_bytes(big).output.count(b"hipFree(0)") == 100 * 100
    t_small = min(_cpu_seconds(small) for _ in range(3))
    t_big = min(_cpu_seconds(big) for _ in range(2))
    assert t_big < 40 * max(t_small, 0.01)  # 10x the input must not cost 40x the time


@pytest.mark.parametrize("data,message", [
    (b"int x;\n\x00\x00", "binary file (NUL byte at offset 7)"),
    (b"\xff\xfei\x00n\x00t\x00", "UTF-16/32 text is not supported"),
])
def test_binary_and_utf16_are_refused_with_a_message(data, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        translate_bytes(data, path="x.cu")


@pytest.mark.parametrize("src", [
    b"cudaMalloc<<<#define M(x) x<<<1,1>>>()\n",
    b"#include <cuda_runtime.h>\n<<<#define M(x) x<<<1,1>>>()\n",
    b"cudaMalloc<<<#include <cuda_runtime.h>\n#include <cuda_runtime.h>\n#define M(x) x<<<1,1>>>()\n",
    b"#define M(x) x<<<1,1>>>()<<<1,1>>>()\n",
], ids=["launch-into-macro", "kernel-name-in-directive", "launch-across-directives",
        "launch-of-launch"])
def test_fuzz_found_launch_cases(src):
    # Found by bench/fuzz.py: a rewrite must never swallow a directive, cross out of
    # one, or overlap another rewrite.
    kept(src, launch="hip")


def test_spaced_launch_with_launch_hip_is_rewritten_in_one_pass():
    # Found by bench/check_tree.py on rodinia: `k << < g, b >> > (...)` was only closed up
    # on the first pass and rewritten on the second.
    src = RUNTIME + b"void f(){ k << < g, b >> > (x, cudaMemcpyHostToDevice); }\n"
    out = kept(src, launch="hip")
    assert b"hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, x, hipMemcpyHostToDevice);" in out


def test_dropped_duplicate_include_keeps_an_unterminated_comment_opening():
    # Found by bench/fuzz.py: deleting the whole line also deleted the `/*` after it.
    src = b"#include <cuda_runtime.h>\n#include <cuda.h>/* open\ncudaFree(g);\n"
    out = kept(src)
    assert b"/* open\ncudaFree(g);" in out


@pytest.mark.parametrize("middle", [
    b"k<<<g, b>>>(\n" + RUNTIME * 2 + b"w, n);\n",  # inside a launch's arguments
    b"k<<<g,\n" + RUNTIME + b"b>>>(w);\n",  # inside a launch configuration
    b"k<<<g, b>>>([]{ x();\n" + RUNTIME + b"}, w);\n",  # after a `;`, but in parentheses
    b"k\n" + RUNTIME + b"<<<g, b>>>(w);\n",  # between the kernel and its chevrons
    b"cudaMemcpyAsync(d, s, n, cudaMemcpyHostToDevice,\n" + RUNTIME + b"st);\n",
])
def test_duplicate_include_inside_a_statement_is_kept(middle):
    # Found by bench/fuzz.py: the launch is left alone because a directive cuts it;
    # deleting that (duplicate) directive let the second pass rewrite it.
    src = RUNTIME + b"void f() {\n" + middle + b"}\n"
    out = kept(src, launch="hip")
    assert out.count(b"#include <hip/hip_runtime.h>") == 1 + middle.count(b"#include")


def test_duplicate_include_between_statements_is_still_dropped():
    src = (RUNTIME + b"void f() { g(); }\n" + b'#include "cuda.h"\n'
           + b"struct S { int x; };\n#include <cuda_runtime_api.h>\n/* c */\n"
           + b'#if A\n#endif\n#include "cuda_runtime.h"\n')
    out = kept(src, launch="hip")
    assert out.count(b"#include") == 2  # hip_runtime.h and hip_runtime_api.h


@pytest.mark.parametrize("line", [
    b"#include <cuda_runtime.h>#include <cuda_runtime.h>\n",  # the rest would become a directive
    b"#include <cuda_runtime.h> /* a */ x /* open\n",  # an unterminated comment after code
])
def test_duplicate_include_sharing_its_line_is_kept(line):
    # Found by bench/fuzz.py: only the first directive was deleted, so the text after it
    # started a line, and the next run deleted that too.
    out = kept(RUNTIME + line + b"cudaFree(p);\n")
    assert out.count(b"#include <hip/hip_runtime.h>") == 2


def test_launch_never_starts_inside_a_comment():
    # Found by bench/fuzz.py: the kernel name was looked for backwards, into a comment.
    src = b"// cudaMalloc comment\n<<<#define M(x) x<<<1,1>>>()\n"
    assert kept(src, launch="hip").startswith(b"// cudaMalloc comment\n")


def test_duplicate_include_with_a_continued_comment_is_kept():
    src = RUNTIME + b"#include <cuda.h> // note \\\ncudaFree(p);\n"
    out = kept(src)
    assert out.endswith(b"// note \\\ncudaFree(p);\n")


def test_include_text_in_mid_line_does_not_hide_a_comment():
    # Found by bench/fuzz.py: a '#include <...>' that is not a directive was skipped whole
    # by the scanner, so the '/*' inside it did not open a comment and the names in the
    # comment were renamed.
    src = b"int i = x#include <cud/* open>\ncudaMalloc(&p, 4);\n"
    out = kept(src)
    assert b"cudaMalloc" in out and b"hipMalloc" not in out


def test_line_comment_ending_in_two_backslashes_continues():
    # Found by bench/fuzz.py: `// ...\\` then a newline still splices the next line into
    # the comment (the last backslash joins the lines, whatever precedes it). The lexer
    # took `\\` as one escape and inserted the main header inside the comment. It goes
    # before the comment's logical line.
    src = b"// path C:\\dir\\\\\n\\\n\nextern \"C\" __global__ void k() { threadIdx.x; }\n"
    out = kept(src)
    assert out == b"#include <hip/hip_runtime.h>\n" + src


def test_launch_inside_a_kernel_expression_is_rewritten_with_it():
    # Found by bench/fuzz.py: the inner launch (its '<<<' comes first) was rewritten, so
    # the outer one overlapped it and was left; the second run then rewrote the outer.
    src = RUNTIME + b"void f() { axpy<T, x<<<1,1>>>()\n1><<<g, b, 0, s>>>(a); }\n"
    out = kept(src, launch="hip")
    assert out.count(b"hipLaunchKernelGGL(") == 2 and b"<<<" not in out


def test_launch_inside_a_launch_configuration_is_rewritten_with_it():
    # Found by bench/fuzz.py on a mutated llm.c file.
    src = RUNTIME + b"void f() { k<<<g, b, 0, x<<<1,1>>>()\ns>>>(a); }\n"
    out = kept(src, launch="hip")
    assert out.count(b"hipLaunchKernelGGL(") == 2 and b"<<<" not in out


@pytest.mark.parametrize("rewrite_comments", [False, True])
def test_dropped_duplicate_include_keeps_its_trailing_comment(rewrite_comments):
    # Found by bench/fuzz.py: with --rewrite-comments the rename inside the comment
    # overlapped the deletion of the whole line (a crash). The comment now stays.
    src = RUNTIME + b"  #include <cuda_runtime.h>  // needed for cudaMalloc\nint x;\n"
    out = kept(src, rewrite_comments=rewrite_comments)
    name = b"hipMalloc" if rewrite_comments else b"cudaMalloc"
    assert out == b"#include <hip/hip_runtime.h>\n// needed for " + name + b"\nint x;\n"


def test_hash_then_raw_string_is_no_directive():
    # Found by bench/fuzz.py: the tokenizer read `#R` as a directive named R, so the
    # raw string after it ended elsewhere than where the scanner (and a compiler) ends it.
    src = b'#R"d(rR"d(raw <<< cudaFree )d"aw <<< cudaFree )d"ifndef X\nint y;\n'
    kept(src)
