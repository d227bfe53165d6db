"""Inline PTX with a HIP meaning is rewritten (CP230); the rest stays, and CP210 names the
instruction that blocks it (cudaport/translate/passes/asm.py, rules/hip/ports/asm/ptx.yaml)."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest

from cudaport import Options, translate_bytes
from conftest import compile_object
from cudaport.translate.passes.asm import lop3_expression

DATA = Path(__file__).parent / "data" / "asm"


def run(body: str, path: str = "k.cu"):
    src = f"__device__ void f(unsigned a, unsigned b, unsigned c, float x, float y, " \
          f"unsigned* u, int* s, float* p, unsigned long long* w) {{\n{body}\n}}\n"
    result = translate_bytes(src.encode(), Options(target_version="7.2"), path)
    return result.output.decode(), result.findings


def line_of(out: str) -> str:
    return out.splitlines()[2].strip()


def codes(findings) -> list[tuple[str, str]]:
    return [(f.code, f.severity) for f in findings if f.code in ("CP210", "CP230")]


# (asm statement, what the rewritten line must contain, severity of CP230)
FORMS = [
    ('asm volatile("mov.u32 %0, %%laneid;" : "=r"(a));', "a = __builtin_bit_cast(__typeof__(a), "
     "static_cast<unsigned int>(__lane_id()));", "warning"),
    ('asm("mov.u32 %0, %%smid;" : "=r"(a));', "__smid()", "warning"),
    ('asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(w[0]));', "wall_clock64()", "warning"),
    ('asm volatile("mov.u64 %0, %%clock64;" : "=l"(w[0]));', "clock64()", "warning"),
    ('asm("mov.u32 %0, %%ctaid.y;" : "=r"(a));', "static_cast<unsigned int>(blockIdx.y)", "info"),
    ('asm("mul.hi.u32 %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));',
     "__umulhi(__builtin_bit_cast(unsigned int, a), __builtin_bit_cast(unsigned int, b))", "info"),
    ('asm("mul.hi.s32 %0, %1, %2;" : "=r"(s[0]) : "r"(a), "r"(b));', "__mulhi(", "info"),
    ('asm("mul.wide.u32 %0, %1, %2;" : "=l"(w[0]) : "r"(a), "r"(b));',
     "static_cast<unsigned long long>(__builtin_bit_cast(unsigned int, a)) * "
     "__builtin_bit_cast(unsigned int, b)", "info"),
    ('asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(x) : "l"(p));',
     "x = *((const float *)p);", "info"),
    ('asm volatile("ld.global.cs.u32 %0, [%1+8];" : "=r"(a) : "l"(u));',
     "__builtin_nontemporal_load(((const unsigned int *)((const char *)(u) + 8)))", "info"),
    ('asm volatile("ld.global.nc.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "l"(u));',
     "auto __ptx_t1 = ((const unsigned int *)u); a = ", "info"),
    ('asm volatile("st.global.cs.f32 [%0], %1;" :: "l"(p), "f"(x) : "memory");',
     "*((float *)p) = x;", "info"),
    ('asm volatile("st.global.wb.v2.u32 [%0], {%1, %2};" :: "l"(u), "r"(a), "r"(b));',
     "__ptx_t1[1] = __builtin_bit_cast(unsigned int, b)", "info"),
    ('asm volatile("ld.global.acquire.gpu.b32 %0, [%1];" : "=r"(a) : "l"(u));',
     "__hip_atomic_load(((unsigned int *)u), __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT)", "info"),
    ('asm volatile("ld.relaxed.cta.shared.u32 %0, [%1];" : "=r"(a) : "r"(b));',
     "__hip_atomic_load(((unsigned int __attribute__((address_space(3))) *)static_cast<size_t>"
     "(static_cast<unsigned int>(b))), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP)", "info"),
    ('asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(a) : "l"(u));',
     "__ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM", "info"),
    ('asm volatile("st.release.sys.global.u32 [%0], %1;" :: "l"(u), "r"(a));',
     "__hip_atomic_store(((unsigned int *)u), __builtin_bit_cast(unsigned int, a), "
     "__ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);", "info"),
    ('asm volatile("red.release.gpu.global.add.s32 [%0], %1;" :: "l"(s), "r"(1));',
     "(void)__hip_atomic_fetch_add(((int *)s), __builtin_bit_cast(int, 1), __ATOMIC_RELEASE, "
     "__HIP_MEMORY_SCOPE_AGENT);", "info"),
    ('asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(c) : "l"(u), "r"(a), "r"(b));',
     "__hip_atomic_compare_exchange_strong(((unsigned int *)u), &__ptx_t1, "
     "__builtin_bit_cast(unsigned int, b), __ATOMIC_RELAXED, __ATOMIC_RELAXED, "
     "__HIP_MEMORY_SCOPE_AGENT); __ptx_t1; })", "info"),
    ('asm volatile("atom.global.exch.b64 %0, [%1], %2;" : "=l"(w[1]) : "l"(w), "l"(w[2]));',
     "__hip_atomic_exchange(", "info"),
    # (xqa's semaphore: PTX's wrapping increment, clang's AMDGPU builtin of the same meaning)
    ('asm volatile("atom.acq_rel.gpu.global.inc.u32 %0, [%1], %2;\\n" : "=r"(c) : "l"(u), "r"(a));',
     "c = __builtin_bit_cast(__typeof__(c), static_cast<unsigned int>(__builtin_amdgcn_atomic_inc32("
     "((unsigned int *)u), __builtin_bit_cast(unsigned int, a), __ATOMIC_ACQ_REL, \"agent\")));", "info"),
    ('asm volatile("red.sys.global.dec.u32 [%0], %1;" :: "l"(u), "r"(a));',
     "(void)__builtin_amdgcn_atomic_dec32(((unsigned int *)u), __builtin_bit_cast(unsigned int, a), "
     "__ATOMIC_RELAXED, \"\");", "info"),
    ('asm volatile("atom.global.min.u32 %0, [%1], %2;" : "=r"(c) : "l"(u), "r"(a));',
     "__hip_atomic_fetch_min(((unsigned int *)u)", "info"),
    ('asm volatile("fence.acq_rel.gpu;" ::: "memory");', "__threadfence();", "info"),
    ('asm volatile("fence.sc.sys;");', "__threadfence_system();", "info"),
    ('asm volatile("membar.cta;");', "__threadfence_block();", "info"),
    ('asm volatile("bar.sync 0;");', "__syncthreads();", "info"),
    ('asm volatile("barrier.sync.aligned 0;" ::: "memory");', "__syncthreads();", "info"),
    ('asm("prmt.b32 %0, %1, %2, 0x5410;" : "=r"(c) : "r"(a), "r"(b));',
     "(__ptx_t1 & 0xFFu) | (__ptx_t1 >> 8 & 0xFFu) << 8 | (__ptx_t2 & 0xFFu) << 16 | "
     "(__ptx_t2 >> 8 & 0xFFu) << 24", "info"),
    ('asm("lop3.b32 %0, %1, %2, %3, 0xF8;" : "=r"(c) : "r"(a), "r"(b), "r"(c));',
     "__builtin_bit_cast(unsigned int, a) | (__builtin_bit_cast(unsigned int, b)"
     " & __builtin_bit_cast(unsigned int, c))", "info"),
    ('asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(c) : "r"(a), "r"(4));',
     "__shfl_xor(__builtin_bit_cast(unsigned int, a), __builtin_bit_cast(unsigned int, 4), 32)",
     "info"),
    ('asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x101f, -1;" : "=r"(c) : "r"(a), "r"(b));',
     "__shfl_down(__builtin_bit_cast(unsigned int, a), __builtin_bit_cast(unsigned int, b), 16)",
     "info"),
    ('asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(c) : "f"(x), "f"(y));',
     "static_cast<unsigned int>(__builtin_bit_cast(unsigned short, static_cast<_Float16>(x))) << 16"
     " | static_cast<unsigned int>(__builtin_bit_cast(unsigned short, static_cast<_Float16>(y)))",
     "warning"),
    ('asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));',
     "static_cast<__bf16>(__builtin_bit_cast(float, a))", "warning"),
    ('asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(x) : "f"(y));', "x = exp2f(y);", "warning"),
    ('asm("lg2.approx.f32 %0, %1;" : "=f"(x) : "f"(y));', "x = log2f(y);", "warning"),
    ('asm("rcp.approx.f32 %0, %1;" : "=f"(x) : "f"(y));', "x = __frcp_rn(y);", "warning"),
    ('asm volatile("griddepcontrol.wait;" ::: "memory");', "(void)0;", "info"),
    ('asm volatile("griddepcontrol.launch_dependents;");', "(void)0;", "info"),
    ('asm("mov.b32 %0, {%1, %2};" : "=r"(c) : "h"(s[0]), "h"(s[1]));',
     "static_cast<unsigned int>(__builtin_bit_cast(unsigned short, s[0])) | "
     "static_cast<unsigned int>(__builtin_bit_cast(unsigned short, s[1])) << 16", "info"),
    ('asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(a), "l"(u));',
     "auto __ptx_t1 = ((unsigned long long __attribute__((address_space(3))) *)static_cast<size_t>"
     "(static_cast<unsigned int>(a))); auto __ptx_t2 = ((const unsigned long long *)u); "
     "__ptx_t1[0] = __ptx_t2[0]; __ptx_t1[1] = __ptx_t2[1];", "warning"),
    ('asm volatile("cp.async.cg.shared::cta.global [%0], [%1], 16;" :: "r"(a), "l"(u));',
     "auto __ptx_t1 = ((unsigned long long __attribute__((address_space(3))) *)static_cast<size_t>"
     "(static_cast<unsigned int>(a))); auto __ptx_t2 = ((const unsigned long long *)u); "
     "__ptx_t1[0] = __ptx_t2[0]; __ptx_t1[1] = __ptx_t2[1];", "warning"),
    ('asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;" :: "r"(a), "l"(u), "r"(b));',
     "< __ptx_t4 ? __ptx_t2[__ptx_t3] : 0", "warning"),
    ('asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(a), "l"(u), "n"(8));',
     "constexpr unsigned int __ptx_t1 = static_cast<unsigned int>(8); if (__ptx_t1 == 4) { *((unsigned int "
     "__attribute__((address_space(3))) *)static_cast<size_t>(static_cast<unsigned int>(a))) = "
     "*((const unsigned int *)u); } else if (__ptx_t1 == 8) {", "warning"),
    ('asm volatile("ld.shared.u32 {%0}, [%1];" : "=r"(c) : "r"(a));',
     "c = __builtin_bit_cast(__typeof__(c), static_cast<unsigned int>(*((const unsigned int "
     "__attribute__((address_space(3))) *)static_cast<size_t>(static_cast<unsigned int>(a)))));", "info"),
    ('asm volatile("mov.u16 %0, 0;" : "=h"(s[0]));',
     "s[0] = __builtin_bit_cast(__typeof__(s[0]), static_cast<unsigned short>(static_cast<unsigned short>(0)));",
     "info"),
    ('asm volatile("ld.volatile.global.v2.u32 {%0,%1}, [%2];" : "=r"(a), "=r"(b) : "l"(u));',
     "auto __ptx_t1 = ((unsigned int *)u); a = __builtin_bit_cast(__typeof__(a), static_cast<unsigned int>("
     "__hip_atomic_load(__ptx_t1 + 0, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM))); b = "
     "__builtin_bit_cast(__typeof__(b), static_cast<unsigned int>(__hip_atomic_load(__ptx_t1 + 1, "
     "__ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM)));", "info"),
    ('asm volatile("st.release.global.sys.v2.b32 [%2], {%0,%1};" :: "r"(a), "r"(b), "l"(u));',
     "__hip_atomic_store(__ptx_t1 + 1, __builtin_bit_cast(unsigned int, b), __ATOMIC_RELEASE, "
     "__HIP_MEMORY_SCOPE_SYSTEM);", "info"),
    ('asm volatile("trap;");', "__builtin_trap();", "info"),
    ('asm volatile("ex2.approx.f16 %0, %1;" : "=h"(s[0]) : "h"(s[1]));',
     "static_cast<_Float16>(exp2f(static_cast<float>(__builtin_bit_cast(_Float16, "
     "__builtin_bit_cast(unsigned short, s[1])))))", "warning"),
    ('asm volatile("tanh.approx.f16x2 %0, %1;" : "=r"(a) : "r"(b));',
     "tanhf(static_cast<float>(__builtin_bit_cast(_Float16, static_cast<unsigned short>(v >> 16))))",
     "warning"),
    ('asm volatile("cvta.shared.u64 %0, %1;" : "=l"(w[0]) : "l"(w[1]));',
     "static_cast<unsigned long long>((unsigned long long)(const void *)(const void __attribute__("
     "(address_space(3))) *)static_cast<unsigned int>(__builtin_bit_cast(unsigned long long, w[1])))", "info"),
    ('asm volatile("cvta.to.shared.u64 %0, %1;" : "=l"(w[0]) : "l"(u));',
     "static_cast<unsigned long long>((unsigned long long)(const void __attribute__((address_space(3))) *)"
     "(const void *)(__builtin_bit_cast(unsigned long long, u)))", "info"),
    ('asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(x) : "f"(y));', "x = rsqrtf(y);", "warning"),
    ('asm volatile("redux.sync.max.u32 %0, %1, 0xffffffff;" : "=r"(c) : "r"(a));',
     "[](unsigned int v) { for (int k = 16; k > 0; k >>= 1) { const unsigned int o = __shfl_xor(v, k, 32); "
     "v = o > v ? o : v; } return v; }(__builtin_bit_cast(unsigned int, a))", "info"),
    ('asm volatile("redux.sync.add.s32 %0, %1, -1;" : "=r"(c) : "r"(a));',
     "const unsigned int o = __shfl_xor(v, k, 32); v = v + o;", "info"),
    ('asm volatile("redux.sync.min.s32 %0, %1, 0xffffffff;" : "=r"(c) : "r"(a));',
     "[](int v) { for (int k = 16; k > 0; k >>= 1) { const int o = __shfl_xor(v, k, 32); v = o < v ? o : v; }",
     "info"),
    ('asm volatile("cp.async.commit_group;\\n" ::);', "(void)0;", "warning"),
    ('asm volatile("cp.async.wait_group %0;\\n" :: "n"(1));', "(void)0;", "warning"),
    ('asm volatile("cp.async.wait_all;");', "(void)0;", "warning"),
    # (flashinfer's profiler.cuh writes %globaltimer_lo with one %, which nvcc passes on)
    ('asm volatile("mov.u32 %0, %globaltimer_lo;" : "=r"(a));',
     "a = __builtin_bit_cast(__typeof__(a), static_cast<unsigned int>(static_cast<unsigned int>("
     "wall_clock64())));", "warning"),
    ('asm volatile("mov.u32 %0, %%globaltimer_hi;" : "=r"(a));',
     "static_cast<unsigned int>(wall_clock64() >> 32)", "warning"),
    ('asm("rsqrt.approx.f64 %0, %1;" : "=d"(*(double*)w) : "d"(*(double*)p));',
     "*(double*)w = rsqrt((*(double*)p));", "warning"),
    ('asm volatile("brkpt;\\n" ::);', "do { __builtin_debugtrap(); __builtin_trap(); } while (0);",
     "warning"),
    # (fmha_v2's epilogue scales accumulators held in "r" registers)
    ('asm volatile("mul.f32 %0, %0, %1;\\n" : "+r"(a) : "f"(x));',
     "__ptx_r0 = __builtin_bit_cast(unsigned int, static_cast<float>(__builtin_bit_cast(float, __ptx_r0) "
     "* __ptx_r1));", "info"),
    ('asm("mul.rn.f32 %0, %1, %2;" : "=f"(x) : "f"(y), "f"(x));', "x = __ocml_mul_rte_f32(y, x);", "info"),
    ('asm("add.rm.f32 %0, %1, %2;" : "=f"(x) : "f"(y), "f"(x));', "x = __ocml_add_rtn_f32(y, x);", "info"),
    ('asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(x) : "f"(y), "f"(x), "f"(p[0]));',
     "x = __builtin_fmaf(y, x, p[0]);", "info"),
    ('asm("neg.f32 %0, %1;" : "=f"(x) : "f"(y));', "x = -y;", "info"),
    ('asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(a) : "r"(b), "r"(c), "r"(a));',
     "[](unsigned int x, unsigned int y, unsigned int z) { _Pragma(\"clang fp contract(off)\") unsigned int "
     "d = 0; for (int k = 0; k < 32; k += 16) { _Float16 r = __builtin_fmaf16(", "info"),
    ('asm("mul.bf16x2 %0, %1, %2;" : "=r"(a) : "r"(b), "r"(c));',
     "[](unsigned int x, unsigned int y) { unsigned int d = 0; for (int k = 0; k < 32; k += 16) { __bf16 r = "
     "__builtin_bit_cast(__bf16, static_cast<unsigned short>(x >> k)) * __builtin_bit_cast(__bf16, "
     "static_cast<unsigned short>(y >> k)); d |= static_cast<unsigned int>(r != r ? 0x7FFFu : ", "info"),
    # (mixed precision: the bfloat16 or half source widened exactly, then the f32 operation)
    ('asm("add.rn.f32.bf16 %0, %1, %2;" : "=f"(x) : "h"(s[0]), "f"(y));',
     "x = __ocml_add_rte_f32(__builtin_bit_cast(float, static_cast<unsigned int>(__builtin_bit_cast("
     "unsigned short, s[0])) << 16), y);", "info"),
    ('asm("fma.rn.f32.f16 %0, %1, %2, %3;" : "=f"(x) : "h"(s[0]), "h"(s[1]), "f"(y));',
     "x = __builtin_fmaf(static_cast<float>(__builtin_bit_cast(_Float16, __builtin_bit_cast(unsigned short, "
     "s[0]))), static_cast<float>(__builtin_bit_cast(_Float16, __builtin_bit_cast(unsigned short, s[1]))), y);",
     "info"),
    ('asm("shl.b32 %0, %1, 16;" : "=r"(a) : "r"(b));',
     "[](unsigned int a, unsigned int n) { return n > 31u ? 0u : a << n; }(__builtin_bit_cast(unsigned "
     "int, b), static_cast<unsigned int>(16))", "info"),
]


@pytest.mark.parametrize("stmt, expected, severity", FORMS, ids=[
    re.search(r'"([^"%;\\]+)', s).group(1).strip().replace(" ", "_") for s, _, _ in FORMS])
def test_form(stmt, expected, severity):
    out, findings = run(stmt)
    assert "asm" not in out
    assert expected in line_of(out), line_of(out)
    assert codes(findings) == [("CP230", severity)]
    # translating the translation changes nothing
    assert translate_bytes(out.encode(), Options(target_version="7.2"), "k.hip").output.decode() == out


# FP8/FP4 pair conversions call the portable header's functions, whose sections the
# translation copies in (the first source goes to the upper byte or nibble)
PAIR_FORMS = [
    ('asm("cvt.rn.satfinite.e4m3x2.f32 %0, %2, %1;" : "=h"(s[0]) : "f"(x), "f"(y));',
     "s[0] = __builtin_bit_cast(__typeof__(s[0]), static_cast<unsigned short>("
     "cudaport_cvt_rn_satfinite_e4m3x2_f32(y, x)));", "CUDAPORT_PORTABLE_FP8"),
    ('asm("cvt.rn.e5m2x2.f32.satfinite %0, %1, %2;" : "=h"(s[0]) : "f"(x), "f"(y));',
     "cudaport_cvt_rn_satfinite_e5m2x2_f32(x, y)", "CUDAPORT_PORTABLE_FP8"),
    ('asm("cvt.satfinite.rn.e4m3x2.f16x2 %0, %1;" : "=h"(s[0]) : "r"(a));',
     "cudaport_cvt_rn_satfinite_e4m3x2_f16x2(__builtin_bit_cast(unsigned int, a))",
     "CUDAPORT_PORTABLE_FP8"),
    ('asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(c) : "h"(s[1]));',
     "cudaport_cvt_rn_f16x2_e5m2x2(__builtin_bit_cast(unsigned short, s[1]))",
     "CUDAPORT_PORTABLE_FP8"),
    ('asm("{\\n.reg .b8 b0, b1;\\ncvt.rn.satfinite.e2m1x2.f32 b0, %2, %1;\\n'
     'cvt.rn.satfinite.e2m1x2.f32 b1, %1, %2;\\nmov.b32 %0, {b0, b1, b0, b1};\\n}" '
     ': "=r"(c) : "f"(x), "f"(y));',
     "__ptx_v_b0 = static_cast<unsigned char>(cudaport_cvt_rn_satfinite_e2m1x2_f32(__ptx_r2, __ptx_r1))",
     "CUDAPORT_PORTABLE_FP4_PTX"),
    ('asm("{\\n.reg .b8 b0;\\nmov.b32 {b0, _, _, _}, %1;\\ncvt.rn.f16x2.e2m1x2 %0, b0;\\n}" '
     ': "=r"(c) : "r"(a));',
     "__ptx_r0 = static_cast<unsigned int>(cudaport_cvt_rn_f16x2_e2m1x2(__ptx_v_b0))",
     "CUDAPORT_PORTABLE_FP4_PTX"),
    ('asm("{\\ncvt.rp.satfinite.ue8m0x2.f32 %0, 0.0, %1;\\n}" : "=h"(s[0]) : "f"(x));',
     "cudaport_cvt_ue8m0x2_f32(static_cast<float>(0.0), x, 1, 2)", "CUDAPORT_PORTABLE_E8M0"),
    ('asm("cvt.rn.bf16x2.ue8m0x2 %0, %1;" : "=r"(c) : "h"(s[1]));',
     "cudaport_cvt_rn_bf16x2_ue8m0x2(__builtin_bit_cast(unsigned short, s[1]))",
     "CUDAPORT_PORTABLE_E8M0"),
    ('asm("fma.rn.f32x2 %0, %1, %2, %3;" : "=l"(w[0]) : "l"(w[1]), "l"(w[2]), "l"(w[3]));',
     "w[0] = __builtin_bit_cast(__typeof__(w[0]), static_cast<unsigned long long>(cudaport_fma_rn_f32x2(",
     "CUDAPORT_PORTABLE_F32X2"),
    ('asm("{\\n.reg .b64 la, lc;\\nmov.b64 la, {%0, %1};\\nmov.b64 lc, {%2, %2};\\n'
     'mul.rn.ftz.f32x2 la, la, lc;\\nmov.b64 {%0, %1}, la;\\n}" : "+f"(x), "+f"(y) : "f"(p[0]));',
     "__ptx_v_la = static_cast<unsigned long long>(cudaport_mul_rn_ftz_f32x2(__ptx_v_la, __ptx_v_lc))",
     "CUDAPORT_PORTABLE_F32X2"),
]


@pytest.mark.parametrize("stmt, expected, section", PAIR_FORMS)
def test_fp8_and_fp4_pairs_call_the_portable_header(stmt, expected, section):
    out, findings = run(stmt)
    body = out.split("__device__ void f(", 1)[1].splitlines()[1]
    assert "asm" not in body and expected in body, body
    assert f"#ifndef {section}" in out.split("__device__ void f(", 1)[0]
    assert codes(findings) == [("CP230", "info")]
    assert translate_bytes(out.encode(), Options(target_version="7.2"), "k.hip").output.decode() == out


def test_several_instructions_go_through_locals():
    out, findings = run('asm volatile("{\\n\\t.reg .b32 t1;\\n\\tmul.hi.u32 t1, %1, %2;\\n\\t'
                        'mov.b32 %0, t1;\\n\\t}" : "=r"(a) : "r"(a), "r"(b));')
    # inputs are read into registers first and the output written last, as the asm does
    assert line_of(out) == (
        "do { unsigned int __ptx_r0; unsigned int __ptx_r1 = __builtin_bit_cast(unsigned int, a); "
        "unsigned int __ptx_r2 = __builtin_bit_cast(unsigned int, b); unsigned int __ptx_v_t1; "
        "__ptx_v_t1 = static_cast<unsigned int>(__umulhi(__ptx_r1, __ptx_r2)); "
        "__ptx_r0 = static_cast<unsigned int>(__ptx_v_t1); "
        "a = __builtin_bit_cast(__typeof__(a), __ptx_r0); } while (0);")
    assert codes(findings) == [("CP230", "info")]


def test_operand_names_and_the_spelling_of_operands_keep_their_translation():
    out, _ = run('asm volatile("ld.global.nc.u32 %[v], [%[ptr]];" : [v] "=r"(a) : '
                 '[ptr] "l"(u + threadIdx.x));')
    assert line_of(out) == ("a = __builtin_bit_cast(__typeof__(a), static_cast<unsigned int>"
                            "(*((const unsigned int *)(u + threadIdx.x))));")


@pytest.mark.parametrize("stmt, named", [
    ('asm volatile("ldmatrix.sync.aligned.m8n8.x4.b16 {%0, %1, %2, %3}, [%4];" : "=r"(a), '
     '"=r"(b), "=r"(c), "=r"(s[0]) : "r"(a));', "'ldmatrix.sync.aligned.m8n8.x4.b16' has no HIP form"),
    ('asm volatile("{\\n.reg .pred p;\\nsetp.ltu.f32 p, %1, %2;\\n@p atom.global.add.u32 %0, [%3], 1;\\n}"'
     ' : "=r"(a) : "f"(x), "f"(y), "l"(u));', "'setp.ltu.f32' has no HIP form"),
    ('asm volatile("bar.sync 1, 128;");', "'bar.sync 1, 128' (a named barrier or a thread count)"),
    ('asm volatile("mov.u32 %0, %%warpid;" : "=r"(a));', "%warpid has no HIP form"),
    ('asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, %3;" : "=r"(a) : "r"(a), "r"(b), "r"(c));',
     "with a mask other than the full warp"),
    ('asm volatile("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(a) : "r"(a), "r"(b), "r"(c));',
     "a mode other than the default"),
    ('asm volatile("cp.async.bulk.wait_group.read 0;");', "'cp.async.bulk.wait_group.read'"),
    ('asm volatile("ld.global.nc" SUFFIX " %0, [%1];" : "=r"(a) : "l"(u));',
     "its text is built with SUFFIX"),
    ('asm volatile("fence.proxy.async;");', "'fence.proxy.async' has no HIP form"),
    ('asm volatile("brkpt %0;" :: "r"(a));', "'brkpt $0' has no HIP form"),
    ('asm("fma.rn.bf16x2 %0, %1, %2, %3;" : "=r"(a) : "r"(b), "r"(c), "r"(a));',
     "'fma.rn.bf16x2' has no HIP form"),
    ('asm("add.rn.ftz.f16x2 %0, %1, %2;" : "=r"(a) : "r"(b), "r"(c));', "'add.rn.ftz.f16x2' has no HIP form"),
    ('asm volatile("atom.shared.inc.u32 %0, [%1], %2;" : "=r"(a) : "r"(c), "r"(b));',
     "'atom.shared.inc.u32' (the .shared space) has no HIP form"),
])
def test_left_as_it_is_with_the_instruction_named(stmt, named):
    out, findings = run(stmt)
    assert line_of(out) == stmt
    blocked = [f for f in findings if f.code == "CP210"]
    assert len(blocked) == 1 and blocked[0].severity == "error"
    assert named in blocked[0].message, blocked[0].message


@pytest.mark.parametrize("operand", [
    "#include <cuda_runtime.h>\nw[0]",  # (bench/fuzz.py's fourth run, failure-8)
    "#define Q 1\nw[0]",
    "w[0] # 1",
    "w[ ## 0]",
])
def test_a_hash_among_the_operands_is_left_as_written_and_a_second_pass_agrees(operand):
    # A rewrite puts an operand's text at a line's start, where a second pass would read a
    # '#' there as a directive: the statement is left as written, reported.
    stmt = f'asm volatile("mov.u64 %0, %%globaltimer;" : "=l"({operand}));'
    out, findings = run(stmt)
    assert stmt in out
    blocked = [f for f in findings if f.code == "CP210"]
    assert len(blocked) == 1 and "a '#' outside its strings" in blocked[0].message
    again = translate_bytes(out.encode(), Options(target_version="7.2"), "k.cu")
    assert again.output.decode() == out


def test_redux_with_a_partial_mask_is_left_as_it_is():
    out, findings = run('asm volatile("redux.sync.or.b32 %0, %1, 0xffff;" : "=r"(c) : "r"(a));')
    assert "asm" in out
    assert [f.message for f in findings if f.code == "CP210"][0].count("mask other than the full warp") == 1


def test_one_instruction_without_a_form_keeps_the_whole_statement():
    stmt = ('asm volatile("{\\nmul.hi.u32 %0, %1, %2;\\nldmatrix.sync.aligned.m8n8.x1.b16 {%0}, '
            '[%1];\\n}" : "=r"(a) : "r"(b), "r"(c));')
    out, findings = run(stmt)
    assert line_of(out) == stmt
    assert "'ldmatrix.sync.aligned.m8n8.x1.b16'" in [f for f in findings if f.code == "CP210"][0].message


def test_amd_assembly_and_host_assembly_are_not_ptx():
    out, findings = run('asm volatile("v_dot2_f32_f16 %0, %1, %2, %0" : "+v"(x) : "v"(a), "v"(b));')
    assert codes(findings) == []
    # a header without device code: its assembly is the CPU's
    src = b'static inline void pause() { __asm__ __volatile__("pause" ::: "memory"); }\n'
    result = translate_bytes(src, Options(target_version="7.2"), "cpu.h")
    assert codes(result.findings) == []
    # ggml's ET-SoC (RISC-V) headers: no device code, and mnemonics PTX does not have
    # (mova.x.m, fbcx.ps) or a mov without a PTX type
    for stmt in (b'__asm__ volatile("mov.m.x m0, x0, 0xFF");',
                 b'__asm__ volatile("mova.x.m %0" : "=r"(m));',
                 b'__asm__ volatile("fbcx.ps f0, %0" :: "r"(v) : "f0");'):
        src = b"static inline void mask(unsigned long m, int v) { " + stmt + b" }\n"
        assert codes(translate_bytes(src, Options(target_version="7.2"), "block_ops.h").findings) == []
    # ... but PTX there is still reported
    src = b'static inline unsigned lane() { unsigned r; asm("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }\n'
    assert codes(translate_bytes(src, Options(target_version="7.2"), "x.h").findings) == [
        ("CP230", "warning")]


def _lop3(a: int, b: int, c: int, lut: int) -> int:
    """PTX ISA, lop3: bit i of d is LUT bit (a_i << 2 | b_i << 1 | c_i)."""
    return sum(((lut >> ((a >> i & 1) << 2 | (b >> i & 1) << 1 | (c >> i & 1))) & 1) << i
               for i in range(32))


def _c_eval(expr: str, **values: int) -> int:
    """A C expression of unsigned 32-bit values, in Python (same precedence for ~ * >> & ^ |)."""
    return eval(re.sub(r"\b(0x[0-9A-Fa-f]+|\d+)u\b", r"\1", expr), {}, values) & 0xFFFFFFFF


def test_lop3_expression_matches_every_lookup_table():
    rng = random.Random(29)
    samples = [(0, 0, 0), (0xFFFFFFFF,) * 3, (0xF0F0F0F0, 0xCCCCCCCC, 0xAAAAAAAA)] + [
        tuple(rng.getrandbits(32) for _ in range(3)) for _ in range(20)]
    for lut in range(256):
        expr = lop3_expression(lut)
        for a, b, c in samples:
            assert _c_eval(expr, a=a, b=b, c=c) == _lop3(a, b, c, lut), (hex(lut), expr)


def _prmt(a: int, b: int, c: int) -> int:
    """PTX ISA, prmt.b32 default mode: byte i of d is byte (c_i & 7) of {b, a}, or that
    byte's sign replicated when bit 3 of the selector nibble c_i is set."""
    data = a | b << 32
    out = 0
    for i in range(4):
        nibble = c >> 4 * i & 0xF
        byte = data >> 8 * (nibble & 7) & 0xFF
        if nibble & 8:
            byte = 0xFF if byte & 0x80 else 0
        out |= byte << 8 * i
    return out


def test_prmt_rewrite_matches_ptx_semantics():
    rng = random.Random(29)
    selectors = [0x5410, 0x7632, 0x3210, 0x0123, 0x4444, 0x8880, 0xF0E1, 0x1BE4] + [
        rng.getrandbits(16) for _ in range(40)]
    for sel in selectors:
        out, _ = run(f'asm("prmt.b32 %0, %1, %2, {hex(sel)};" : "=r"(c) : "r"(a), "r"(b));')
        expr = re.search(r"static_cast<unsigned int>\((.*)\)\); \} while", line_of(out))
        expr = expr.group(1) if expr else re.search(
            r"static_cast<unsigned int>\((.*)\)\);$", line_of(out)).group(1)
        expr = expr.replace("__builtin_bit_cast(unsigned int, a)", "a").replace(
            "__builtin_bit_cast(unsigned int, b)", "b")
        expr = re.sub(r"unsigned int (__ptx_t\d) = (\w+); ", "", expr)
        for a, b in [(0x80FF7F01, 0x12345678), (0, 0xFFFFFFFF)] + [
                (rng.getrandbits(32), rng.getrandbits(32)) for _ in range(8)]:
            names = dict(re.findall(r"unsigned int (__ptx_t\d) = __builtin_bit_cast\(unsigned int, (\w)\)",
                                    line_of(out)))
            values = {t: {"a": a, "b": b}[v] for t, v in names.items()}
            assert _c_eval(expr, a=a, b=b, **values) == _prmt(a, b, sel), (hex(sel), expr)


def test_prmt_with_a_run_time_selector_matches_ptx_semantics(tmp_path):
    out, findings = run('asm("prmt.b32 %0, %1, %2, %3;" : "=r"(c) : "r"(a), "r"(b), "r"(c));')
    assert codes(findings) == [("CP230", "info")], findings
    lam = re.search(r"(\[\]\(unsigned int a, unsigned int b, unsigned int c\).*\})\(__builtin_bit_cast",
                    line_of(out)).group(1)
    rng = random.Random(7)
    cases = [(rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32)) for _ in range(3000)]
    cases += [(0x80FF7F01, 0x00817E80, sel) for sel in (0x3210, 0x7654, 0x8888, 0xFEDC, 0xBA98, 0x5410)]
    program = tmp_path / "prmt.cpp"
    program.write_text("#include <cstdio>\nint main() { unsigned a, b, c; auto f = " + lam +
                       ";\n  while (std::scanf(\"%u %u %u\", &a, &b, &c) == 3) std::printf(\"%u\\n\", f(a, b, c));\n}\n")
    subprocess.run(["g++", "-std=c++17", "-O1", str(program), "-o", str(tmp_path / "prmt")], check=True)
    got = subprocess.run([str(tmp_path / "prmt")], input="".join(f"{a} {b} {c}\n" for a, b, c in cases),
                         capture_output=True, text=True, check=True).stdout.split()
    assert len(got) == len(cases)
    for (a, b, c), result in zip(cases, got):
        assert int(result) == _prmt(a, b, c), (hex(a), hex(b), hex(c))


def _host_lambda(tmp_path, lam: str, params: str, inputs: list[str], fmt: str, wrap: str = "@") -> list[str]:
    """Run a rewritten statement's lambda on the host (g++) over lines of inputs (each
    argument read as unsigned and put for the @ of ``wrap``)."""
    n = params.count(",") + 1
    program = tmp_path / "lam.cpp"
    program.write_text("#include <cstdio>\n#include <cstring>\nint main() { " + params + "; auto f = " + lam +
                       ";\n  while (std::scanf(\"" + fmt + "\", " +
                       ", ".join(f"&v{i}" for i in range(n)) + ") == " + str(n) + ") {\n"
                       "    std::printf(\"%u\\n\", static_cast<unsigned>(f(" +
                       ", ".join(wrap.replace("@", f"v{i}") for i in range(n)) + ")));\n  }\n}\n")
    subprocess.run(["g++", "-std=c++17", "-O1", str(program), "-o", str(tmp_path / "lam")], check=True)
    return subprocess.run([str(tmp_path / "lam")], input="".join(line + "\n" for line in inputs),
                          capture_output=True, text=True, check=True).stdout.split()


@pytest.mark.parametrize("rounding", ["rni", "rzi", "rmi", "rpi"])
def test_float_to_int_conversions_round_clamp_and_give_nan_as_zero(tmp_path, rounding):
    import math
    import struct

    out, findings = run(f'asm("cvt.{rounding}.s32.f32 %0, %1;" : "=r"(s[0]) : "f"(x));')
    assert codes(findings) == [("CP230", "info")], findings
    lam = re.search(r"(\[\]\(float x\) \{.*?; \})\(", line_of(out)).group(1)
    rng = random.Random(rounding)
    bits = [0x7FC00000, 0xFFC00000, 0x7F800001, 0x7F800000, 0xFF800000, 0x4F000000, 0xCF000000,
            0x4EFFFFFF, 0xCF000001, 0x3F000000, 0xBF000000, 0x3FC00000, 0x40200000, 0xC0200000,
            0x00000001, 0x80000000, 0x3F7FFFFF] + [rng.getrandbits(32) for _ in range(3000)]
    bits += [struct.unpack("<I", struct.pack("<f", k + 0.5))[0] for k in range(-6, 6)]
    # (the lambda takes a float: the program reads its bits)
    got = _host_lambda(tmp_path, lam, "unsigned v0", [str(b) for b in bits], "%u",
                       "[](unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }(@)")
    assert len(got) == len(bits)
    for b, r in zip(bits, got):
        v = struct.unpack("<f", struct.pack("<I", b))[0]
        if math.isnan(v):
            want = 0
        else:
            if math.isinf(v):
                i = 2**31 if v > 0 else -2**31 - 1
            else:
                i = {"rni": round, "rzi": math.trunc, "rmi": math.floor, "rpi": math.ceil}[rounding](v)
            want = max(-2**31, min(2**31 - 1, i))
        assert int(r) == want & 0xFFFFFFFF, (rounding, hex(b), v, r, want)


def test_float_to_byte_rounds_clamps_and_sign_extends_into_the_register(tmp_path):
    import math
    import struct

    out, findings = run('asm("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(s[0]) : "f"(x));')
    assert codes(findings) == [("CP230", "info")], findings
    # (the byte goes into the 32-bit register sign-extended: PTX ISA, "Operand Size
    # Exceeding Instruction-Type Size")
    assert "static_cast<unsigned int>(static_cast<signed char>(" in line_of(out)
    lam = re.search(r"(\[\]\(float x\) \{.*?; \})\(", line_of(out)).group(1)
    wrapped = f"[](float v) {{ return static_cast<unsigned int>(static_cast<signed char>({lam}(v))); }}"
    rng = random.Random(8)
    bits = [0x7FC00000, 0xFFC00000, 0x7F800000, 0xFF800000, 0x00000001, 0x80000000]
    bits += [struct.unpack("<I", struct.pack("<f", k + d))[0] for k in range(-140, 140)
             for d in (0.0, 0.5, 0.25, -0.5)]
    bits += [rng.getrandbits(32) for _ in range(2000)]
    got = _host_lambda(tmp_path, wrapped, "unsigned v0", [str(b) for b in bits], "%u",
                       "[](unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }(@)")
    assert len(got) == len(bits)
    for b, r in zip(bits, got):
        v = struct.unpack("<f", struct.pack("<I", b))[0]
        want = 0 if math.isnan(v) else max(-128, min(127, round(v) if not math.isinf(v) else int(math.copysign(999, v))))
        assert int(r) == want & 0xFFFFFFFF, (hex(b), v, r, want)
    out, findings = run('asm("cvt.rni.sat.s8.f16 %0, %1;" : "=h"(s[0]) : "h"(s[1]));')
    assert codes(findings) == [("CP230", "info")] and "__builtin_bit_cast(_Float16," in line_of(out)


@pytest.mark.parametrize("opcode", ["cvt.pack.sat.u8.s32.b32", "cvt.pack.sat.s8.s32.b32",
                                    "cvt.pack.sat.u16.s32", "cvt.pack.sat.s16.s32"])
def test_cvt_pack_matches_the_ptx_isa(tmp_path, opcode):
    with_c = opcode.endswith(".b32")
    stmt = f'asm("{opcode} %0, %1, %2{", %3" if with_c else ""};" : "=r"(c) : "r"(a), "r"(b)' + \
        (', "r"(c));' if with_c else ");")
    out, findings = run(stmt)
    assert codes(findings) == [("CP230", "info")], findings
    lam = re.search(r"(\[\]\(unsigned int a, .*?; \})\(", line_of(out)).group(1)
    width = 8 if with_c else 16
    lo, hi = (0, (1 << width) - 1) if ".u" in opcode else (-(1 << width - 1), (1 << width - 1) - 1)
    rng = random.Random(opcode)
    edges = [0, 1, 127, 128, 255, 256, 32767, 32768, 65535, 65536, 0x7FFFFFFF, 0x80000000,
             0xFFFFFFFF, 0xFFFFFF80, 0xFFFFFF7F, 0xFFFF8000, 0xFFFF7FFF]
    cases = [(rng.choice(edges) if rng.random() < 0.4 else rng.getrandbits(32),
              rng.choice(edges) if rng.random() < 0.4 else rng.getrandbits(32), rng.getrandbits(32))
             for _ in range(3000)]
    params = "unsigned v0, v1, v2" if with_c else "unsigned v0, v1"
    got = _host_lambda(tmp_path, lam, params, [" ".join(map(str, c[:3 if with_c else 2])) for c in cases],
                       "%u %u %u" if with_c else "%u %u")
    assert len(got) == len(cases)
    signed = lambda v: v - (1 << 32) if v & 0x80000000 else v  # noqa: E731
    mask = (1 << width) - 1
    for (a, b, c), r in zip(cases, got):
        ta = max(lo, min(hi, signed(a))) & mask
        tb = max(lo, min(hi, signed(b))) & mask
        want = ta << width | tb
        if with_c:
            want |= (c << 16) & 0xFFFFFFFF
        assert int(r) == want, (opcode, hex(a), hex(b), hex(c), hex(int(r)), hex(want))


CARRY_CHAINS = {
    # 96-bit add and subtract through the carry flag: u[8..10] = u[0..2] op u[3..5]
    "add": 'asm("add.cc.u32 %0, %3, %6;\\n addc.cc.u32 %1, %4, %7;\\n addc.u32 %2, %5, %8;" : "=r"(u[8]), '
           '"=r"(u[9]), "=r"(u[10]) : "r"(u[0]), "r"(u[1]), "r"(u[2]), "r"(u[3]), "r"(u[4]), "r"(u[5]));',
    "sub": 'asm("sub.cc.u32 %0, %3, %6;\\n subc.cc.u32 %1, %4, %7;\\n subc.u32 %2, %5, %8;" : "=r"(u[8]), '
           '"=r"(u[9]), "=r"(u[10]) : "r"(u[0]), "r"(u[1]), "r"(u[2]), "r"(u[3]), "r"(u[4]), "r"(u[5]));',
}


@pytest.mark.slow  # (clang's __builtin_addc/__builtin_subc: the ROCm root's clang++ on the host)
@pytest.mark.parametrize("op", sorted(CARRY_CHAINS))
def test_carry_chains_compute_the_wide_sum_and_difference(tmp_path, op):
    from conftest import rocm_wrapper

    out, findings = run(CARRY_CHAINS[op])
    assert codes(findings) == [("CP230", "info")], findings
    import os

    in_root = {**os.environ, "CUDAPORT_ROOT_COMMAND": "1"}  # (a command of the ROCm root)
    root = rocm_wrapper().parent
    clang = "/" + str(sorted(root.glob("usr/lib/llvm-*/bin/clang++"))[-1].relative_to(root))
    program = tmp_path / "carry.cpp"
    program.write_text("#include <cstdio>\nint main() { unsigned u[11];\n"
                       "  while (std::scanf(\"%u %u %u %u %u %u\", u, u + 1, u + 2, u + 3, u + 4, u + 5) == 6) {\n"
                       f"    {line_of(out)}\n"
                       "    std::printf(\"%u %u %u\\n\", u[8], u[9], u[10]);\n  }\n}\n")
    subprocess.run([str(rocm_wrapper()), clang, "-std=c++17", "-O1", str(program), "-o",
                    str(tmp_path / "carry")], check=True, env=in_root)
    rng = random.Random(op)
    edges = [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF]
    cases = [[rng.choice(edges) if rng.random() < 0.5 else rng.getrandbits(32) for _ in range(6)]
             for _ in range(4000)]
    got = subprocess.run([str(rocm_wrapper()), str(tmp_path / "carry")], env=in_root,
                         input="".join(" ".join(map(str, c)) + "\n" for c in cases),
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(got) == len(cases)
    for c, line in zip(cases, got):
        x = c[0] | c[1] << 32 | c[2] << 64
        y = c[3] | c[4] << 32 | c[5] << 64
        want = (x + y if op == "add" else x - y) % (1 << 96)
        r = [int(v) for v in line.split()]
        assert r[0] | r[1] << 32 | r[2] << 64 == want, (op, c)


def test_a_carry_read_before_the_statement_sets_it_keeps_the_statement():
    out, findings = run('asm("addc.u32 %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));')
    assert "asm" in out and [f.code for f in findings if f.code in ("CP210", "CP230")] == ["CP210"]
    assert "addc.u32" in [f.message for f in findings if f.code == "CP210"][0]


@pytest.mark.slow
@pytest.mark.parametrize("version, arch", [("7.2", "gfx942"), ("7.2", "gfx90a"), ("6.4", "gfx942")])
def test_every_form_compiles_to_object_code(tmp_path, version, arch):
    result = translate_bytes((DATA / "forms.cu").read_bytes(), Options(target_version=version),
                             "forms.cu")
    assert b"asm" not in result.output
    assert not [f for f in result.findings if f.code == "CP210"]
    path = tmp_path / "forms.hip"
    path.write_bytes(result.output)
    compile_object(path, arch, version)


MORE_FORMS = [
    ('asm("mov.b64 {%0,%1,%2,%3}, %4;" : "=h"(s[0]), "=h"(s[1]), "=h"(s[2]), "=h"(s[3]) : "l"(w[0]));',
     "s[3] = __builtin_bit_cast(__typeof__(s[3]), static_cast<unsigned short>(__ptx_t1 >> 48));"),
    ('asm("mov.b32 %0, {%1,%2,%3,%4};" : "=r"(a) : "h"(s[0]), "h"(s[1]), "h"(s[2]), "h"(s[3]));',
     "static_cast<unsigned int>(static_cast<unsigned char>(__builtin_bit_cast(unsigned short, s[3]))) << 24"),
    ('asm("{\\n.reg .f16x2 m;\\nmax.f16x2 m, %1, %2;\\nmov.b32 %0, m;\\n}" : "=r"(a) : "r"(b), "r"(c));',
     "unsigned int __ptx_v_m; __ptx_v_m = static_cast<unsigned int>([](unsigned int a, unsigned int b)"),
    ('asm("add.s32 %0, %1, %2;" : "=r"(s[0]) : "r"(a), "r"(b));',
     "static_cast<unsigned int>(__builtin_bit_cast(unsigned int, a) + __builtin_bit_cast(unsigned int, b))"),
    ('asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(c) : "r"(a), "r"(b), "r"(c));',
     "__builtin_bit_cast(unsigned int, a) * __builtin_bit_cast(unsigned int, b) + "
     "__builtin_bit_cast(unsigned int, c)"),
    ('asm("cvt.u16.u32 %0, %1;" : "=h"(s[0]) : "r"(a));',
     "static_cast<unsigned short>(__builtin_bit_cast(unsigned int, a))"),
    ('asm("cvt.f32.bf16 %0, %1;" : "=f"(x) : "h"(s[0]));',
     "x = __builtin_bit_cast(float, static_cast<unsigned int>(__builtin_bit_cast(unsigned short, s[0])) << 16);"),
    ('asm("cvt.f32.f16 %0, %1;" : "=f"(x) : "h"(s[0]));',
     "x = static_cast<float>(__builtin_bit_cast(_Float16, __builtin_bit_cast(unsigned short, s[0])));"),
    ('asm("max.s32 %0, %1, %2;" : "=r"(s[0]) : "r"(a), "r"(b));', "__ptx_t1 > __ptx_t2 ? __ptx_t1 : __ptx_t2"),
    ('asm volatile("{\\n.reg .pred p;\\nsetp.eq.u32 p, %2, 1;\\n@p atom.global.add.u32 %0, [%1], 1;\\n}"'
     ' : "=r"(a) : "l"(u), "r"(b));',
     "do { unsigned int __ptx_r0 = 0; unsigned long long __ptx_r1 = __builtin_bit_cast(unsigned long long, u); "
     "unsigned int __ptx_r2 = __builtin_bit_cast(unsigned int, b); bool __ptx_v_p = false; "
     "__ptx_v_p = __ptx_r2 == static_cast<unsigned int>(1); if (__ptx_v_p) { __ptx_r0 = "
     "static_cast<unsigned int>(__hip_atomic_fetch_add(((unsigned int *)__ptx_r1), "
     "static_cast<unsigned int>(1), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT)); }; "
     "a = __builtin_bit_cast(__typeof__(a), __ptx_r0); } while (0);"),
    ('asm volatile("{\\n.reg .pred q;\\nsetp.ne.f32 q, %1, %2;\\nselp.b32 %0, 1, 0, q;\\n}" : "=r"(a) : "f"(x), "f"(y));',
     "__ptx_v_q = (__ptx_r1 < __ptx_r2 || __ptx_r1 > __ptx_r2); __ptx_r0 = static_cast<unsigned int>(__ptx_v_q ? "),
    ('asm("{\\n.reg.b64 t;\\nmul.wide.u32 t, %1, %2;\\nmov.b64 {%0, %1}, t;\\n}" : "=r"(a), "+r"(b) : "r"(c));',
     "__ptx_r0 = static_cast<unsigned int>(__ptx_t1); __ptx_r1 = static_cast<unsigned int>(__ptx_t1 >> 32)"),
]


@pytest.mark.parametrize("stmt, expected", MORE_FORMS)
def test_more_forms(stmt, expected):
    out, findings = run(stmt)
    assert "asm" not in out and expected in line_of(out), line_of(out)
    assert codes(findings) == [("CP230", "info")]


# --- min/max against the PTX ISA's definition, compiled for the host ---------------------

FORMATS = {"f16": (16, 5, 10), "bf16": (16, 8, 7), "f32": (32, 8, 23)}


def _value(bits: int, fmt: str) -> float:
    import struct
    if fmt == "f32":
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    if fmt == "bf16":
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    return struct.unpack("<e", struct.pack("<H", bits))[0]


def _ptx_minmax(a: int, b: int, fmt: str, largest: bool, nan_mode: bool, xorsign: bool) -> int:
    """PTX ISA 9.0, max/min (floating point), one lane: the pseudo-code, on decoded values."""
    width = FORMATS[fmt][0]
    sign_bit = 1 << (width - 1)
    canonical = (1 << (width - 1)) - 1  # 0x7fff, 0x7fffffff
    va, vb = _value(a, fmt), _value(b, fmt)
    if xorsign:
        xs = (a ^ b) & sign_bit
        a, b = a & ~sign_bit, b & ~sign_bit
        va, vb = abs(va), abs(vb)
    na, nb = va != va, vb != vb
    if na and nb or nan_mode and (na or nb):
        return canonical
    if na:
        d = b
    elif nb:
        d = a
    elif va == vb == 0:  # +0.0 > -0.0
        pos, neg = (a, b) if not a & sign_bit else (b, a)
        d = pos if largest else neg
    else:
        d = a if (va > vb if largest else va < vb) else b
    if xorsign:
        d = d & ~sign_bit | xs
    return d


def _interesting(fmt: str, rng: random.Random) -> list[int]:
    width, exp_bits, man_bits = FORMATS[fmt]
    sign = 1 << (width - 1)
    exp_mask = ((1 << exp_bits) - 1) << man_bits
    base = [0, 1, exp_mask, exp_mask | 1, exp_mask | (1 << (man_bits - 1)), canonical := sign - 1,
            exp_mask - 1, 1 << man_bits, (1 << man_bits) - 1, (exp_mask >> 1) & exp_mask]
    values = base + [v | sign for v in base]
    return values + [rng.getrandbits(width) for _ in range(24)]


@pytest.mark.parametrize("opcode", ["max.f32", "min.f32", "max.NaN.f32", "max.xorsign.abs.f32",
                                    "max.f16x2", "min.bf16x2", "max.NaN.bf16x2",
                                    "max.xorsign.abs.bf16x2", "min.xorsign.abs.f16x2",
                                    "max.NaN.xorsign.abs.f16x2"])
def test_min_max_match_the_ptx_isa(tmp_path, opcode):
    out, findings = run(f'asm("{opcode} %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));')
    assert codes(findings) == [("CP230", "info")], findings
    lam = re.search(r"(\[\]\(unsigned int a, unsigned int b\).*\})\(__builtin_bit_cast", line_of(out)).group(1)
    parts = opcode.split(".")
    fmt = parts[-1].removesuffix("x2")
    lanes = 2 if parts[-1].endswith("x2") else 1
    width = FORMATS[fmt][0]
    rng = random.Random(opcode)
    values = _interesting(fmt, rng)
    pairs = [(x, y) for x in values for y in values]
    if lanes == 2:
        pairs = [(x | rng.choice(values) << 16, y | rng.choice(values) << 16) for x, y in pairs]
    program = tmp_path / "minmax.cpp"
    program.write_text("#include <cstdio>\nint main() { unsigned a, b; auto f = " + lam +
                       ";\n  while (std::scanf(\"%u %u\", &a, &b) == 2) std::printf(\"%u\\n\", f(a, b));\n}\n")
    subprocess.run(["g++", "-std=c++17", "-O1", str(program), "-o", str(tmp_path / "minmax")], check=True)
    got = subprocess.run([str(tmp_path / "minmax")], input="".join(f"{x} {y}\n" for x, y in pairs),
                         capture_output=True, text=True, check=True).stdout.split()
    for (x, y), result in zip(pairs, got):
        want = 0
        for lane in range(lanes):
            m = (1 << width) - 1
            want |= _ptx_minmax(x >> (width * lane) & m, y >> (width * lane) & m, fmt,
                                parts[0] == "max", "NaN" in parts, "xorsign" in parts) << (width * lane)
        assert int(result) == want, (opcode, hex(x), hex(y), hex(int(result)), hex(want))


# --- redux.sync against the PTX ISA, on the host --------------------------------------
# 64 threads stand for the lanes of a wavefront; __shfl_xor publishes each lane's value,
# waits for all, and reads its partner's within the width-lane segment.
_HOST_WAVEFRONT = r"""
#include <barrier>
#include <cstdio>
#include <thread>
#include <vector>
static std::barrier<> lanes_meet(64);
static unsigned published[64];
thread_local int lane;
template <class T> T __shfl_xor(T v, int k, int width) {
  published[lane] = static_cast<unsigned>(v);
  lanes_meet.arrive_and_wait();
  T r = static_cast<T>(published[(lane & ~(width - 1)) | ((lane ^ k) & (width - 1))]);
  lanes_meet.arrive_and_wait();
  return r;
}
"""


def test_redux_sync_reduces_each_32_lane_warp_of_a_wavefront(tmp_path):
    import functools
    import operator

    opcodes = ["redux.sync.add.u32", "redux.sync.add.s32", "redux.sync.min.u32", "redux.sync.min.s32",
               "redux.sync.max.u32", "redux.sync.max.s32", "redux.sync.and.b32", "redux.sync.or.b32",
               "redux.sync.xor.b32"]
    calls = []
    for k, opcode in enumerate(opcodes):
        out, findings = run(f'asm("{opcode} %0, %1, 0xffffffff;" : "=r"(a) : "r"(b));')
        assert codes(findings) == [("CP230", "info")], findings
        lam = re.search(r"(\[\]\(((?:unsigned )?int) v\) \{.*?return v; \})\(", line_of(out))
        calls.append(f"      out[{k}][l] = static_cast<unsigned>({lam.group(1)}"
                     f"(static_cast<{lam.group(2)}>(in[l])));\n")
    program = tmp_path / "redux.cpp"
    program.write_text(
        _HOST_WAVEFRONT + f"int main() {{\n  unsigned in[64], out[{len(opcodes)}][64];\n  for (;;) {{\n"
        "    for (int l = 0; l < 64; ++l) if (std::scanf(\"%u\", &in[l]) != 1) return 0;\n"
        "    std::vector<std::thread> threads;\n"
        "    for (int l = 0; l < 64; ++l) threads.emplace_back([&in, &out, l] {\n      lane = l;\n"
        + "".join(calls) + "    });\n    for (auto& t : threads) t.join();\n"
        "    for (auto& row : out) for (int l = 0; l < 64; ++l) std::printf(\"%u\\n\", row[l]);\n  }\n}\n")
    subprocess.run(["g++", "-std=c++20", "-O1", "-pthread", str(program), "-o", str(tmp_path / "redux")],
                   check=True)
    rng = random.Random(29)
    edges = [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x80000001, 0xFFFFFFFE]
    rounds = [[rng.choice(edges) if rng.random() < 0.3 else rng.getrandbits(32) for _ in range(64)]
              for _ in range(40)] + [[0xFFFFFFFF] * 32 + [0x80000000] * 32]
    got = subprocess.run([str(tmp_path / "redux")], input="".join(f"{v}\n" for r in rounds for v in r),
                         capture_output=True, text=True, check=True).stdout.split()
    assert len(got) == len(rounds) * len(opcodes) * 64
    signed = lambda v: v - (1 << 32) if v & 0x80000000 else v  # noqa: E731
    reduce = {"add": lambda vs, _: sum(vs), "min": lambda vs, key: min(vs, key=key),
              "max": lambda vs, key: max(vs, key=key),
              "and": lambda vs, _: functools.reduce(operator.and_, vs),
              "or": lambda vs, _: functools.reduce(operator.or_, vs),
              "xor": lambda vs, _: functools.reduce(operator.xor, vs)}
    results = iter(got)
    for values in rounds:
        for opcode in opcodes:
            op, t = opcode.split(".")[2:]
            key = signed if t == "s32" else None
            for warp in (values[:32], values[32:]):  # (each 32-lane warp of the wavefront alone)
                want = reduce[op](warp, key) & 0xFFFFFFFF
                for _ in range(32):
                    assert int(next(results)) == want, (opcode, warp)


@pytest.mark.parametrize("opcode", ["shl.b32", "shr.b32", "shr.u32", "shr.s32"])
def test_shifts_clamp_the_amount_to_the_width(tmp_path, opcode):
    out, findings = run(f'asm("{opcode} %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));')
    assert codes(findings) == [("CP230", "info")], findings
    lam = re.search(r"(\[\]\((?:unsigned )?int a, unsigned int n\) \{.*?; \})\(", line_of(out)).group(1)
    rng = random.Random(opcode)
    cases = [(rng.choice([0, 1, 0x80000000, 0xFFFFFFFF, 0x7FFFFFFF]) if rng.random() < 0.3
              else rng.getrandbits(32), n) for n in [*range(0, 40), 63, 64, 255, 0x80000000, 0xFFFFFFFF]
             for _ in range(20)]
    got = _host_lambda(tmp_path, lam, "unsigned v0, v1", [f"{a} {n}" for a, n in cases], "%u %u")
    assert len(got) == len(cases)
    for (a, n), r in zip(cases, got):
        k = min(n, 32)  # (PTX ISA: an amount above the width is the width)
        if opcode == "shl.b32":
            want = a << k
        elif opcode == "shr.s32":
            want = (a - (1 << 32) if a & 0x80000000 else a) >> k
        else:
            want = a >> k
        assert int(r) == want & 0xFFFFFFFF, (opcode, hex(a), n, r)


def test_lop3_with_a_lut_the_compiler_knows_matches_ptx_semantics(tmp_path):
    # (CUTLASS's `"n"(immLut)`: the value is a template constant the pass cannot read)
    out, findings = run('asm volatile("{\\n  lop3.b32 %0, %0, %1, %2, %3;\\n}\\n" : "+r"(a) : '
                        '"n"(0x01800180U), "r"(b), "n"(0xF8));')
    assert codes(findings) == [("CP230", "info")], findings
    lam = re.search(r"(\[\]\(unsigned int a, unsigned int b, unsigned int c, unsigned int l\) \{.*?; \})\(",
                    line_of(out)).group(1)
    rng = random.Random(3)
    cases = [(rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32), lut) for lut in range(256)
             for _ in range(4)]
    got = _host_lambda(tmp_path, lam, "unsigned v0, v1, v2, v3", [" ".join(map(str, c)) for c in cases],
                       "%u %u %u %u")
    assert len(got) == len(cases)
    for (a, b, c, lut), r in zip(cases, got):
        want = sum((lut >> (4 * (a >> i & 1) + 2 * (b >> i & 1) + (c >> i & 1)) & 1) << i for i in range(32))
        assert int(r) == want, (hex(a), hex(b), hex(c), hex(lut))


HALF_OPCODES = ["add.f16x2", "sub.rn.f16x2", "mul.rn.f16x2", "fma.rn.f16x2", "add.rn.bf16x2",
                "mul.bf16x2", "sub.rn.bf16", "fma.rn.f16"]


@pytest.mark.slow  # (_Float16, __bf16 and __builtin_fmaf16 as clang has them: the ROCm root's clang++)
def test_half_arithmetic_matches_ptx_semantics(tmp_path):
    import os
    from fractions import Fraction

    import numpy as np

    from conftest import rocm_wrapper

    lams = []
    for opcode in HALF_OPCODES:
        n = 3 if opcode.startswith("fma") else 2
        pair = "x2" in opcode
        reg = '"r"' if pair else '"h"'
        stmt = f'asm("{opcode} %0, ' + ", ".join(f"%{k}" for k in range(1, n + 1)) + \
            f';" : {reg.replace(chr(34) + "r", chr(34) + "=r").replace(chr(34) + "h", chr(34) + "=h")}(a) : ' + \
            ", ".join(f"{reg}(b)" for _ in range(n)) + ");"
        out, findings = run(stmt)
        assert codes(findings) == [("CP230", "info")], (opcode, findings)
        lams.append(re.search(r"(\[\]\(unsigned (?:int|short) x, .*?return static_cast<unsigned (?:int|short)>"
                              r"\(d\); \})\(", line_of(out)).group(1))
    program = tmp_path / "halves.cpp"
    program.write_text("#include <cstdio>\nint main() { unsigned v[3]; int op;\n"
                       "  while (std::scanf(\"%d %u %u %u\", &op, v, v + 1, v + 2) == 4) {\n    unsigned r = 0;\n"
                       + "".join(f"    if (op == {k}) r = {lam}(" + ", ".join(f"v[{j}]" for j in range(
                           3 if HALF_OPCODES[k].startswith("fma") else 2)) + ");\n" for k, lam in enumerate(lams))
                       + "    std::printf(\"%u\\n\", r);\n  }\n}\n")
    in_root = {**os.environ, "CUDAPORT_ROOT_COMMAND": "1"}
    root = rocm_wrapper().parent
    clang = "/" + str(sorted(root.glob("usr/lib/llvm-*/bin/clang++"))[-1].relative_to(root))
    subprocess.run([str(rocm_wrapper()), clang, "-std=c++17", "-O1", str(program), "-o",
                    str(tmp_path / "halves")], check=True, env=in_root)
    rng = random.Random(16)
    specials = [0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x3C00, 0x7BFF, 0x7C00, 0xFC00, 0x7E00, 0x7F80,
                0xFF80, 0x3F80, 0x7F7F, 0x0080, 0x007F, 0xC000]
    half = lambda: rng.choice(specials) if rng.random() < 0.25 else rng.getrandbits(16)  # noqa: E731
    cases = [(k, [half() | half() << 16 for _ in range(3)]) for k in range(len(HALF_OPCODES)) for _ in range(800)]
    # (fma rounds once: 1.5 * (1 + 2^-10) is a half midpoint, and - 2^-24 takes it below;
    # computed in float, the sum would round back onto the midpoint and then up)
    cases += [(k, [0x3E003E00, 0x3C013C01, 0x80018001]) for k, o in enumerate(HALF_OPCODES) if o == "fma.rn.f16x2"]
    cases += [(k, [0x3E00, 0x3C01, 0x8001]) for k, o in enumerate(HALF_OPCODES) if o == "fma.rn.f16"]
    got = subprocess.run([str(rocm_wrapper()), str(tmp_path / "halves")], env=in_root,
                         input="".join(f"{k} {' '.join(map(str, v))}\n" for k, v in cases),
                         capture_output=True, text=True, check=True).stdout.split()
    assert len(got) == len(cases)

    def value(bits, bf16):
        return np.array([bits << 16 if bf16 else bits], dtype=np.uint32 if bf16 else np.uint16).view(
            np.float32 if bf16 else np.float16)[0]

    def rounded(exact, bf16):
        """A real (Fraction) to the nearest half or bfloat16, ties to even: its bits."""
        man, emin, emax = (7, -126, 127) if bf16 else (10, -14, 15)
        if exact == 0:
            return None
        sign = 0x8000 if exact < 0 else 0
        m = abs(exact)
        e = m.numerator.bit_length() - m.denominator.bit_length()
        e -= Fraction(2) ** e > m
        quantum = Fraction(2) ** (max(e, emin) - man)
        q = m / quantum
        k = q.numerator // q.denominator
        k += (q - k > Fraction(1, 2)) or (q - k == Fraction(1, 2) and k % 2)
        v = k * quantum
        if v >= Fraction(2) ** (emax + 1):
            return sign | (0x7F80 if bf16 else 0x7C00)
        f = np.array([float(v)], dtype=np.float32 if bf16 else np.float16)
        return sign | int((f.view(np.uint32)[0] >> 16) if bf16 else f.view(np.uint16)[0])

    with np.errstate(all="ignore"):
        for (k, v), r in zip(cases, got):
            opcode = HALF_OPCODES[k]
            op, bf16, lanes = opcode.split(".")[0], "bf16" in opcode, 2 if "x2" in opcode else 1
            for lane in range(lanes):
                xs = [value(w >> (16 * lane) & 0xFFFF, bf16) for w in v]
                exact = [float(x) for x in xs][:3 if op == "fma" else 2]
                lane_bits = int(r) >> (16 * lane) & 0xFFFF
                if any(np.isnan(x) for x in exact) or np.isnan(
                        {"add": lambda: exact[0] + exact[1], "sub": lambda: exact[0] - exact[1],
                         "mul": lambda: exact[0] * exact[1],
                         "fma": lambda: exact[0] * exact[1] + exact[2]}[op]()):
                    assert lane_bits == 0x7FFF, (opcode, [hex(w) for w in v], lane, hex(lane_bits))
                    continue
                if not all(np.isfinite(x) for x in exact):
                    want = {"add": lambda: exact[0] + exact[1], "sub": lambda: exact[0] - exact[1],
                            "mul": lambda: exact[0] * exact[1],
                            "fma": lambda: exact[0] * exact[1] + exact[2]}[op]()
                    want_bits = (0x8000 if want < 0 else 0) | (0x7F80 if bf16 else 0x7C00)
                else:
                    fr = [Fraction(x) for x in exact]
                    real = {"add": lambda: fr[0] + fr[1], "sub": lambda: fr[0] - fr[1],
                            "mul": lambda: fr[0] * fr[1], "fma": lambda: fr[0] * fr[1] + fr[2]}[op]()
                    want_bits = rounded(real, bf16)
                    if want_bits is None:  # (an exact zero: its sign as IEEE 754 gives it)
                        z = {"add": lambda: exact[0] + exact[1], "sub": lambda: exact[0] - exact[1],
                             "mul": lambda: exact[0] * exact[1],
                             "fma": lambda: (exact[0] * exact[1]) + exact[2]}[op]()
                        want_bits = 0x8000 if np.signbit(z) else 0
                assert lane_bits == want_bits, (opcode, [hex(w) for w in v], lane, hex(lane_bits), hex(want_bits))
