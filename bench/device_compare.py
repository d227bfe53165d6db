"""Each function of cudaport's portable header against CUDA's own intrinsic, on an NVIDIA
GPU: the check issue 29 asks for where a GPU is at hand (the tests never need one).

    python bench/device_compare.py --emit DIR      # write DIR/device_compare.cu only
    python bench/device_compare.py --build DIR     # ... and compile it with nvcc
    python bench/device_compare.py --run DIR       # ... and run it (needs the GPU)
    options: --arch sm_90 (the GPU's), --random N (inputs per function, default 200000)

The CUDA names and the portable functions they are renamed to come from the HIP rules
(``rules/hip/ports/device.yaml``), so a function added there is compared without an edit
here, as long as its family (the argument and result kinds below) is known; a rule whose
family is unknown is listed as "not compared". For every input, one kernel computes the
CUDA intrinsic and the portable function's generic C++ form (the header compiled by nvcc,
``__host__ __device__``), and the host computes the generic form once more; the program
prints, per function, the inputs tried, the results that differ from CUDA's in any bit,
those that differ only in a NaN's payload (CUDA's arithmetic gives the canonical NaN, a
host's SSE keeps an operand's payload or gives 0xffc00000), the host results that differ
from the device's other than in a NaN's payload, and the first differing input.

A self-check row compares two functions that differ (__vadd4 against cudaport_vsub4); if
it finds no difference the comparison itself is broken and the program exits 3.

Inputs: every combination of a family's edge values (signed zeros, infinities, NaNs,
subnormals, rounding ties, saturation bounds, byte and halfword extremes) where there
are at most 65,536 of them, then random ones from a fixed seed: half are random bit
patterns, half are values near the edges (an edge with a random low-order perturbation).
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules" / "hip" / "ports" / "device.yaml"
HEADER = ROOT / "rules" / "hip" / "ports" / "cudaport_portable.h"
sys.path.insert(0, str(ROOT))

# Argument kinds: the edge values of each (C++ words) and the name of its random-word
# generator in the program; the program's u32(), f32(), h2() ... read a word as the kind.
EDGE = {  # (edge words, random-word generator name in the C++ program)
    "u32": ("0u,1u,0x7fu,0x80u,0xffu,0x7fffu,0x8000u,0xffffu,0x7f7f7f7fu,0x80808080u,"
            "0x7fff8000u,0x80007fffu,0xffffffffu,0x01ff80feu,0x00ff00ffu,0xff00ff00u", "rnd_u32"),
    "f32": ("0x00000000u,0x80000000u,0x3f800000u,0xbf800000u,0x7f800000u,0xff800000u,"
            "0x7fc00000u,0xffc00001u,0x7f800001u,0x00000001u,0x807fffffu,0x00800000u,"
            "0x7f7fffffu,0xff7fffffu,0x3f800001u,0x40490fdbu,0x33800000u,0x4b000001u,"
            "0x3effffffu,0x40c00000u,0x40a00000u,0x3f400000u,0x3e800000u,0x40e00000u",
            "rnd_f32"),
    "f64": ("0x0000000000000000ull,0x8000000000000000ull,0x3ff0000000000000ull,"
            "0xbff0000000000000ull,0x7ff0000000000000ull,0xfff0000000000000ull,"
            "0x7ff8000000000000ull,0x0000000000000001ull,0x800fffffffffffffull,"
            "0x0010000000000000ull,0x7fefffffffffffffull,0x3ff0000000000001ull,"
            "0x400921fb54442d18ull,0x3ca0000000000000ull,0x4330000000000001ull",
            "rnd_f64"),
    "u8": ("0u,1u,2u,0x7fu,0x80u,0xfeu,0xffu,0x0fu,0xf0u,0x77u,0x88u", "rnd_u8"),
    "h2": ("0x00000000u,0x80008000u,0x3c00bc00u,0x7c00fc00u,0x7e007c01u,0xfe000001u,"
           "0x7bff8001u,0x00010400u,0x3c003c01u,0x7e003c00u,0x80000000u,0x00008000u",
           "rnd_h2"),
    "b2": ("0x00000000u,0x80008000u,0x3f80bf80u,0x7f80ff80u,0x7fc07f81u,0xffc00001u,"
           "0x7f7f8001u,0x00010080u,0x3f803f81u,0x7fc03f80u,0x80000000u,0x00008000u",
           "rnd_b2"),
}
EDGE["s32"] = EDGE["u32"]
EDGE["ph2"] = EDGE["h2"]
EDGE["pb2"] = EDGE["b2"]
EDGE["f2"] = EDGE["f32"]  # (each word holds two floats: low and high 32 bits)

# Families: CUDA-name pattern -> its variants (label suffix, CUDA expression, port
# expression), {c} standing for the CUDA name and {p} for the port's.
FAMILIES: list[tuple[re.Pattern[str], list[tuple[str, str, str]]]] = []


def _family(pattern: str, *variants: tuple[str, str, str]) -> None:
    FAMILIES.append((re.compile(pattern), list(variants)))


# A, B, C are the input words, read as arguments by the kind functions (u32(A) ...), whose
# names also tell `_arity_and_kinds` which inputs to draw; results become 64-bit words by
# `bits(...)`.
_family(r"^__v(abs|neg)(ss)?[24]$", ("", "bits({c}(u32(A)))", "bits({p}(u32(A)))"))
_family(r"^__v(?!i)[a-z]+[24]$", ("", "bits({c}(u32(A), u32(B)))", "bits({p}(u32(A), u32(B)))"))
_family(r"^__dp(4a|2a_lo|2a_hi)$",
        ("(int)", "bits({c}(s32(A), s32(B), s32(C)))", "bits({p}(s32(A), s32(B), s32(C)))"),
        ("(unsigned)", "bits({c}(u32(A), u32(B), u32(C)))", "bits({p}(u32(A), u32(B), u32(C)))"))
_family(r"^__h[a-z]+2(_nan|_mask)?$",
        ("(half2)", "bits({c}(h2(A), h2(B)))", "bits({p}(ph2(A), ph2(B)))"),
        ("(bfloat162)", "bits({c}(b2(A), b2(B)))", "bits({p}(pb2(A), pb2(B)))"))
_family(r"^__f(rcp|sqrt)_r[duz]$", ("", "bits({c}(f32(A)))", "bits({p}(f32(A)))"))
_family(r"^__fmaf_r[duz]$", ("", "bits({c}(f32(A), f32(B), f32(C)))", "bits({p}(f32(A), f32(B), f32(C)))"))
_family(r"^__f(add|sub|mul|div)_r[duz]$", ("", "bits({c}(f32(A), f32(B)))", "bits({p}(f32(A), f32(B)))"))
_family(r"^__d(rcp|sqrt)_r[duz]$", ("", "bits({c}(f64(A)))", "bits({p}(f64(A)))"))
_family(r"^__double2half$", ("", "bits({c}(f64(A)))", "bits({p}(f64(A)))"))
# (integers to bfloat16 in each rounding: a 64-bit value from two words, its edges in each)
_family(r"^__int2bfloat16_r[nzdu]$", ("", "bits({c}(s32(A)))", "bits({p}(s32(A)))"))
_family(r"^__uint2bfloat16_r[nzdu]$", ("", "bits({c}(u32(A)))", "bits({p}(u32(A)))"))
_family(r"^__short2bfloat16_r[nzdu]$", ("", "bits({c}((short)u16(A)))", "bits({p}((short)u16(A)))"))
_family(r"^__ushort2bfloat16_r[nzdu]$", ("", "bits({c}(u16(A)))", "bits({p}(u16(A)))"))
_family(r"^__ll2bfloat16_r[nzdu]$", ("", "bits({c}((long long)((W64)u32(A) << 32 | u32(B))))",
                                     "bits({p}((long long)((W64)u32(A) << 32 | u32(B))))"))
_family(r"^__ull2bfloat16_r[nzdu]$", ("", "bits({c}((W64)u32(A) << 32 | u32(B)))",
                                      "bits({p}((W64)u32(A) << 32 | u32(B)))"))
# (bfloat16 to integers in each rounding, saturated)
_family(r"^__bfloat162(u?int|u?ll|u?short)_r[nzdu]$|^__bfloat162u?char_rz$",
        ("", "bits({c}(__nv_bfloat16(br(A))))", "bits({p}(from_bits<cudaport_bf16_t>(A & 0xffff)))"))
_family(r"^__fma_r[duz]$", ("", "bits({c}(f64(A), f64(B), f64(C)))", "bits({p}(f64(A), f64(B), f64(C)))"))
_family(r"^__d(add|sub|mul|div)_r[duz]$", ("", "bits({c}(f64(A), f64(B)))", "bits({p}(f64(A), f64(B)))"))
_family(r"^__vi(max3|min3|addmax|addmin)_[su]32(_relu)?$|^__vi(max|min)_s32_relu$",
        ("", "bits({c}(ARGS3s))", "bits({p}(ARGS3s))"))
_family(r"^__vi(max3|min3|addmax|addmin)_[su]16x2(_relu)?$|^__vi(max|min)_s16x2_relu$",
        ("", "bits({c}(ARGS3u))", "bits({p}(ARGS3u))"))
_family(r"^__vib(max|min)_[su]32$",
        ("", "pred1({c}, A, B)", "pred1({p}, A, B)"))
_family(r"^__vib(max|min)_[su]16x2$",
        ("", "pred2({c}, A, B)", "pred2({p}, A, B)"))
_family(r"^__nv_cvt_e8m0_to_bf16raw$", ("", "bits({c}(u8(A)))", "bits({p}(u8(A)))"))
_family(r"^__nv_cvt_(float|double)_to_fp4$",
        ("(nearest)", "bits({c}(F(A), __NV_E2M1, cudaRoundNearest))", "bits({p}(F(A), 0, 0))"),
        ("(zero)", "bits({c}(F(A), __NV_E2M1, cudaRoundZero))", "bits({p}(F(A), 0, 1))"))
_family(r"^__nv_cvt_float2_to_fp4x2$",
        ("(nearest)", "bits({c}(f2(A), __NV_E2M1, cudaRoundNearest))", "bits({p}(f2(A), 0, 0))"),
        ("(zero)", "bits({c}(f2(A), __NV_E2M1, cudaRoundZero))", "bits({p}(f2(A), 0, 1))"))
# (label, CUDA's trailing arguments, the port's): the four saturation/kind variants of a
# conversion to FP8 and the four saturation/rounding variants of one to E8M0
_SAT_KIND = [(f"({sat.lower()},{kind.lower()})", f"__NV_{sat}, __NV_{kind}", f"{s}, {k}")
             for sat, kind, s, k in (("SATFINITE", "E4M3", 1, 0), ("SATFINITE", "E5M2", 1, 1),
                                     ("NOSAT", "E4M3", 0, 0), ("NOSAT", "E5M2", 0, 1))]
_SAT_ROUND = [(f"({sat.lower()},{mode.lower()})", f"__NV_{sat}, cudaRound{mode}", f"{s}, {r}")
              for sat, mode, s, r in (("SATFINITE", "Zero", 1, 1), ("NOSAT", "Zero", 0, 1),
                                      ("SATFINITE", "PosInf", 1, 2), ("NOSAT", "PosInf", 0, 2))]


def _modes(table: list[tuple[str, str, str]], arg_cuda: str, arg_port: str) -> list[tuple[str, str, str]]:
    """One variant per row of ``table``: the arguments followed by the row's."""
    return [(label, f"bits({{c}}({arg_cuda}, {cuda_args}))", f"bits({{p}}({arg_port}, {port_args}))")
            for label, cuda_args, port_args in table]


# The conversions to FP8 and to E8M0: (CUDA name's tail, CUDA's first argument, the port's)
_TO_FP8 = [("(float|double)_to_fp8", "F(A)", "F(A)"), ("float2_to_fp8x2", "f2(A)", "f2(A)"),
           ("double2_to_fp8x2", "d2(A, B)", "d2(A, B)"), ("halfraw_to_fp8", "hr(A)", "phr(A)"),
           ("halfraw2_to_fp8x2", "h2r(A)", "ph2r(A)"), ("bfloat16raw_to_fp8", "br(A)", "pbr(A)"),
           ("bfloat16raw2_to_fp8x2", "b2r(A)", "pb2r(A)")]
_TO_E8M0 = [("(float|double)_to_e8m0", "F(A)", "F(A)"), ("float2_to_e8m0x2", "f2(A)", "f2(A)"),
            ("double2_to_e8m0x2", "d2(A, B)", "d2(A, B)"), ("bfloat16raw_to_e8m0", "br(A)", "pbr(A)"),
            ("bfloat162raw_to_e8m0x2", "b2r(A)", "pb2r(A)")]
for _conversions, _table in ((_TO_FP8, _SAT_KIND), (_TO_E8M0, _SAT_ROUND)):
    for _tail, _arg_cuda, _arg_port in _conversions:
        _family(rf"^__nv_cvt_{_tail}$", *_modes(_table, _arg_cuda, _arg_port))
_family(r"^__nv_cvt_fp8_to_halfraw$",
        ("(e4m3)", "bits({c}(u8(A), __NV_E4M3))", "bits({p}(u8(A), 0))"),
        ("(e5m2)", "bits({c}(u8(A), __NV_E5M2))", "bits({p}(u8(A), 1))"))
_family(r"^__nv_cvt_fp8x2_to_halfraw2$",
        ("(e4m3)", "bits({c}(u16(A), __NV_E4M3))", "bits({p}(u16(A), 0))"),
        ("(e5m2)", "bits({c}(u16(A), __NV_E5M2))", "bits({p}(u16(A), 1))"))
_family(r"^__nv_cvt_e8m0x2_to_bf162raw$", ("", "bits({c}(u16(A)))", "bits({p}(u16(A)))"))
_family(r"^__nv_cvt_fp4(x2)?_to_halfraw2?$", ("", "bits({c}(u8(A), __NV_E2M1))", "bits({p}(u8(A), 0))"))


def _arity_and_kinds(expr: str) -> list[str]:
    """The argument kinds an expression reads, in A, B, C order."""
    kinds: dict[str, str] = {}
    if "d2(A, B)" in expr:
        return ["f64", "f64"]
    alias = {"hr": "h2", "phr": "h2", "h2r": "h2", "ph2r": "h2", "br": "b2", "pbr": "b2",
             "b2r": "b2", "pb2r": "b2", "u16": "u32"}
    for kind, word in re.findall(r"\b(u32|s32|f32|f64|u8|u16|h2|ph2|b2|pb2|f2|hr|phr|h2r|ph2r|br|pbr|b2r|pb2r|F)"
                                 r"\(([ABC])\)", expr):
        kinds.setdefault(word, alias.get(kind, kind))
    return [kinds[w] for w in "ABC" if w in kinds]


@functools.cache  # (build() writes the program up to 8 times)
def cases() -> tuple[list[dict], list[str]]:
    """(the comparisons to run, the CUDA names whose family is unknown)."""
    table = yaml.safe_load(RULES.read_text())["identifiers"]
    out, unknown = [], []
    for cuda, rule in table.items():
        port = rule.get("to", "")
        if rule.get("kind") != "function" or not port.startswith("cudaport_"):
            continue
        for pattern, variants in FAMILIES:
            if pattern.search(cuda):
                break
        else:
            unknown.append(cuda)
            continue
        for label, cexpr, pexpr in variants:
            c, p = cexpr.format(c=cuda, p=port), pexpr.format(c=cuda, p=port)
            fkind = "f64" if "double" in cuda else "f32"
            c, p = c.replace("F(A)", f"{fkind}(A)"), p.replace("F(A)", f"{fkind}(A)")
            three = "s32" if "_s32" in cuda else "u32"
            n = 2 if re.search(r"^__vi(max|min)_s(32|16x2)_relu$", cuda) else 3
            args = ", ".join(f"{three}({w})" for w in "ABC"[:n])
            c, p = c.replace("ARGS3s", args).replace("ARGS3u", args), p.replace("ARGS3s", args).replace("ARGS3u", args)
            kinds = _arity_and_kinds(c)
            if "pred" in c:
                kinds = ["s32" if "_s" in cuda else "u32"] * 2
            out.append({"name": cuda + label, "cuda": c, "port": p, "kinds": kinds})
    return out, unknown


# Inline PTX statements whose rewrite (cudaport/translate/passes/asm.py, rules/hip/ports/asm/ptx.yaml)
# is compared with the PTX itself: (label, result type, the asm statement, input kinds of
# A, B, C). The statement reads a, b, c (unsigned), s, t (int), x, y, z (float), w, v
# (unsigned long long), h, g (unsigned short) and writes r. Its translation for ROCm 7.2
# is taken from cudaport's own output; one that keeps the asm (CP210) or that nvcc cannot
# build (clang's _Float16, __bf16, __builtin_addc) is listed as not compared.
_LOP3 = [0x96, 0xE8, 0xF8, 0x6A, 0x1E, 0x80, 0xFE, 0x3C, 0xCA, 0x01, 0xB4, 0x78]
_PRMT = [0x5410, 0x7632, 0x3210, 0x0123, 0x4321, 0x1054, 0x8880, 0x9999, 0xBA98, 0x0F0F]
PTX_FORMS: list[tuple[str, str, str, tuple[str, ...]]] = [
    ("mul.hi.u32", "unsigned", 'asm("mul.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));', ("u32", "u32")),
    ("mul.hi.s32", "int", 'asm("mul.hi.s32 %0, %1, %2;" : "=r"(r) : "r"(s), "r"(t));', ("u32", "u32")),
    ("mul.hi.u64", "W64", 'asm("mul.hi.u64 %0, %1, %2;" : "=l"(r) : "l"(w), "l"(v));', ("f64", "f64")),
    ("mul.hi.s64", "long long", 'asm("mul.hi.s64 %0, %1, %2;" : "=l"(r) : "l"(w), "l"(v));', ("f64", "f64")),
    ("mul.wide.u32", "W64", 'asm("mul.wide.u32 %0, %1, %2;" : "=l"(r) : "r"(a), "r"(b));', ("u32", "u32")),
    ("mul.wide.s32", "long long", 'asm("mul.wide.s32 %0, %1, %2;" : "=l"(r) : "r"(s), "r"(t));', ("u32", "u32")),
    ("mul.wide.u16", "unsigned", 'asm("mul.wide.u16 %0, %1, %2;" : "=r"(r) : "h"(h), "h"(g));', ("u32", "u32")),
    ("mad.lo.s32", "int", 'asm("mad.lo.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(s), "r"(t), "r"(c));', ("u32", "u32", "u32")),
    ("sub.s64", "W64", 'asm("sub.s64 %0, %1, %2;" : "=l"(r) : "l"(w), "l"(v));', ("f64", "f64")),
    *[(f"lop3.b32 0x{lut:02X}", "unsigned",
       f'asm("lop3.b32 %0, %1, %2, %3, 0x{lut:02X};" : "=r"(r) : "r"(a), "r"(b), "r"(c));',
       ("u32", "u32", "u32")) for lut in _LOP3],
    *[(f"prmt.b32 0x{sel:04X}", "unsigned",
       f'asm("prmt.b32 %0, %1, %2, 0x{sel:04X};" : "=r"(r) : "r"(a), "r"(b));', ("u32", "u32"))
      for sel in _PRMT],
    ("prmt.b32 (run-time selector)", "unsigned",
     'asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));', ("u32", "u32", "u32")),
    ("add.cc.u32 + addc.u32", "W64",
     'unsigned lo, hi; asm("add.cc.u32 %0, %2, %3;\\n\\taddc.u32 %1, %4, %5;" : "=r"(lo), "=r"(hi)'
     ' : "r"(a), "r"(b), "r"(c), "r"(a ^ c)); r = (W64)hi << 32 | lo;', ("u32", "u32", "u32")),
    *[(f"cvt.{m}.s32.f32", "int", f'asm("cvt.{m}.s32.f32 %0, %1;" : "=r"(r) : "f"(x));', ("f32",))
      for m in ("rni", "rzi", "rmi", "rpi", "rni.sat")],
    ("cvt.pack.sat.u8.s32.b32", "unsigned",
     'asm("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(s), "r"(t), "r"(c));', ("u32", "u32", "u32")),
    ("cvt.pack.sat.s8.s32.b32", "unsigned",
     'asm("cvt.pack.sat.s8.s32.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(s), "r"(t), "r"(c));', ("u32", "u32", "u32")),
    ("cvt.pack.sat.u16.s32", "unsigned",
     'asm("cvt.pack.sat.u16.s32 %0, %1, %2;" : "=r"(r) : "r"(s), "r"(t));', ("u32", "u32")),
    ("cvt.pack.sat.s16.s32", "unsigned",
     'asm("cvt.pack.sat.s16.s32 %0, %1, %2;" : "=r"(r) : "r"(s), "r"(t));', ("u32", "u32")),
    ("cvt.f32.bf16", "float", 'asm("cvt.f32.bf16 %0, %1;" : "=f"(r) : "h"(h));', ("u32",)),
    ("cvt.rni.sat.s8.f32", "unsigned", 'asm("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(r) : "f"(x));', ("f32",)),
    *[(f"{op} (amount {k})", "unsigned", f'asm("{op} %0, %1, %2;" : "=r"(r) : "r"(a), "r"({k}));', ("u32",))
      for op in ("shl.b32", "shr.b32", "shr.u32", "shr.s32") for k in (0, 7, 31, 32, 255)],
    *[(op, "unsigned", f'asm("{op} %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));', ("u32", "u32"))
      for op in ("shl.b32", "shr.u32", "shr.s32")],
    ("neg.f32", "float", 'asm("neg.f32 %0, %1;" : "=f"(r) : "f"(x));', ("f32",)),
    *[(op, "float", f'asm("{op} %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));', ("f32", "f32"))
      for op in ("add.f32", "sub.f32", "mul.f32")],
    ("fma.rn.f32", "float", 'asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(x), "f"(y), "f"(z));',
     ("f32", "f32", "f32")),
    *[(f"lop3.b32 LUT n-operand 0x{lut:02X}", "unsigned",
       f'asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c), "n"(0x{lut:02X}));',
       ("u32", "u32", "u32")) for lut in (0x96, 0xF8, 0x1E)],
    ("cvt.rn.satfinite.e4m3x2.f32", "unsigned short",
     'asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(x), "f"(y));', ("f32", "f32")),
    ("cvt.rn.satfinite.e5m2x2.f32", "unsigned short",
     'asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(r) : "f"(x), "f"(y));', ("f32", "f32")),
    ("cvt.rn.f16x2.e4m3x2", "unsigned", 'asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(r) : "h"(h));', ("u32",)),
    ("cvt.rn.f16x2.e5m2x2", "unsigned", 'asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(r) : "h"(h));', ("u32",)),
    ("cvt.rn.satfinite.e4m3x2.f16x2", "unsigned short",
     'asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(r) : "r"(a));', ("h2",)),
    ("cvt.rn.satfinite.e5m2x2.f16x2", "unsigned short",
     'asm("cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;" : "=h"(r) : "r"(a));', ("h2",)),
]
_PTX_INPUTS = ("const unsigned a = u32(A), b = u32(B), c = u32(C); const int s = s32(A), t = s32(B); "
               "const float x = f32(A), y = f32(B), z = f32(C); const W64 w = A, v = B; "
               "const unsigned short h = (unsigned short)A, g = (unsigned short)B; "
               "(void)a; (void)b; (void)c; (void)s; (void)t; (void)x; (void)y; (void)z; (void)w; "
               "(void)v; (void)h; (void)g;")


@functools.cache
def ptx_cases(target_version: str = "7.2") -> tuple[list[dict], list[str]]:
    """(PTX comparisons, the forms left out and why): the port is cudaport's own
    translation of the statement, taken from a whole function it translates."""
    from cudaport import Options, translate_bytes

    out, left = [], []
    for i, (label, rtype, stmt, kinds) in enumerate(PTX_FORMS, 1):
        body = (f"__device__ W64 FN(W64 A, W64 B, W64 C) {{\n  {_PTX_INPUTS}\n  {rtype} r = 0;\n"
                f"  {stmt}\n  return bits(r);\n}}\n")
        result = translate_bytes(body.replace("FN", f"port_{i}").encode(),
                                 Options(target_version=target_version), "ptx.cu")
        blocked = [f for f in result.findings if f.code == "CP210"]
        if blocked:
            left.append(f"{label}: not ported ({blocked[0].message})")
            continue
        out.append({"name": label, "cuda_fn": body.replace("FN", f"cuda_{i}"),
                    "port_fn": re.sub(r"(?m)^#include <hip/[^>]*>\n", "", result.output.decode()),
                    "kinds": list(kinds), "id": i})
    return out, left


PROGRAM_HEAD = r"""// Written by bench/device_compare.py: each portable function against CUDA's intrinsic.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_fp4.h>
#include <cstdio>
#include <cstring>
#include <vector>
#define CUDAPORT_HD __host__ __device__
#include "cudaport_portable.h"
typedef unsigned long long W64;
#define HD __host__ __device__ inline
template <class T> HD W64 bits(const T& v) { W64 w = 0; memcpy(&w, &v, sizeof(T)); return w; }
HD W64 bits(bool v) { return v; }
HD unsigned u32(W64 w) { return (unsigned)w; }
HD int s32(W64 w) { return (int)(unsigned)w; }
HD unsigned char u8(W64 w) { return (unsigned char)w; }
HD float f32(W64 w) { unsigned u = (unsigned)w; float f; memcpy(&f, &u, 4); return f; }
HD double f64(W64 w) { double d; memcpy(&d, &w, 8); return d; }
HD float2 f2(W64 w) { return make_float2(f32(w), f32(w >> 32)); }
HD double2 d2(W64 a, W64 b) { return make_double2(f64(a), f64(b)); }
HD unsigned short u16(W64 w) { return (unsigned short)w; }
template <class T> HD T from_bits(W64 w) { T t; memcpy(&t, &w, sizeof(T)); return t; }
HD __half_raw hr(W64 w) { return from_bits<__half_raw>(w & 0xffff); }
HD __half2_raw h2r(W64 w) { return from_bits<__half2_raw>(w & 0xffffffffu); }
HD __nv_bfloat16_raw br(W64 w) { return from_bits<__nv_bfloat16_raw>(w & 0xffff); }
HD __nv_bfloat162_raw b2r(W64 w) { return from_bits<__nv_bfloat162_raw>(w & 0xffffffffu); }
HD cudaport_half_raw_t phr(W64 w) { return from_bits<cudaport_half_raw_t>(w & 0xffff); }
HD cudaport_half2_raw_t ph2r(W64 w) { return from_bits<cudaport_half2_raw_t>(w & 0xffffffffu); }
HD cudaport_bfloat16_raw_t pbr(W64 w) { return from_bits<cudaport_bfloat16_raw_t>(w & 0xffff); }
HD unsigned pb2r(W64 w) { return (unsigned)w; }  // (the header has no bfloat162 raw type: 32 bits do)
__device__ inline __half2 h2(W64 w) { unsigned u = (unsigned)w; __half2 h; memcpy(&h, &u, 4); return h; }
__device__ inline __nv_bfloat162 b2(W64 w) { unsigned u = (unsigned)w; __nv_bfloat162 h; memcpy(&h, &u, 4); return h; }
HD cudaport_half2_t ph2(W64 w) { unsigned u = (unsigned)w; cudaport_half2_t h; memcpy(&h, &u, 4); return h; }
HD cudaport_bfloat162_t pb2(W64 w) { unsigned u = (unsigned)w; cudaport_bfloat162_t h; memcpy(&h, &u, 4); return h; }
// (the __vib* functions: the result, and the predicates in bits 32 and 33)
#define pred1(F, A, B) [&]() { bool p_ = false; W64 r_ = bits(F((decltype(F(0, 0, (bool*)0)))(A), (decltype(F(0, 0, (bool*)0)))(B), &p_)); return r_ | (W64)p_ << 32; }()
#define pred2(F, A, B) [&]() { bool h_ = false, l_ = false; W64 r_ = bits(F((unsigned)(A), (unsigned)(B), &h_, &l_)); return r_ | (W64)h_ << 32 | (W64)l_ << 33; }()

// Random words: xorshift64*, a fixed seed per function.
struct Rng { W64 s; W64 next() { s ^= s >> 12; s ^= s << 25; s ^= s >> 27; return s * 2685821657736338717ull; } };
static W64 near(Rng& r, const std::vector<W64>& e, W64 spread) { return e[r.next() % e.size()] ^ (r.next() % spread); }
static std::vector<W64> E_u32 = {EDGE_u32}, E_f32 = {EDGE_f32}, E_f64 = {EDGE_f64}, E_u8 = {EDGE_u8}, E_h2 = {EDGE_h2}, E_b2 = {EDGE_b2};
static W64 rnd_u32(Rng& r) { return (r.next() & 1) ? (unsigned)r.next() : (unsigned)near(r, E_u32, 4); }
static W64 rnd_f32(Rng& r) {
  switch (r.next() % 3) {
    case 0: return (unsigned)r.next();
    case 1: return (unsigned)near(r, E_f32, 8);
    default: { float f = (float)((double)(r.next() % 2000001) / 1e5 - 10.0) * ((r.next() & 1) ? 1.0f : 0.125f); unsigned u; memcpy(&u, &f, 4); return u; }
  }
}
static W64 rnd_f64(Rng& r) {
  switch (r.next() % 3) {
    case 0: return r.next();
    case 1: return near(r, E_f64, 8);
    default: { double d = (double)(r.next() % 2000001) / 1e5 - 10.0; W64 u; memcpy(&u, &d, 8); return u ^ (r.next() & 0xff); }
  }
}
static W64 rnd_u8(Rng& r) { return r.next() & 0xff; }
static W64 rnd_h2(Rng& r) { return (r.next() & 1) ? (unsigned)r.next() : (unsigned)near(r, E_h2, 4); }
static W64 rnd_b2(Rng& r) { return (r.next() & 1) ? (unsigned)r.next() : (unsigned)near(r, E_b2, 4); }
static W64 rnd_f2(Rng& r) { return rnd_f32(r) | rnd_f32(r) << 32; }
static bool is_nan_bits(W64 w, int bytes) {
  if (bytes == 8) return ((w >> 52) & 0x7ff) == 0x7ff && (w & 0xfffffffffffffull);
  if (bytes == 4) return ((w >> 23) & 0xff) == 0xff && (w & 0x7fffff);
  return false;
}
struct Result { const char* name; long tried, differ, nan_payload; W64 first_a, first_b, first_c, first_cuda, first_port; long host_differ; };
static std::vector<Result> results;
"""

CASE_TEMPLATE = r"""
__global__ void k_{id}(const W64* in, int n, W64* oc, W64* op) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const W64 A = in[3 * i], B = in[3 * i + 1], C = in[3 * i + 2];
  (void)A; (void)B; (void)C;
  oc[i] = {cuda};
  op[i] = {port};
}}
static void run_{id}(int random, int nan_bytes) {{
  Rng r{{0x9E3779B97F4A7C15ull ^ {id}ull}};
  std::vector<W64> in;
  const std::vector<W64>* edges[3] = {{{edges}}};
  W64 (*rnd[3])(Rng&) = {{{rnds}}};
  const int arity = {arity};
  long combos = 1;
  for (int k = 0; k < arity; ++k) combos *= (long)edges[k]->size();
  if (combos > 65536) combos = 0;
  for (long j = 0; j < combos; ++j) {{
    long rest = j;
    for (int k = 0; k < 3; ++k) {{
      if (k < arity) {{ in.push_back((*edges[k])[rest % edges[k]->size()]); rest /= edges[k]->size(); }}
      else in.push_back(0);
    }}
  }}
  for (int j = 0; j < random; ++j)
    for (int k = 0; k < 3; ++k) in.push_back(k < arity ? rnd[k](r) : 0);
  const int n = (int)(in.size() / 3);
  W64 *din, *dc, *dp;
  cudaMalloc(&din, in.size() * 8); cudaMalloc(&dc, n * 8); cudaMalloc(&dp, n * 8);
  cudaMemcpy(din, in.data(), in.size() * 8, cudaMemcpyHostToDevice);
  k_{id}<<<(n + 255) / 256, 256>>>(din, n, dc, dp);
  std::vector<W64> c(n), p(n);
  cudaMemcpy(c.data(), dc, n * 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(p.data(), dp, n * 8, cudaMemcpyDeviceToHost);
  cudaFree(din); cudaFree(dc); cudaFree(dp);
  Result res = {{"{name}", n, 0, 0, 0, 0, 0, 0, 0, 0}};
  for (int i = 0; i < n; ++i) {{
    const W64 A = in[3 * i], B = in[3 * i + 1], C = in[3 * i + 2];
    (void)A; (void)B; (void)C;
    const W64 host = {host};
    if (host != p[i] && !(is_nan_bits(host, nan_bytes) && is_nan_bits(p[i], nan_bytes))) ++res.host_differ;
    if (c[i] == p[i]) continue;
    if (is_nan_bits(c[i], nan_bytes) && is_nan_bits(p[i], nan_bytes)) {{ ++res.nan_payload; continue; }}
    if (res.differ++ == 0) {{ res.first_a = A; res.first_b = B; res.first_c = C; res.first_cuda = c[i]; res.first_port = p[i]; }}
  }}
  results.push_back(res);
}}
"""

PROGRAM_TAIL = r"""
int main(int argc, char** argv) {
  const int random = argc > 1 ? atoi(argv[1]) : 200000;
  cudaDeviceProp prop;
  cudaError_t pe = cudaGetDeviceProperties(&prop, 0);
  if (pe != cudaSuccess) { fprintf(stderr, "no usable CUDA device: %s\n", cudaGetErrorString(pe)); return 2; }
  printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
RUNS
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e)); return 2; }
  long bad = 0, canary = -1;
  printf("%-40s %9s %7s %7s %7s  first difference (inputs: cuda / port)\n", "function", "inputs", "differ", "nan-pl", "host");
  for (const Result& r : results) {
    printf("%-40s %9ld %7ld %7ld %7ld", r.name, r.tried, r.differ, r.nan_payload, r.host_differ);
    if (r.differ) printf("  %llx %llx %llx: %llx / %llx", r.first_a, r.first_b, r.first_c, r.first_cuda, r.first_port);
    printf("\n");
    if (!strncmp(r.name, "self-check", 10)) { canary = r.differ; continue; }
    bad += r.differ + r.host_differ;
  }
  if (canary <= 0) { printf("the self-check found no difference: the comparison is broken\n"); return 3; }
  printf("comparisons: %zu (and the self-check), results that differ: %ld\n", results.size() - 1, bad);
  return bad ? 1 : 0;
}
"""


def _nan_bytes(case: dict) -> int:
    """The size of a floating-point result whose NaN payload may differ (0: none)."""
    if re.search(r"^__(d(?!p)|fma_r)", case["name"]):
        return 8
    if re.search(r"^__f(add|sub|mul|div|rcp|sqrt|maf)_r", case["name"]):
        return 4
    return 0


CLANG_ONLY = re.compile(r"\b(_Float16|__bf16|__builtin_addc|__builtin_subc|__builtin_nontemporal_\w+|"
                        r"__ocml_\w+|__builtin_amdgcn_\w+|__builtin_fmaf16)\b")


def program(random: int, skip: set[str] = frozenset()) -> tuple[str, list[str], dict[str, tuple[int, int]]]:
    """(the program's text, what is not compared and why, the line range of each PTX
    case's code by case name, so a build error can be traced to its case)."""
    todo, unknown = cases()
    left = [f"{name}: no family in bench/device_compare.py" for name in unknown]
    ptx, ptx_left = ptx_cases()
    left += ptx_left
    head = PROGRAM_HEAD
    for kind in ("u32", "f32", "f64", "u8", "h2", "b2"):
        head = head.replace("{EDGE_%s}" % kind, "{" + EDGE[kind][0] + "}")
    body, runs = [], []

    def add(n: int, case: dict, cuda: str, port: str, host: str, nan_bytes: int, prefix: str = "") -> None:
        kinds = case["kinds"] + ["u32"] * (3 - len(case["kinds"]))
        edge_var = {"s32": "u32", "ph2": "h2", "pb2": "b2", "f2": "f32"}
        edges = ", ".join("&E_" + edge_var.get(k, k) for k in kinds)
        rnds = ", ".join(EDGE[k][1] if k != "f2" else "rnd_f2" for k in kinds)
        body.append(prefix + CASE_TEMPLATE.format(id=n, name=case["name"], cuda=cuda, port=port, host=host,
                                                  edges=edges, rnds=rnds, arity=len(case["kinds"])))
        runs.append(f"  run_{n}(random, {nan_bytes});")

    for i, case in enumerate(todo, 1):
        add(i, case, case["cuda"], case["port"], case["port"], _nan_bytes(case))
    # (a self-check: two functions that differ must be seen to differ, or the comparison
    # itself is broken; main() exits 3 then)
    canary = {"name": "self-check: __vadd4 against cudaport_vsub4", "kinds": ["u32", "u32"]}
    add(999, canary, "bits(__vadd4(u32(A), u32(B)))", "bits(cudaport_vsub4(u32(A), u32(B)))",
        "bits(cudaport_vsub4(u32(A), u32(B)))", 0)
    lines: dict[str, tuple[int, int]] = {}
    for case in ptx:
        used = CLANG_ONLY.search(case["port_fn"])
        if used:
            left.append(f"{case['name']}: its translation uses clang's {used.group(1)}, which nvcc lacks")
            continue
        if case["name"] in skip:
            left.append(f"{case['name']}: its translation does not build with nvcc")
            continue
        n = 1000 + case["id"]
        start = (head + "".join(body)).count("\n") + 1
        nan = 4 if case["cuda_fn"].split("r = 0;")[0].rstrip().endswith("float") else 0
        add(n, case, f"cuda_{case['id']}(A, B, C)", f"port_{case['id']}(A, B, C)", "p[i]", nan,
            prefix=case["cuda_fn"] + case["port_fn"])
        lines[case["name"]] = (start, (head + "".join(body)).count("\n") + 1)
    text = head + "".join(body) + PROGRAM_TAIL.replace("RUNS", "\n".join(runs))
    return text, left, lines


def build(out: Path, nvcc: str, arch: str, random: int) -> tuple[Path, list[str]]:
    """Write and compile the program; a PTX case whose translation nvcc rejects is
    dropped (named in what is returned) and the build tried again."""
    skip: set[str] = set()
    exe = out / "device_compare"
    (out / "cudaport_portable.h").write_bytes(HEADER.read_bytes())
    for _ in range(8):
        source, left, lines = program(random, skip)
        (out / "device_compare.cu").write_text(source)
        cmd = [nvcc, "-std=c++17", "-O2", f"-arch={arch}", "-o", str(exe), str(out / "device_compare.cu")]
        print(" ".join(cmd), flush=True)
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode == 0:
            return exe, left
        bad = {name for m in re.finditer(r"device_compare\.cu\((\d+)\): error", done.stderr)
               for name, (lo, hi) in lines.items() if lo <= int(m.group(1)) <= hi}
        if not bad:
            sys.exit(f"nvcc failed outside the PTX cases:\n{done.stderr[-4000:]}")
        skip |= bad
    sys.exit("nvcc kept failing")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--emit", metavar="DIR")
    mode.add_argument("--build", metavar="DIR")
    mode.add_argument("--run", metavar="DIR")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--random", type=int, default=200000)
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "nvcc"))
    args = ap.parse_args(argv)
    out = Path(args.emit or args.build or args.run)
    out.mkdir(parents=True, exist_ok=True)
    (out / "cudaport_portable.h").write_bytes(HEADER.read_bytes())
    exe = out / "device_compare"
    if args.emit:
        source, left, _ = program(args.random)
        (out / "device_compare.cu").write_text(source)
    elif args.build or not exe.exists():
        exe, left = build(out, args.nvcc, args.arch, args.random)
    else:
        left = []
    for line in left:
        print(f"not compared: {line}")
    if args.run:
        return subprocess.run([str(exe), str(args.random)]).returncode
    return 0

if __name__ == "__main__":
    sys.exit(main())
