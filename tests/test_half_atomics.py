"""atomicAdd on __half2, __half, __nv_bfloat162 and __nv_bfloat16 (issue 41): HIP 6.4 and
7.2 declare none, so the calls whose pointer type the symbol model reads become the
portable header's cudaport_atomic_add (cudaport/translate/passes/half_atomics.py; section
half_atomics of rules/hip/ports/cudaport_portable.h), a compare-and-swap loop on the
32-bit word that holds the value."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import compile_object
from cudaport import Options, translate_bytes
from cudaport.translate.portable import HEADER_NAME, block, closure, parse

ROOT = Path(__file__).parent.parent

KERNEL = b"""#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void k(__half2* __restrict__ p, __half* q, __nv_bfloat162* r, __nv_bfloat16* s,
                  float* f, const __half2 v) {
  __shared__ __half2 buf[64];
  __half2 old = atomicAdd(p, __floats2half2_rn(1.f, 2.f));
  atomicAdd(&buf[threadIdx.x], v);
  atomicAdd(q + 1, __float2half(1.f));
  __half one = atomicAdd(&q[3], __float2half(1.f));
  atomicAdd(r, __floats2bfloat162_rn(1.f, 2.f));
  atomicAdd(s, __float2bfloat16(1.f));
  atomicAdd((__half2*)f, old);
  atomicAdd(f, 1.f);
  p[0] = buf[0] + __halves2half2(one, one);
}
"""


def _translate(src: bytes, version: str = "7.2"):
    return translate_bytes(src, Options(target_version=version), "k.cu")


def test_half_and_bfloat16_atomic_adds_become_the_portable_function():
    result = _translate(KERNEL)
    out = result.output.decode()
    assert [f for f in result.findings if f.severity != "info"] == []
    body = out.split("__global__ void k")[1]
    assert body.count("cudaport_atomic_add(") == 7
    assert "atomicAdd(f, 1.f);" in body  # (float: HIP's own)
    assert "__half2 old = cudaport_atomic_add(p, " in body
    assert "__half one = cudaport_atomic_add(&q[3], " in body
    assert out.count("#define CUDAPORT_PORTABLE_HALF_ATOMICS") == 1
    assert _translate(result.output).output == result.output  # (idempotent)


@pytest.mark.parametrize("src", [
    # a float atomicAdd in a file that uses half elsewhere
    b"#include <cuda_fp16.h>\n__global__ void k(float* f, __half* h) { atomicAdd(f, 1.f); h[0] = 0; }\n",
    # a pointer whose type is not read (a member), nor the value's: left as written
    b"#include <cuda_fp16.h>\nstruct S { __half2* p; };\n"
    b"__global__ void k(S s) { atomicAdd(s.p, s.p[1]); }\n",
    # the project's own atomicAdd for its type
    b"struct Pair { float a, b; };\n__device__ Pair atomicAdd(Pair* p, Pair v);\n"
    b"__global__ void k(Pair* p, Pair v) { atomicAdd(p, v); }  // half\n",
])
def test_other_atomic_adds_stay(src):
    assert b"cudaport_atomic_add" not in _translate(src).output


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_the_translation_compiles_to_object_code(tmp_path, version):
    path = tmp_path / "atomics.hip"
    path.write_bytes(_translate(KERNEL, version).output)
    compile_object(path, "gfx942", version)


# A pointer that is a member, with a __half value (the value's type read where the
# pointer's is not): compiled by hand only until now
MEMBER = b"""#include <cuda_fp16.h>
struct S { __half* p; };
__global__ void k(S s, __half v) {
  atomicAdd(s.p, v);
}
"""


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_a_member_pointer_with_a_half_value_compiles(tmp_path, version):
    result = _translate(MEMBER, version)
    assert b"  cudaport_atomic_add(s.p, v);\n" in result.output
    assert [f for f in result.findings if f.severity != "info"] == []
    path = tmp_path / "member.hip"
    path.write_bytes(result.output)
    compile_object(path, "gfx90a", version)


def test_the_compare_and_swap_loop_updates_only_its_half(tmp_path):
    """The header's loops with a stand-in atomicCAS (g++): the 16-bit form changes only its
    half of the word and returns the old value; a CAS that fails because another thread
    stored the word meanwhile is retried on what that thread stored (its store kept)."""
    if shutil.which("g++") is None:
        pytest.skip("no g++")
    header = parse((ROOT / "rules" / "hip" / "ports" / HEADER_NAME).read_bytes())
    program = tmp_path / "cas.cpp"
    program.write_bytes(b"""#include <cstdio>
#define __HIPCC__ 1
#define __host__
#define __device__
static int interfere = 0;  // the next CAS fails: another thread adds 0x0100 to each half
static unsigned int atomicCAS(unsigned int* a, unsigned int compare, unsigned int value) {
  unsigned int old = *a;
  if (interfere) { --interfere; *a = old + 0x01000100u; return *a; }
  if (old == compare) *a = value;
  return old;
}
""" + block(header, closure(header, {b"cudaport_atomic_add"})) + b"""
struct h16 { unsigned short bits; };
struct h16x2 { unsigned short lo, hi; };
int main() {
  alignas(4) unsigned int w[2] = {0x11112222u, 0x33334444u};
  h16 old = cudaport_detail::atomic_update_16(reinterpret_cast<h16*>(w) + 1,
                                              [](h16 v) { v.bits += 5; return v; });
  std::printf("%04x %08x %08x\\n", old.bits, w[0], w[1]);
  old = cudaport_detail::atomic_update_16(reinterpret_cast<h16*>(w) + 2,
                                          [](h16 v) { v.bits += 7; return v; });
  std::printf("%04x %08x %08x\\n", old.bits, w[0], w[1]);
  interfere = 1;
  old = cudaport_detail::atomic_update_16(reinterpret_cast<h16*>(w) + 3,
                                          [](h16 v) { v.bits += 1; return v; });
  std::printf("%04x %08x %08x\\n", old.bits, w[0], w[1]);
  interfere = 1;
  h16x2 pair = cudaport_detail::atomic_update_16x2(reinterpret_cast<h16x2*>(w), [](h16x2 v) {
    v.lo += 1; v.hi += 2; return v; });
  std::printf("%04x%04x %08x %08x\\n", pair.hi, pair.lo, w[0], w[1]);
  return 0;
}
""")
    subprocess.run(["g++", "-std=c++11", "-Wall", "-Werror", str(program), "-o",
                    str(tmp_path / "cas")], check=True)
    out = subprocess.run([str(tmp_path / "cas")], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["1111 11162222 33334444",   # high half of w[0]: +5, low half kept
                   "4444 11162222 3333444b",   # low half of w[1]: +7
                   # another thread's +0x0100 per half (0x3433454b), then +1 on it
                   "3433 11162222 3434454b",
                   # the pair: the other store (0x12162322) kept, then +1 low, +2 high
                   "12162322 12182323 3434454b"]


def test_a_half_value_picks_the_half_overload_where_the_pointer_is_not_read():
    """`atomicAdd(s.p, v)` with `v` declared __half2: CUDA's __half2 overload (HIP has none)."""
    src = (b"#include <cuda_fp16.h>\nstruct S { __half2* p; };\n"
           b"__global__ void k(S s, __half2 v) { atomicAdd(s.p, v); }\n")
    assert b"cudaport_atomic_add(s.p, v);" in _translate(src).output


# Pointer expressions (issue 42): a member plus an offset, the address of a member's
# element, a declared pointer plus or minus offsets in any order or parentheses. Each
# failed with ROCm 7.2 and 6.4 as written ("no matching function for call to 'atomicAdd'")
# and got no finding.
EXPRESSIONS = b"""#include <cuda_fp16.h>
#include <cuda_bf16.h>
struct S { __half* p; __half2* q; };
__global__ void k(S s, S* t, __half v, __half2 w, __half* h, __half2* h2,
                  __nv_bfloat16* b, __nv_bfloat162* b2, __half** rows, int i, int j) {
  atomicAdd(s.p + 1, v);
  atomicAdd(&s.p[i], v);
  atomicAdd(t->q + i * 2 + j, w);
  atomicAdd(&t->q[i + 1], w);
  atomicAdd(h + i, v);
  atomicAdd(i + h2, w);
  atomicAdd((h - j), v);
  atomicAdd(&(h2[i]), w);
  atomicAdd(b + threadIdx.x, __float2bfloat16(1.f));
  atomicAdd(&b2[blockIdx.x * 4], __floats2bfloat162_rn(1.f, 2.f));
  __half* local = h + 8;
  atomicAdd(local + (i + 1), v);
  atomicAdd(rows[j] + i, v);
}
"""


def test_pointer_expressions_become_the_portable_function():
    result = _translate(EXPRESSIONS)
    assert [f for f in result.findings if f.severity != "info"] == []
    body = result.output.decode().split("__global__ void k")[1]
    assert "atomicAdd" not in body
    assert body.count("cudaport_atomic_add(") == 12
    for call in ("(s.p + 1, v)", "(&s.p[i], v)", "(t->q + i * 2 + j, w)", "(i + h2, w)",
                 "((h - j), v)", "(&(h2[i]), w)", "(local + (i + 1), v)", "(rows[j] + i, v)"):
        assert "cudaport_atomic_add" + call in body
    assert _translate(result.output).output == result.output  # (idempotent)


@pytest.mark.parametrize("call", [
    b"atomicAdd(s.p + n, v)",  # (n declared nowhere: it may be the pointer)
    b"atomicAdd(i - h, v)",  # (no pointer)
    b"atomicAdd(c ? h : f, v)",  # (a conditional: not read)
    b"atomicAdd(f + i, v)",  # (float*: CUDA's float overload, HIP's own)
    b"atomicAdd(&f[i], v)",
    b"atomicAdd(s.i + f, v)",  # (f is the pointer, a float*)
    b"atomicAdd(s.p + s.i, v)",  # (which member is the pointer: not read)
    b"atomicAdd(rows + i, v)",  # (a pointer to pointers)
    b"atomicAdd(s.p + 1, x)",  # (a member with a float value)
])
def test_pointer_expressions_not_read_stay(call):
    src = (b"#include <cuda_fp16.h>\nstruct S { __half* p; int i; };\n"
           b"__global__ void k(S s, __half* h, float* f, __half** rows, __half v, float x, "
           b"bool c, int i) { " + call + b"; }\n")
    assert b"cudaport_atomic_add" not in _translate(src).output


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_the_pointer_expressions_compile_to_object_code(tmp_path, version):
    path = tmp_path / "expressions.hip"
    path.write_bytes(_translate(EXPRESSIONS, version).output)
    compile_object(path, "gfx90a", version)
