"""cudaport's portable header (rules/hip/ports/cudaport_portable.h): CUDA device functions
HIP lacks, renamed to the header's functions and copied into the translations that call
them (cudaport/translate/portable.py).

The semantic tests compile the header's generic form with g++ (tests/data/portable/
driver.cpp reads arguments and prints results, as bits) and compare every function
with a reference computed here from CUDA's documented definition, over edge cases
(NaN, infinities, signed zeros, subnormals, saturation, rounding ties) and random
inputs. The compile test builds one translated file that uses every ported construct
with ROCm 7.2 for gfx942 and gfx90a (and ROCm 6.4).
"""

from __future__ import annotations

import math
import random
import re
import shutil
import struct
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from cudaport import Options, translate_bytes
from cudaport.translate.portable import HEADER_NAME, block, closure, header_path, load, parse
from cudaport.rules import get_compiled

DATA = Path(__file__).parent / "data" / "portable"
HEADER = Path(__file__).parent.parent / "rules" / "hip" / "ports" / HEADER_NAME


def _translate(src: bytes, version: str = "7.2", path: str = "k.cu"):
    return translate_bytes(src, Options(target_version=version), path)


# ---- the mechanism ---------------------------------------------------------------------

USES = b"""\
#include <cuda_runtime.h>
#include "own.h"

__global__ void k(unsigned* o, const unsigned* a) {
  o[0] = __vadd4(a[0], a[1]) ^ __vcmpne4(a[0], a[1]);
  o[1] = __dp4a((int)a[0], (int)a[1], 0);
}
"""


def test_calls_are_renamed_and_only_their_sections_copied():
    result = _translate(USES)
    out = result.output
    assert b"cudaport_vadd4(a[0], a[1]) ^ cudaport_vcmpne4(a[0], a[1])" in out
    assert b"cudaport_dp4a((int)a[0], (int)a[1], 0)" in out
    for guard in (b"CUDAPORT_PORTABLE_PRELUDE", b"CUDAPORT_PORTABLE_SIMD",
                  b"CUDAPORT_PORTABLE_DOT"):
        assert out.count(b"#ifndef " + guard) == 1
    assert b"CUDAPORT_PORTABLE_ROUNDED" not in out and b"PAIR_COMPARE" not in out
    assert b"//@" not in out
    # before the kernel, after the file's own includes
    assert out.index(b'#include "own.h"') < out.index(b"CUDAPORT_PORTABLE_SIMD") \
        < out.index(b"__global__")
    assert not [f for f in result.findings if f.severity in ("error", "warning")]
    assert _translate(out).output == out  # a second run changes nothing


def test_file_without_ported_calls_gets_nothing():
    out = _translate(b"__global__ void k(int* p) { p[0] = __popc(p[1]); }\n").output
    assert b"cudaport" not in out


def test_call_inside_a_conditional_gets_the_sections_at_the_top():
    src = b"""#pragma once
#include <cuda_runtime.h>
#ifdef FAST
__device__ unsigned f(unsigned a) { return __vsub4(a, a); }
#else
__device__ unsigned f(unsigned a) { return __vsub2(a, a); }
#endif
"""
    out = _translate(src).output
    assert out.index(b"CUDAPORT_PORTABLE_SIMD") < out.index(b"#ifdef FAST")
    assert out.index(b"#pragma once") < out.index(b"CUDAPORT_PORTABLE_SIMD")


def test_crlf_file_gets_crlf_sections():
    out = _translate(USES.replace(b"\n", b"\r\n")).output
    assert b"\n" not in out.replace(b"\r\n", b"")


def test_command_writes_the_header(tmp_path):
    from click.testing import CliRunner

    from cudaport.cli.main import main as cli_main
    res = CliRunner().invoke(cli_main, ["portable-header", "--target", "hip"])
    assert res.exit_code == 0, res.output
    assert res.stdout_bytes == HEADER.read_bytes()


def test_every_provided_function_is_some_rule_target():
    header = load(HEADER)
    resolved = [r for version in ("6.4", "7.2")
                for r in get_compiled(Options(target_version=version)).identifiers.values()]
    targets = {r.replacement for r in resolved if r.replacement}
    # (and the call templates that call the header: calls.yaml's by_args)
    for r in resolved:
        for template in [r.template, *(t for _, t in r.by_args)]:
            targets |= set(re.findall(rb"\bcudaport_\w+", template or b""))
    # (and the inline-PTX forms that call the header: ports/asm/ptx.yaml)
    targets |= set(re.findall(rb"\bcudaport_\w+", (HEADER.parent / "asm" / "ptx.yaml").read_bytes()))
    # (and the passes that call the header: half_atomics.py, host_only_runtime.py)
    passes = HEADER.parent.parent.parent.parent / "cudaport" / "translate" / "passes"
    for name in ("half_atomics.py", "host_only_runtime.py"):
        targets |= set(re.findall(rb"\bcudaport_\w+", (passes / name).read_bytes()))
    # (and the cooperative-groups functions ported to the header: target.yaml)
    targets |= set(re.findall(rb"\bcudaport_\w+", (HEADER.parent.parent / "target.yaml").read_bytes()))
    # (and the libcu++ names ported to the header: libcudacxx-portable.tsv)
    targets |= set(re.findall(rb"\bcudaport_\w+", (HEADER.parent.parent / "libcudacxx-portable.tsv").read_bytes()))
    missing = [n.decode() for n in header.provides if n not in targets]
    assert not missing


def test_sections_parse_and_close_over_needs():
    header = parse(HEADER.read_bytes())
    assert closure(header, {b"cudaport_hmax2"}) == ["prelude", "pairs", "pair_compare"]
    text = block(header, ["prelude"])
    assert text.startswith(b"// cudaport:") and b"//@" not in text
    with pytest.raises(ValueError, match="needs nothere"):
        parse(b"//@ a needs=nothere provides=\n//@ end\n")
    with pytest.raises(ValueError, match="b starts inside section a"):
        parse(b"//@ a provides=\nint x;\n//@ b provides=\n//@ end\n")
    with pytest.raises(ValueError, match="does not define"):
        parse(b"//@ a provides=cudaport_x\nint y;\n//@ end\n")


def test_renames_and_rewrites_where_hip_has_the_meaning():
    src = b"""#include <cuda_bf16.h>
#include <nvtx3/nvToolsExt.h>
__global__ void k(float* f, nv_bfloat162* o, nv_half2* h) {
  o[0] = __floats2bfloat162_rn(f[0], f[1]);
  o[1] = __float2bfloat162_rn(f[2]);
  o[2] = make_bfloat162(__float2bfloat16_rn(f[3]), __float2bfloat16_rn(f[4]));
  h[0] = make_half2(__float2half(f[5]), __float2half(f[6]));
  f[7] = __ldcg(f + 8) + __ldca(f + 9) + __ldlu(f + 10);
  __stcg(f + 11, 1.0f); __stwt(f + 12, 2.0f); __stwb(f + 13, 3.0f);
}
void host() { nvtxRangePushA("a"); nvtxMarkA("m"); nvtxRangeId_t r = nvtxRangeStartA("r");
  nvtxRangeEnd(r); nvtxRangePop(); }
"""
    result = _translate(src)
    out = result.output.decode()
    assert "__halves2bfloat162(__float2bfloat16(f[0]), __float2bfloat16(f[1]))" in out
    assert "__bfloat162bfloat162(__float2bfloat16(f[2]))" in out
    assert "__halves2bfloat162(__float2bfloat16(f[3]), __float2bfloat16(f[4]))" in out
    assert "__half2* h" in out and "make_half2(" in out
    assert "*(f + 8)" in out and "static_cast<void>(*(f + 11) = (1.0f))" in out
    assert "#include <roctracer/roctx.h>" in out
    for name in ("roctxRangePushA", "roctxMarkA", "roctx_range_id_t r = roctxRangeStartA",
                 "roctxRangeStop(r)", "roctxRangePop()"):
        assert name in out
    assert not [f for f in result.findings if f.severity == "error"]


def test_nvtx_names_of_streams_are_dropped_with_a_note():
    src = (b"#include <nvtx3/nvToolsExtCudaRt.h>\nvoid f(cudaStream_t s, cudaEvent_t e) "
           b"{ nvtxNameCudaStreamA(s, \"main\"); nvtxNameCudaEventA(e, \"ev\"); }\n")
    result = _translate(src)
    assert b"#include <roctracer/roctx.h>" in result.output
    assert b'static_cast<void>(static_cast<void>(s), ("main"));' in result.output
    notes = [f for f in result.findings if f.identifier.startswith("nvtxName")]
    assert [f.code for f in notes] == ["CP108", "CP108"]
    assert "profile shows the stream without this name" in notes[0].message


def test_hipblas_status_string():
    out = _translate(b"#include <cublas_v2.h>\nconst char* s(cublasStatus_t e) "
                     b"{ return cublasGetStatusString(e); }\n").output
    assert b"hipblasStatusToString(e)" in out


def test_reduce_sync_is_renamed_from_7_2_and_portable_before():
    src = b"__global__ void k(int* p) { p[0] = __reduce_add_sync(0xffffffff, p[1]); }\n"
    new = _translate(src, "7.2")
    assert b"__reduce_add_sync(__activemask(), p[1])" in new.output
    old = _translate(src, "6.4")  # before 7.2: the portable header's function
    assert b"cudaport_reduce_add_sync(0xffffffff, p[1])" in old.output
    assert b"#ifndef CUDAPORT_PORTABLE_REDUCE_SYNC" in old.output
    assert [f.severity for f in old.findings if f.code == "CP108"] == ["info"]


def test_bitwise_reduce_sync_is_portable_in_every_version():
    # ROCm 7.2.4's own __reduce_and/or/xor_sync combine lanes with logical operators off
    # the whole-wave path (0x6 and 0x3 -> 1, where CUDA gives 0x2)
    for name in ("and", "or", "xor"):
        src = f"__global__ void k(unsigned* p) {{ p[0] = __reduce_{name}_sync(0xffffffffu, p[1]); }}\n"
        for version in ("7.2", "6.4"):
            out = _translate(src.encode(), version).output
            assert f"cudaport_reduce_{name}_sync(0xffffffffu, p[1])".encode() in out, version
            assert b"#ifndef CUDAPORT_PORTABLE_REDUCE_SYNC" in out


# ---- semantics: the generic form against CUDA's definitions -------------------------------

@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("no g++")
    folder = tmp_path_factory.mktemp("portable")
    from click.testing import CliRunner

    from cudaport.cli.main import main as cli_main
    res = CliRunner().invoke(cli_main, ["portable-header"])
    (folder / HEADER_NAME).write_bytes(res.stdout_bytes)
    exe = folder / "driver"
    subprocess.run([gxx, "-std=c++11", "-O2", "-Wall", "-Werror", "-I", str(folder),
                    str(DATA / "driver.cpp"), "-o", str(exe)], check=True)

    def run(calls: list[tuple[str, int, int, int]]) -> list[int]:
        m = (1 << 64) - 1  # (the driver reads 64 bits; a 32-bit function takes the low half)
        text = "".join(f"{n} {a & m:x} {b & m:x} {c & m:x}\n" for n, a, b, c in calls)
        proc = subprocess.run([str(exe)], input=text, capture_output=True, text=True,
                              check=True)
        return [int(line, 16) for line in proc.stdout.split()]

    return run


def _parts(x: int, w: int, signed: bool) -> list[int]:
    out = []
    for i in range(32 // w):
        v = (x >> (i * w)) & ((1 << w) - 1)
        if signed and v >= 1 << (w - 1):
            v -= 1 << w
        out.append(v)
    return out


def _pack(values: list[int], w: int) -> int:
    return sum((v & ((1 << w) - 1)) << (i * w) for i, v in enumerate(values))


def _sat(v: int, w: int, signed: bool) -> int:
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
    return max(lo, min(hi, v))


def _avg_away(s: int) -> int:  # (a+b)/2 rounded to nearest, halves away from zero
    q, r = divmod(abs(s), 2)
    return (q + r) * (1 if s >= 0 else -1)


_CMP = {"eq": lambda x, y: x == y, "ne": lambda x, y: x != y, "ge": lambda x, y: x >= y,
        "gt": lambda x, y: x > y, "le": lambda x, y: x <= y, "lt": lambda x, y: x < y}


def _simd_reference(name: str, a: int, b: int) -> int:
    m = re.fullmatch(r"cudaport_v(\w+?)([24])", name)
    op, w = m.group(1), 16 if m.group(2) == "2" else 8
    sa, sb, ua, ub = _parts(a, w, True), _parts(b, w, True), _parts(a, w, False), _parts(b, w, False)
    if op in ("sads", "sadu"):
        xa, xb = (sa, sb) if op == "sads" else (ua, ub)
        return sum(abs(x - y) for x, y in zip(xa, xb))
    cmp = re.fullmatch(r"(cmp|set)(eq|ne|ge|gt|le|lt)([su]?)", op)
    if cmp:
        kind, rel, sign = cmp.groups()
        xa, xb = (sa, sb) if sign == "s" else (ua, ub)
        hit = ((1 << w) - 1) if kind == "cmp" else 1
        return _pack([hit if _CMP[rel](x, y) else 0 for x, y in zip(xa, xb)], w)
    table = {
        "abs": lambda: [abs(x) for x in sa],
        "absss": lambda: [_sat(abs(x), w, True) for x in sa],
        "neg": lambda: [-x for x in sa],
        "negss": lambda: [_sat(-x, w, True) for x in sa],
        "absdiffs": lambda: [abs(x - y) for x, y in zip(sa, sb)],
        "absdiffu": lambda: [abs(x - y) for x, y in zip(ua, ub)],
        "add": lambda: [x + y for x, y in zip(ua, ub)],
        "addss": lambda: [_sat(x + y, w, True) for x, y in zip(sa, sb)],
        "addus": lambda: [_sat(x + y, w, False) for x, y in zip(ua, ub)],
        "sub": lambda: [x - y for x, y in zip(ua, ub)],
        "subss": lambda: [_sat(x - y, w, True) for x, y in zip(sa, sb)],
        "subus": lambda: [_sat(x - y, w, False) for x, y in zip(ua, ub)],
        "avgs": lambda: [_avg_away(x + y) for x, y in zip(sa, sb)],
        "avgu": lambda: [(x + y + 1) // 2 for x, y in zip(ua, ub)],
        "haddu": lambda: [(x + y) // 2 for x, y in zip(ua, ub)],
        "maxs": lambda: [max(x, y) for x, y in zip(sa, sb)],
        "maxu": lambda: [max(x, y) for x, y in zip(ua, ub)],
        "mins": lambda: [min(x, y) for x, y in zip(sa, sb)],
        "minu": lambda: [min(x, y) for x, y in zip(ua, ub)],
    }
    return _pack(table[op](), w)


_SIMD_EDGES = [0, 0xFFFFFFFF, 0x80808080, 0x7F7F7F7F, 0x80007FFF, 0x7FFF8000, 0x01FF0180,
               0xFF01807F, 0x00010001, 0xFFFEFFFE, 0x12345678, 0x9ABCDEF0]


def _simd_names() -> list[str]:
    return [n.decode() for n, s in load(HEADER).provides.items() if s == "simd"]


def test_simd_functions_match_cudas_definitions(driver):
    rng = random.Random(29)
    pairs = [(a, b) for a in _SIMD_EDGES for b in _SIMD_EDGES]
    pairs += [(rng.getrandbits(32), rng.getrandbits(32)) for _ in range(300)]
    # every pair of bytes that decides a saturation or a rounding tie, in lane 0
    pairs += [(x, y) for x in (0, 1, 0x7F, 0x80, 0x81, 0xFE, 0xFF)
              for y in (0, 1, 0x7F, 0x80, 0x81, 0xFE, 0xFF)]
    names = _simd_names()
    assert len(names) == 82  # 41 operations, on halfwords and on bytes
    calls = [(n, a, b, 0) for n in names for a, b in pairs]
    got = driver(calls)
    bad = [(n, hex(a), hex(b), hex(g), hex(_simd_reference(n, a, b)))
           for (n, a, b, _), g in zip(calls, got) if g != _simd_reference(n, a, b)]
    assert not bad, bad[:10]


def test_dot_products_match_cudas_definitions(driver):
    rng = random.Random(4)
    triples = [(a, b, c) for a in _SIMD_EDGES for b in _SIMD_EDGES[:6]
               for c in (0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF)]
    triples += [(rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32))
                for _ in range(500)]

    def ref(name: str, a: int, b: int, c: int) -> int:
        signed = name.endswith("_s")
        if "dp4a" in name:
            total = sum(x * y for x, y in zip(_parts(a, 8, signed), _parts(b, 8, signed)))
        else:
            hi = "_hi" in name
            total = sum(x * y for x, y in zip(_parts(a, 16, signed),
                                              _parts(b, 8, signed)[2 * hi:2 * hi + 2]))
        return (c + total) & 0xFFFFFFFF

    names = ["cudaport_dp4a_s", "cudaport_dp4a_u", "cudaport_dp2a_lo_s", "cudaport_dp2a_lo_u",
             "cudaport_dp2a_hi_s", "cudaport_dp2a_hi_u"]
    calls = [(n, a, b, c) for n in names for a, b, c in triples]
    got = driver(calls)
    bad = [(n, a, b, c) for (n, a, b, c), g in zip(calls, got) if g != ref(n, a, b, c)]
    assert not bad, bad[:10]


def _small_value(bits: int, half: bool) -> float:
    """A binary16 or bfloat16 pattern's value, from Python's own decoders."""
    if half:
        return struct.unpack("<e", struct.pack("<H", bits))[0]
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def _pair_reference(op: str, a: int, b: int, half: bool) -> int:
    out = 0
    for i in (0, 1):
        x, y = (a >> (16 * i)) & 0xFFFF, (b >> (16 * i)) & 0xFFFF
        fx, fy = _small_value(x, half), _small_value(y, half)
        nan = fx != fx or fy != fy
        if op in ("max", "min", "max_nan", "min_nan"):
            if nan:
                keep = op in ("max", "min") and not (fx != fx and fy != fy)
                r = (y if fx != fx else x) if keep else 0x7FFF
            elif fx == fy:  # +0.0 > -0.0
                neg_x = x >> 15
                r = (y if neg_x else x) if op.startswith("max") else (x if neg_x else y)
            else:
                r = x if (fx > fy if op.startswith("max") else fx < fy) else y
        else:
            rel, unordered = op[:2], op.endswith("u")
            r = 0xFFFF if (nan and unordered) or (not nan and _CMP[rel](fx, fy)) else 0
        out |= r << (16 * i)
    return out


_HALF_EDGES = [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x3C01, 0x7BFF,
               0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE00, 0x7FFF]
_BF16_EDGES = [0x0000, 0x8000, 0x0001, 0x8001, 0x007F, 0x0080, 0x3F80, 0xBF80, 0x3F81, 0x7F7F,
               0xFF7F, 0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0xFFC0, 0x7FFF]


def test_half2_and_bfloat162_comparisons_match_cudas_definitions(driver):
    rng = random.Random(2)
    ops = ["max", "min", "max_nan", "min_nan", "eq", "ne", "le", "ge", "lt", "gt",
           "equ", "neu", "leu", "geu", "ltu", "gtu"]
    calls, refs = [], []
    for half, edges, suffix in ((True, _HALF_EDGES, "_h"), (False, _BF16_EDGES, "_b")):
        words = [x | (y << 16) for x in edges for y in edges[::4]]
        words += [rng.getrandbits(32) for _ in range(60)]
        for op in ops:
            name = f"cudaport_h{op.replace('_nan', '')}2{'_nan' if 'nan' in op else ''}"
            name += "_mask" if op not in ("max", "min", "max_nan", "min_nan") else ""
            for a in words:
                for b in words[::3]:
                    calls.append((name + suffix, a, b, 0))
                    refs.append(_pair_reference(op, a, b, half))
    got = driver(calls)
    bad = [(c, hex(g), hex(r)) for c, g, r in zip(calls, got, refs) if g != r]
    assert not bad, bad[:10]


# Directed rounding: the exact result (a Fraction) rounded to binary32 in each mode.
_F32_MAX = Fraction(2) ** 127 * (2 - Fraction(1, 2 ** 23))


def _f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def _bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _f32_round_down(q: Fraction) -> float:
    """The largest binary32 value <= q (q finite, nonzero, |q| <= 2^128)."""
    if q > _F32_MAX:
        return _f32(0x7F7FFFFF)
    if q < -_F32_MAX:
        return float("-inf")
    x = struct.unpack("<f", struct.pack("<f", float(q)))[0]  # near q (round to nearest)
    while Fraction(x) > q:
        x = _step(x, -1)
    while True:
        up = _step(x, 1)
        if up != float("inf") and Fraction(up) <= q:
            x = up
        else:
            return x


def _step(x: float, direction: int) -> float:
    """The next binary32 value above (direction 1) or below x."""
    b = _bits(x)
    if x == 0:
        return _f32(1 if direction > 0 else 0x80000001)
    if (x > 0) == (direction > 0):
        return _f32(b + 1)
    return _f32(b - 1)


def _round(q: Fraction, mode: str) -> float:
    down = _f32_round_down(q)
    if Fraction(down) == q if down not in (float("inf"), float("-inf")) else False:
        return down
    up = _step(down, 1) if down != float("-inf") else _f32(0xFF7FFFFF)
    if mode == "rd":
        return down
    if mode == "ru":
        return up
    return down if q > 0 else up


def _rounded_reference(op: str, mode: str, args: list[float]) -> float | None:
    """CUDA's __f<op>_r<mode> of args; None where the result is a NaN."""
    import math
    if any(math.isnan(v) for v in args):
        return None
    x, y, z = (args + [0.0, 0.0])[:3]
    specials = any(math.isinf(v) for v in args)
    if op == "sqrt":
        if x < 0:
            return None
        if x == 0 or math.isinf(x):
            return x
        q = None
    if op == "rcp":
        op, x, y = "div", 1.0, x
    if op in ("div",) and (y == 0 or x == 0 or specials):
        if (x == 0 and y == 0) or (math.isinf(x) and math.isinf(y)):
            return None
        sign = -1.0 if (math.copysign(1, x) * math.copysign(1, y)) < 0 else 1.0
        return sign * (math.inf if y == 0 or math.isinf(x) else 0.0)
    if specials:  # infinities: the IEEE result is exact in every mode
        import numpy as np
        with np.errstate(all="ignore"):
            X, Y, Z = np.float32(x), np.float32(y), np.float32(z)
            r = {"add": X + Y, "sub": X - Y, "mul": X * Y, "fma": X * Y + Z}[op]
            if op == "fma" and not math.isinf(x) and not math.isinf(y):
                r = Z  # a finite product plus an infinity (float32's product may overflow)
        return None if r != r else float(r)
    fx, fy, fz = Fraction(x), Fraction(y), Fraction(z)
    if op == "sqrt":
        # the largest binary32 r with r*r <= x, then the mode
        lo = _f32_round_down(Fraction(math.sqrt(x)))
        while Fraction(lo) ** 2 > fx:
            lo = _step(lo, -1)
        while Fraction(_step(lo, 1)) ** 2 <= fx:
            lo = _step(lo, 1)
        if Fraction(lo) ** 2 == fx or mode in ("rd", "rz"):
            return lo
        return _step(lo, 1)
    if op in ("add", "sub", "fma"):
        p, w = (fx * fy, fz) if op == "fma" else (fx, fy if op == "add" else -fy)
        q = p + w
        if q == 0:  # IEEE 754 6.3: an exact zero sum is +0, or -0 rounding down
            if op == "fma":
                p_neg = math.copysign(1, x) * math.copysign(1, y) < 0
                w_neg = math.copysign(1, z) < 0
            else:
                p_neg = math.copysign(1, x) < 0
                w_neg = math.copysign(1, y if op == "add" else -y) < 0
            if p == 0 and w == 0 and p_neg == w_neg:
                return -0.0 if p_neg else 0.0
            return -0.0 if mode == "rd" else 0.0
    elif op == "mul":
        q = fx * fy
        if q == 0:
            return math.copysign(0.0, math.copysign(1, x) * math.copysign(1, y))
    else:
        q = fx / fy
    r = _round(q, mode)
    if r == 0:
        r = math.copysign(0.0, float(q))
    return r


_FLOAT_EDGES = [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000,
                0x3F800000, 0xBF800000, 0x3F800001, 0x40400000, 0x3DCCCCCD, 0x7F7FFFFF,
                0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x33800000, 0x4B800000,
                0x34000000, 0xB3800000, 0x5F800000, 0x1F800000]


def test_directed_rounding_matches_ieee(driver):
    rng = random.Random(7)

    def rand() -> int:
        kind = rng.random()
        if kind < 0.5:  # ordinary magnitudes, both signs
            return (rng.getrandbits(1) << 31) | ((rng.randrange(100, 155)) << 23) \
                | rng.getrandbits(23)
        return rng.getrandbits(32)

    unary = [[v] for v in _FLOAT_EDGES] + [[rand()] for _ in range(300)]
    binary = [[a, b] for a in _FLOAT_EDGES for b in _FLOAT_EDGES]
    binary += [[rand(), rand()] for _ in range(400)]
    base = [rng.choice(_FLOAT_EDGES[:12]) for _ in range(3)]
    ternary = [[a, b, c] for a in _FLOAT_EDGES[::2] for b in _FLOAT_EDGES[::3]
               for c in _FLOAT_EDGES[::2]]
    ternary += [[rand(), rand(), rand()] for _ in range(300)]
    # ties and near-cancellation: 1 + 2^-24 (a tie), x - (x + tiny)
    binary += [[0x3F800000, 0x33800000], [0xBF800000, 0xB3800000], [0x3F800000, 0xB3800001],
               [0x4B7FFFFF, 0x3F000000], [0x3F800000, base[0]]]
    calls, refs = [], []
    for op, arity in (("add", 2), ("sub", 2), ("mul", 2), ("div", 2), ("rcp", 1),
                      ("sqrt", 1), ("fma", 3)):
        inputs = {1: unary, 2: binary, 3: ternary}[arity]
        for mode in ("rd", "ru", "rz"):
            name = f"cudaport_f{op}{'f' if op == 'fma' else ''}_{mode}".replace("ffmaf", "fmaf")
            for args in inputs:
                calls.append((name, *(args + [0, 0])[:3]))
                refs.append(_rounded_reference(op, mode, [_f32(a) for a in args]))
    got = driver(calls)
    bad = []
    for call, g, r in zip(calls, got, refs):
        if r is None:
            if (g & 0x7F800000) != 0x7F800000 or not g & 0x7FFFFF:
                bad.append((call, hex(g), "NaN"))
        elif g != _bits(r):
            bad.append((call, hex(g), hex(_bits(r))))
    assert not bad, bad[:10]


# Double directed rounding: the exact result (a Fraction) rounded to binary64 in each mode.
_F64_MAX = Fraction(2) ** 1023 * (2 - Fraction(1, 2 ** 52))


def _f64(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits & (2 ** 64 - 1)))[0]


def _bits64(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _round64(q: Fraction, mode: str) -> float:
    """q (finite, nonzero) rounded to binary64 towards -inf (rd), +inf (ru) or zero (rz)."""
    import math
    if abs(q) > _F64_MAX:
        big = math.inf if q > 0 else -math.inf
        towards_inf = mode == ("ru" if q > 0 else "rd")
        return big if towards_inf else math.copysign(float(_F64_MAX), big)
    x = float(q)  # round to nearest (exact integer division)
    if mode == "rz":
        mode = "rd" if q > 0 else "ru"
    if mode == "rd" and Fraction(x) > q:
        x = math.nextafter(x, -math.inf)
    if mode == "ru" and Fraction(x) < q:
        x = math.nextafter(x, math.inf)
    return x if x != 0 else math.copysign(0.0, float(q) or (1.0 if q > 0 else -1.0))


def _rounded64_reference(op: str, mode: str, x: float, y: float = 0.0) -> float | None:
    """CUDA's __d<op>_r<mode>(x[, y]); None where the result is a NaN."""
    import math

    import numpy as np
    if op == "rcp":
        op, x, y = "div", 1.0, x
    if op == "sub":
        op, y = "add", -y
    with np.errstate(all="ignore"):  # specials and zeros: IEEE's result is exact in every mode
        special = {"add": np.float64(x) + np.float64(y), "mul": np.float64(x) * np.float64(y),
                   "div": np.float64(x) / np.float64(y), "sqrt": np.sqrt(np.float64(x))}[op]
    if math.isnan(special):
        return None
    operands = [x] if op == "sqrt" else [x, y]
    if any(math.isinf(v) for v in operands) or (op != "add" and any(v == 0 for v in operands)):
        return float(special)
    fx, fy = Fraction(x), Fraction(y)
    if op == "add":
        q = fx + fy
        if q == 0:  # IEEE 754 6.3: an exact zero sum is +0, or -0 rounding down
            if x == 0 and y == 0 and math.copysign(1, x) == math.copysign(1, y):
                return x
            return -0.0 if mode == "rd" else 0.0
        return _round64(q, mode)
    if op == "mul":
        return _round64(fx * fy, mode)
    if op == "div":
        return _round64(fx / fy, mode)
    # sqrt: the largest double r with r*r <= x, then the mode
    lo = math.sqrt(x)
    while Fraction(lo) ** 2 > fx:
        lo = math.nextafter(lo, 0.0)
    while Fraction(math.nextafter(lo, math.inf)) ** 2 <= fx:
        lo = math.nextafter(lo, math.inf)
    if Fraction(lo) ** 2 == fx or mode in ("rd", "rz"):
        return lo
    return math.nextafter(lo, math.inf)


_DOUBLE_EDGES = [0x0, 0x8000000000000000, 0x1, 0x8000000000000001, 0x000FFFFFFFFFFFFF,
                 0x0010000000000000, 0x3FF0000000000000, 0xBFF0000000000000,
                 0x3FF0000000000001, 0x4008000000000000, 0x3FB999999999999A,
                 0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x7FF0000000000000,
                 0xFFF0000000000000, 0x7FF8000000000000, 0x3CA0000000000000,
                 0x4340000000000000, 0x3CB0000000000000, 0xBCA0000000000000,
                 0x5FE0000000000000, 0x1FE0000000000000, 0x0000000000000003,
                 0x3FE0000000000000, 0x7FE0000000000000, 0x2000000000000000]


def test_double_directed_rounding_matches_ieee(driver):
    rng = random.Random(11)

    def rand() -> int:
        kind = rng.random()
        if kind < 0.4:  # ordinary magnitudes, both signs
            return (rng.getrandbits(1) << 63) | (rng.randrange(900, 1150) << 52) \
                | rng.getrandbits(52)
        if kind < 0.55:  # near the subnormal and overflow ends
            return (rng.getrandbits(1) << 63) | (rng.choice([rng.randrange(0, 60),
                    rng.randrange(1990, 2047)]) << 52) | rng.getrandbits(52)
        if kind < 0.65:  # few significant bits: exact results and ties
            return (rng.getrandbits(1) << 63) | (rng.randrange(1000, 1050) << 52) \
                | (rng.getrandbits(4) << 48)
        return rng.getrandbits(64)

    unary = [[v] for v in _DOUBLE_EDGES] + [[rand()] for _ in range(400)]
    binary = [[a, b] for a in _DOUBLE_EDGES for b in _DOUBLE_EDGES]
    binary += [[rand(), rand()] for _ in range(600)]
    # ties, cancellation, products that underflow or overflow by a little
    binary += [[0x3FF0000000000000, 0x3CA0000000000000], [0xBFF0000000000000, 0xBCA0000000000000],
               [0x3FF0000000000000, 0xBCA0000000000001], [0x433FFFFFFFFFFFFF, 0x3FE0000000000000],
               [0x1FF0000000000001, 0x1FF0000000000001], [0x2000000000000001, 0x2000000000000003],
               [0x7FE0000000000001, 0x4000000000000000], [0x7FEFFFFFFFFFFFFF, 0x3FF0000000000001],
               [0x7FEFFFFFFFFFFFFF, 0x7C9FFFFFFFFFFFFF], [0x0010000000000001, 0x3FEFFFFFFFFFFFFF]]
    calls, refs = [], []
    for op, arity in (("add", 2), ("sub", 2), ("mul", 2), ("div", 2), ("rcp", 1), ("sqrt", 1)):
        for mode in ("rd", "ru", "rz"):
            for args in unary if arity == 1 else binary:
                calls.append((f"cudaport_d{op}_{mode}", *(args + [0, 0])[:3]))
                refs.append(_rounded64_reference(op, mode, *[_f64(a) for a in args]))
    got = driver(calls)
    bad = []
    for call, g, r in zip(calls, got, refs):
        if r is None:
            if (g >> 52) & 0x7FF != 0x7FF or not g & (2 ** 52 - 1):
                bad.append((call, hex(g), "NaN"))
        elif g != _bits64(r):
            bad.append((call, hex(g), hex(_bits64(r))))
    assert len(calls) > 15000
    assert not bad, bad[:10]


def _fma64_reference(mode: str, x: float, y: float, z: float) -> float | None:
    """CUDA's __fma_r<mode>(x, y, z): x*y + z exactly, rounded once; None for NaN."""
    import math
    if any(math.isnan(v) for v in (x, y, z)):
        return None
    if math.isinf(x) or math.isinf(y):
        if x == 0 or y == 0:
            return None
        prod = math.inf if (x > 0) == (y > 0) else -math.inf
        return None if math.isinf(z) and z != prod else prod
    if math.isinf(z):
        return z
    if x == 0 or y == 0:  # an exact signed zero product, added to z
        zero = 0.0 if math.copysign(1, x) == math.copysign(1, y) else -0.0
        return _rounded64_reference("add", mode, zero, z)
    q = Fraction(x) * Fraction(y) + Fraction(z)
    if q == 0:
        return -0.0 if mode == "rd" else 0.0
    return _round64(q, mode)


def test_double_fma_directed_rounding_matches_exact_rounding(driver):
    rng = random.Random(29)

    def rand(lo: int = 0, hi: int = 2047) -> float:
        return _f64(rng.getrandbits(1) << 63 | rng.randrange(lo, hi) << 52 | rng.getrandbits(52))

    triples = []
    edges = [_f64(b) for b in _DOUBLE_EDGES]
    for x in edges:
        for y in edges[::3]:
            for z in edges[::5]:
                triples.append((x, y, z))
    for _ in range(3000):
        kind = rng.random()
        x, y = rand(700, 1350), rand(700, 1350)
        if kind < 0.3:  # z near -x*y: cancellation
            z = -float(Fraction(x) * Fraction(y)) * (1 + rng.choice((0, 2.0 ** -52, -2.0 ** -53, 2.0 ** -30)))
        elif kind < 0.45:  # z far below or far above x*y
            z = float(Fraction(x) * Fraction(y)) * 2.0 ** rng.choice((-120, -111, -60, 60, 111, 120, 200))
        elif kind < 0.6:  # the subnormal end
            x, y, z = rand(400, 560), rand(400, 560), rand(0, 3)
        elif kind < 0.7:  # the overflow end
            x, y, z = rand(1530, 1600), rand(1500, 1560), rand(2000, 2046)
        elif kind < 0.8:  # ties: x*y + z halfway between two doubles
            x = 1 + rng.getrandbits(26) * 2.0 ** -26
            y = 1 + rng.getrandbits(26) * 2.0 ** -26
            z = rng.choice((-1.0, 1.0, -0.5, 2.0 ** -60))
        else:
            z = rand(0, 2047)
        if all(v == v for v in (z,)):
            triples.append((x, y, z))
    calls, refs = [], []
    for x, y, z in triples:
        for mode in ("rd", "ru", "rz"):
            calls.append((f"cudaport_fma_{mode}", _bits64(x), _bits64(y), _bits64(z)))
            refs.append(_fma64_reference(mode, x, y, z))
    got = driver(calls)
    bad = [(c, hex(g), r) for c, g, r in zip(calls, got, refs)
           if (r is None and (g >> 52) & 0x7FF != 0x7FF) or (r is not None and g != _bits64(r))
           or (r is None and g & 0xFFFFFFFFFFFFF == 0)]
    assert not bad, (len(bad), bad[:10])


def _f32_nearest(q: Fraction) -> float:
    """q (finite) rounded to the nearest binary32, ties to the even one, overflow to inf."""
    if q < 0:
        return -_f32_nearest(-q)
    if q == 0:
        return 0.0
    if abs(q) >= _F32_MAX + Fraction(2) ** 103:  # (half a last place above the largest)
        return float("inf") if q > 0 else float("-inf")
    down = _f32_round_down(q)
    if Fraction(down) == q:
        return down
    up = _step(down, 1)
    if up == float("inf"):
        return down
    d, u = q - Fraction(down), Fraction(up) - q
    return down if d < u or (d == u and _bits(down) % 2 == 0) else up


def _f32x2_reference(op: str, ftz: bool, x: float, y: float, z: float) -> int:
    """PTX's <op>.rn[.ftz].f32 on one part: IEEE single operations rounded to nearest,
    subnormals flushed to signed zero under .ftz, NaN as 0x7FFFFFFF."""
    import math

    import numpy as np

    def flush(v: float) -> float:
        return math.copysign(0.0, v) if v != 0 and abs(v) < 2.0 ** -126 else v
    if ftz:
        x, y, z = flush(x), flush(y), flush(z)
    with np.errstate(all="ignore"):
        a, b, c = np.float32(x), np.float32(y), np.float32(z)
        if op == "add":
            r = float(a + b)
        elif op == "sub":
            r = float(a - b)
        elif op == "mul":
            r = float(a * b)
        elif any(math.isnan(v) or math.isinf(v) for v in (x, y, z)):  # (exact in double)
            r = float(np.float64(x) * np.float64(y) + np.float64(z))
        else:
            q = Fraction(x) * Fraction(y) + Fraction(z)
            if q == 0:
                prod_neg = (math.copysign(1, x) < 0) != (math.copysign(1, y) < 0)
                r = -0.0 if (x == 0 or y == 0) and z == 0 and prod_neg and math.copysign(1, z) < 0 else 0.0
            else:
                r = _f32_nearest(q)
    if ftz:
        r = flush(r)
    return 0x7FFFFFFF if math.isnan(r) else _bits(r)


def test_f32x2_pairs_match_the_ptx_isa(driver):
    rng = random.Random(32)
    edges = [_f32(b) for b in _FLOAT_EDGES] + [1.0, -1.0, 1.0 + 2.0 ** -23, 2.0 ** -126, -2.0 ** -149,
                                             3.0, 2.0 ** -24, 2.0 ** 127, 1e-45]
    values = edges + [_f32(rng.getrandbits(32)) for _ in range(600)]
    values += [_f32(rng.getrandbits(1) << 31 | rng.randrange(0, 3) << 23 | rng.getrandbits(23)) for _ in range(200)]
    values = [_f32(_bits(v)) for v in values]  # (each a binary32 value)
    calls, refs = [], []
    for i in range(1500):
        x, y, z = rng.choice(values), rng.choice(values), rng.choice(values)
        if i % 4 == 0 and abs(x * y) < 3e38:  # z cancels the product's leading bits
            z = -_f32(_bits(x * y))
        x2, y2, z2 = rng.choice(values), rng.choice(values), rng.choice(values)
        pack = [(_bits(lo) | _bits(hi) << 32) for lo, hi in ((x, x2), (y, y2), (z, z2))]
        for op in ("fma", "add", "sub", "mul"):
            for ftz in (False, True):
                name = f"cudaport_{op}_rn{'_ftz' if ftz else ''}_f32x2"
                calls.append((name, *pack))
                refs.append(_f32x2_reference(op, ftz, x, y, z) | _f32x2_reference(op, ftz, x2, y2, z2) << 32)
    got = driver(calls)
    bad = [(c[0], hex(c[1]), hex(c[2]), hex(c[3]), hex(g), hex(r)) for c, g, r in zip(calls, got, refs) if g != r]
    assert not bad, (len(bad), bad[:10])


def test_ldcv_returns_the_pointee(driver):
    rng = random.Random(5)
    values = [(rng.getrandbits(64), rng.getrandbits(64)) for _ in range(50)]
    values += [(0, 0), (2 ** 64 - 1, 2 ** 64 - 1)]
    calls, want = [], []
    for a, b in values:
        calls += [("cudaport_ldcv_u64", a, 0, 0), ("cudaport_ldcv_16", a, b, 0),
                  ("cudaport_ldcv_6", a, 0, 0), ("cudaport_ldcv_1", a, 0, 0)]
        want += [a, (a >> 32) | (b & 0xFFFFFFFF) << 32, a & (2 ** 48 - 1), a & 0xFF]
    assert driver(calls) == want


def _dpx_reference(name: str, a: int, b: int, c: int, want_pred: bool) -> int:
    """CUDA 12's DPX functions from their documented definitions (CUDA Math API)."""
    m = re.fullmatch(r"cudaport_vi(max3|min3|addmax|addmin|max|min|bmax|bmin)_([su])(32|16x2)(_relu)?",
                     name)
    op, sign, width, relu = m.groups()
    w = 32 if width == "32" else 16
    xs, ys, zs = (_parts(v, w, sign == "s") for v in (a, b, c))
    results, preds = [], []
    for x, y, z in zip(xs, ys, zs):
        wrap = _parts(_pack([x + y], w), w, sign == "s")[0]  # the sum wraps in the part
        v = {"max3": max(x, y, z), "min3": min(x, y, z), "addmax": max(wrap, z),
             "addmin": min(wrap, z), "max": max(x, y), "min": min(x, y),
             "bmax": max(x, y), "bmin": min(x, y)}[op]
        if relu:
            v = max(v, 0)
        results.append(v)
        preds.append(x >= y if op == "bmax" else x <= y)
    if want_pred:  # (a 16x2 form reports hi << 1 | lo)
        return sum(int(p) << i for i, p in enumerate(preds))
    return _pack(results, w)


def test_dpx_functions_match_cudas_definitions(driver):
    names = [n.decode() for n, s in load(HEADER).provides.items() if s == "dpx"]
    assert len(names) == 36
    rng = random.Random(90)
    triples = [(a, b, c) for a in _SIMD_EDGES[:8] for b in _SIMD_EDGES[:8] for c in _SIMD_EDGES[:4]]
    triples += [(rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32))
                for _ in range(300)]
    calls, refs = [], []
    for n in names:
        for a, b, c in triples:
            for pred in ((False, True) if "_vib" in n else (False,)):
                calls.append((n, a, b, int(pred) if "_vib" in n else c))
                refs.append(_dpx_reference(n, a, b, c, pred))
    got = driver(calls)
    bad = [(c, hex(g), hex(r)) for c, g, r in zip(calls, got, refs) if g != r]
    assert not bad, bad[:10]


# E8M0 and FP4 E2M1 (cuda_fp8.h, cuda_fp4.h)
_FP4_GRID = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]


def _fp4_reference(x: float, toward_zero: bool) -> int:
    """CUDA's __nv_cvt_float_to_fp4(x, __NV_E2M1, mode): nearest code (ties to the even
    code) or towards zero, saturated to +-6, sign kept on zero, NaN -> 0x7."""
    import math
    if math.isnan(x):
        return 0x7
    sign = 0x8 if math.copysign(1.0, x) < 0 else 0
    a = abs(x)
    if a >= 6.0:
        return sign | 7
    i = max(k for k, g in enumerate(_FP4_GRID) if g <= a)
    if not toward_zero:
        mid = Fraction(_FP4_GRID[i] + _FP4_GRID[i + 1]) / 2
        if Fraction(a) > mid or (Fraction(a) == mid and i % 2):
            i += 1
    return sign | i


def _half_bits(v: float) -> int:
    return struct.unpack("<H", struct.pack("<e", v))[0]


def test_e8m0_and_fp4_match_cudas_definitions(driver):
    calls, refs = [], []
    for x in range(256):  # e8m0: 2^(x-127) as bfloat16, 0xFF NaN (0x7FFF)
        calls.append(("cudaport_cvt_e8m0_to_bf16raw", x, 0, 0))
        refs.append(0x7FFF if x == 255 else
                    struct.unpack("<I", struct.pack("<f", 2.0 ** (x - 127)))[0] >> 16)
    for c in range(256):  # two codes -> two halves, the low nibble in .x
        calls.append(("cudaport_cvt_fp4x2_to_halfraw2", c, 0, 0))
        lo, hi = [(-1 if n & 8 else 1) * _FP4_GRID[n & 7] for n in (c & 15, c >> 4)]
        refs.append(_half_bits(lo) | _half_bits(hi) << 16)
    for c in range(16):
        calls.append(("cudaport_fp4_e2m1_float", c, 0, 0))
        refs.append(_bits((-1 if c & 8 else 1) * _FP4_GRID[c & 7]))
    rng = random.Random(12)
    floats = [0.0, -0.0, 0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 6.0, 7.0, 1e30, -1e-30,
              float("inf"), float("-inf"), float("nan"), -0.2500001, 0.7499999, 4.99]
    floats += [rng.uniform(-8, 8) for _ in range(500)]
    floats = [_f32(_bits(v)) for v in floats]
    for v in floats:
        for mode, toward_zero in ((0, False), (1, True)):  # cudaRoundNearest, cudaRoundZero
            calls.append(("cudaport_cvt_float_to_fp4", _bits(v), mode, 0))
            refs.append(_fp4_reference(v, toward_zero))
    for a, b, c in zip(floats, floats[1:], floats[2:]):  # float4 (a, b, c, -a)
        calls.append(("cudaport_fp4x4_e2m1", _bits(a), _bits(b), _bits(c)))
        refs.append(_fp4_reference(a, False) | _fp4_reference(b, False) << 4
                    | _fp4_reference(c, False) << 8 | _fp4_reference(-a, False) << 12)
    got = driver(calls)
    bad = [(c, hex(g), hex(r)) for c, g, r in zip(calls, got, refs) if g != r]
    assert not bad, bad[:10]


def _half_reference(x: float) -> int:
    """CUDA's __double2half: the nearest binary16, ties to even, rounded once from the
    double (struct's "e" packs so); past the largest half an infinity; a NaN as sm_90's
    cvt.rn.f16.f64 gives it (an H200: quiet, x's sign, the payload's top 10 bits)."""
    if x != x:
        bits = _bits64(x)
        return (bits >> 63) << 15 | 0x7E00 | (bits >> 42) & 0x3FF
    try:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    except OverflowError:
        return 0xFC00 if x < 0 else 0x7C00


def test_double2half_matches_cudas_definition(driver):
    rng = random.Random(16)
    values = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), -float("nan"),
              65504.0, 65519.999999, 65520.0, 65536.0, 1e300, 5e-324, 2.0 ** -24, 2.0 ** -25,
              2.0 ** -25 * (1 + 2.0 ** -40), 2.0 ** -14, 2.0 ** -14 - 2.0 ** -25]
    # NaNs of either sign, quiet and signalling, with payloads in the kept and dropped bits
    values += [struct.unpack("<d", struct.pack("<Q", b))[0] for b in (
        0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0xFFF0000000000001,
        0x7FFC000000000000, 0x7FF4000000000000, 0x7FFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF,
        0x7FF0040000000000, 0x7FF003FFFFFFFFFF)]
    # every half, the ties between neighbours, and doubles just either side of a tie that
    # a float cannot hold (through float they would round twice)
    halves = [struct.unpack("<e", struct.pack("<H", h))[0] for h in range(0x7C00)]
    for v, w in zip(halves, halves[1:]):
        t = (v + w) / 2
        values += [v, t, t * (1 + 2.0 ** -40), t * (1 - 2.0 ** -40)]
    values += [rng.uniform(-70000, 70000) for _ in range(2000)]
    values += [rng.choice((-1, 1)) * 2.0 ** rng.uniform(-30, 17) for _ in range(2000)]
    values += [-v for v in values]
    got = driver([("cudaport_double2half", _bits64(v), 0, 0) for v in values])
    want = [_half_reference(v) for v in values]
    bad = [(v, hex(g), hex(w)) for v, g, w in zip(values, got, want) if g != w]
    assert not bad, bad[:10]


_INTEGERS = {"int": (32, True), "uint": (32, False), "ll": (64, True), "ull": (64, False),
             "short": (16, True), "ushort": (16, False)}


def _int_bf16_reference(n: int, mode: str) -> int:
    """CUDA's __int2bfloat16_<mode> & co.: the integer n to 8 significant bits, rounded
    once (rn: nearest, ties to even; rz: towards zero; rd: -inf; ru: +inf); zero is +0."""
    m = abs(n)
    if m.bit_length() > 8:
        s = m.bit_length() - 8
        lo, rest = m >> s, m & ((1 << s) - 1)
        up = {"rn": rest > 1 << (s - 1) or (rest == 1 << (s - 1) and lo & 1), "rz": False,
              "rd": rest != 0 and n < 0, "ru": rest != 0 and n > 0}[mode]
        m = (lo + up) << s
    bits = struct.unpack("<I", struct.pack("<f", float(m)))[0] >> 16
    return bits | (0x8000 if n < 0 else 0)


def test_integer_to_bfloat16_matches_cudas_definition(driver):
    rng = random.Random(24)
    calls, refs = [], []
    for kind, (width, signed) in _INTEGERS.items():
        lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
        values = {lo, hi, 0, 1, 255, 256, 257, 383, 384, 385, 511, 513, 65535, 65536}
        # every tie 2^s*(k + 1/2) and its neighbours at each scale, and random values
        for s in range(1, width - 7):
            for k in (128, 129, 254, 255):
                t = (k << s) + (1 << (s - 1))
                values |= {t - 1, t, t + 1, -t + 1, -t, -t - 1}
        values.add((1 << 24) + (1 << 16) + 1)  # (2^24 + 2^17; through float 2^24)
        values |= {rng.randint(lo, hi) for _ in range(300)}
        for v in sorted(v for v in values if lo <= v <= hi):
            for mode in ("rn", "rz", "rd", "ru"):
                calls.append((f"cudaport_{kind}2bfloat16_{mode}", v, 0, 0))
                refs.append(_int_bf16_reference(v, mode))
    got = driver(calls)
    bad = [(c[0], c[1], hex(g), hex(w)) for c, g, w in zip(calls, got, refs) if g != w]
    assert not bad, bad[:10]


_BF16_INTEGERS = {"int": (32, True), "uint": (32, False), "ll": (64, True),
                  "ull": (64, False), "short": (16, True), "ushort": (16, False),
                  "char": (8, True), "uchar": (8, False)}


def _bf16_int_reference(bits: int, kind: str, mode: str) -> int:
    """CUDA's __bfloat162<kind>_<mode> (cuda_bf16.h's documentation of each): the value
    rounded in the mode (rn: nearest, ties to even; rz: towards zero; rd: floor; ru:
    ceiling), saturated to the type; NaN gives 0, and 0x8000000000000000 for 64 bits. As
    the 64-bit pattern the driver prints (signed results sign-extended)."""
    width, signed = _BF16_INTEGERS[kind]
    x = struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    if x != x:
        v = -(1 << 63) if width == 64 and signed else (1 << 63 if width == 64 else 0)
    elif x in (float("inf"), float("-inf")):
        v = x
    else:
        q = Fraction(x)
        v = {"rz": int(q), "rd": math.floor(q), "ru": math.ceil(q), "rn": round(q)}[mode]
    if not (x != x):
        lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
        v = lo if v < lo else hi if v > hi else int(v)
    return v & ((1 << 64) - 1)


def test_bfloat16_to_integer_matches_cudas_definition(driver):
    rng = random.Random(41)
    patterns = {0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0xFFC1, 0x0001, 0x8001, 0x7F7F, 0xFF7F}
    for v in (0.5, 1.5, 2.5, 3.5, 127.5, 126.5, 128, 255, 255.5, 256, 32767, 32768, 65535,
              65536, 2.0 ** 31, 2.0 ** 32, 2.0 ** 63, 2.0 ** 64, 1e30, 0.25, 0.75, 1.0):
        b = struct.unpack("<I", struct.pack("<f", v))[0] >> 16
        patterns |= {b, b | 0x8000, b - 1, (b - 1) | 0x8000, b + 1, (b + 1) | 0x8000}
    patterns |= {rng.getrandbits(16) for _ in range(400)}
    patterns |= {(e << 7) | m | s for e in range(120, 192) for m in (0, 1, 0x40, 0x7F)
                 for s in (0, 0x8000)}  # (around each power of two from 2^-7 to 2^64)
    calls, refs = [], []
    for bits in sorted(patterns):
        for kind in _BF16_INTEGERS:
            modes = ("rz",) if kind in ("char", "uchar") else ("rn", "rz", "rd", "ru")
            for mode in modes:
                calls.append((f"cudaport_bfloat162{kind}_{mode}", bits, 0, 0))
                refs.append(_bf16_int_reference(bits, kind, mode))
    got = driver(calls)
    bad = [(c[0], hex(c[1]), hex(g), hex(w)) for c, g, w in zip(calls, got, refs) if g != w]
    assert not bad, bad[:10]


# FP8 E4M3 and E5M2 (cuda_fp8.h) and the PTX pair conversions (PTX ISA, cvt)
_FP8 = {0: (3, 7, 0x7E, 0x7F), 1: (2, 15, 0x7B, 0x7C)}  # mantissa bits, bias, largest, NOSAT overflow


def _fp8_value(code: int, interpretation: int) -> Fraction:
    """The value of a non-negative code, by the format's formula (also for the code just
    above the largest finite one: 480 in E4M3, 65536 in E5M2)."""
    m, bias, _, _ = _FP8[interpretation]
    e, f = code >> m, code & ((1 << m) - 1)
    if e == 0:
        return Fraction(f) * Fraction(2) ** (1 - bias - m)
    return Fraction((1 << m) + f) * Fraction(2) ** (e - bias - m)


_FP8_VALUES = {i: [float(_fp8_value(c, i)) for c in range(_FP8[i][2] + 2)] for i in (0, 1)}


def _fp8_reference(x: float, saturate: bool, interpretation: int, nan: int = 0x7F) -> int:
    """CUDA's __nv_cvt_*_to_fp8: nearest value, ties to the even code (its last mantissa
    bit), unbounded above; over the largest finite value saturated or NaN/infinity; the
    sign kept; NaN -> ``nan``. (Every value and midpoint is exact in a double.)"""
    import bisect
    import math
    if math.isnan(x):
        return nan
    _, _, largest, overflow = _FP8[interpretation]
    values = _FP8_VALUES[interpretation]
    sign = 0x80 if math.copysign(1.0, x) < 0 else 0
    a = abs(x)
    if a >= values[-1]:
        code = largest + 1
    else:
        i = bisect.bisect_right(values, a) - 1
        mid = (values[i] + values[i + 1]) / 2
        code = i + 1 if a > mid or (a == mid and i % 2) else i
    if code > largest:
        code = largest if saturate else overflow
    return sign | code


def _fp8_to_half_reference(code: int, interpretation: int) -> int:
    if (code & 0x7F) > (0x7E if interpretation == 0 else 0x7C):
        return 0x7FFF
    if interpretation == 1 and code & 0x7F == 0x7C:
        return 0xFC00 if code & 0x80 else 0x7C00
    v = _fp8_value(code & 0x7F, interpretation)
    bits = _half_bits(float(v))
    return bits | (0x8000 if code & 0x80 else 0)


def _fp8_floats(rng: random.Random) -> list[float]:
    """Each format's values, the midpoints between neighbours (ties) and one float ulp
    either side, the saturation thresholds, subnormals, infinities, NaNs, -0, random."""
    out = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), -float("nan"),
           _f32(0x7F800001), _f32(0xFFC00000), _f32(0x00000001), _f32(0x80000001),
           1e-30, 1e30, -1e38, 3.4028234663852886e38]
    for interpretation in (0, 1):
        values = [_fp8_value(c, interpretation) for c in range(_FP8[interpretation][2] + 2)]
        for v, w in zip(values, values[1:]):
            for q in (v, (v + w) / 2):
                b = _bits(float(q))
                out += [_f32(b), _f32(b + 1), _f32(b - 1) if b else 0.0]
    out += [_f32(_bits(rng.uniform(-600, 600))) for _ in range(400)]
    out += [_f32(_bits(rng.uniform(-70000, 70000))) for _ in range(200)]
    out += [_f32(_bits(rng.choice((-1, 1)) * 2.0 ** rng.uniform(-20, 20))) for _ in range(400)]
    out += [-v for v in out]
    return out


def test_fp8_conversions_match_cudas_definitions(driver):
    rng = random.Random(8)
    floats = _fp8_floats(rng)
    calls, refs = [], []
    for v in floats:
        for mode in range(4):  # saturate | interpretation << 1
            sat, interp = mode & 1, mode >> 1
            calls.append(("cudaport_cvt_float_to_fp8", _bits(v), 0, mode))
            refs.append(_fp8_reference(v, bool(sat), interp))
            calls.append(("cudaport_cvt_double_to_fp8", _bits64(v), mode, 0))
            d = _bits64(v)  # (a double NaN keeps its sign; E5M2 its upper payload bits)
            refs.append(_fp8_reference(v, bool(sat), interp, nan=(d >> 63) << 7 | (
                0x7F if interp == 0 else 0x7E | (d >> 50) & 3)))
    for w, v in zip(floats, floats[1:]):
        for mode in range(4):
            sat, interp = mode & 1, mode >> 1
            calls.append(("cudaport_cvt_float2_to_fp8x2", _bits(w), _bits(v), mode))
            refs.append(_fp8_reference(w, bool(sat), interp)
                        | _fp8_reference(v, bool(sat), interp) << 8)
        # PTX: d = {cvt(a) in the upper byte, cvt(b) in the lower}, .satfinite
        calls.append(("cudaport_cvt_rn_satfinite_e4m3x2_f32", _bits(w), _bits(v), 0))
        refs.append(_fp8_reference(w, True, 0) << 8 | _fp8_reference(v, True, 0))
        calls.append(("cudaport_cvt_rn_satfinite_e5m2x2_f32", _bits(w), _bits(v), 0))
        refs.append(_fp8_reference(w, True, 1) << 8 | _fp8_reference(v, True, 1))
        calls.append(("cudaport_cvt_rn_satfinite_e2m1x2_f32", _bits(w), _bits(v), 0))
        refs.append(_fp4_reference(w, False) << 4 | _fp4_reference(v, False))
    # double NaNs keep their sign, E5M2 the two upper mantissa bits (quiet)
    for bits, e4m3, e5m2 in ((0x7FF8000000000000, 0x7F, 0x7E), (0xFFF4000000000000, 0xFF, 0xFF),
                             (0x7FF0000000000001, 0x7F, 0x7E), (0xFFFC000000000000, 0xFF, 0xFF)):
        calls += [("cudaport_cvt_double_to_fp8", bits, 1, 0), ("cudaport_cvt_double_to_fp8", bits, 3, 0)]
        refs += [e4m3, e5m2]
    # double ties that a float cannot hold: the midpoint of 1 and 1.125 (E4M3) +- 2^-40
    for d, interp, want in ((1.0625 + 2.0 ** -40, 0, 0x39), (1.0625 - 2.0 ** -40, 0, 0x38),
                            (1.0625, 0, 0x38), (464.0 + 2.0 ** -30, 0, 0x7F)):
        calls.append(("cudaport_cvt_double_to_fp8", _bits64(d), interp << 1, 0))
        refs.append(want)
    calls.append(("cudaport_cvt_double2_to_fp8x2", _bits64(1.5), 1, 0))  # (1.5, -1.5)
    refs.append(0xBC3C)
    halves = list(range(0x10000))
    for h in halves:  # every binary16, paired with its neighbour code
        x = struct.unpack("<e", struct.pack("<H", h))[0]
        y_bits = h ^ 0x0001
        y = struct.unpack("<e", struct.pack("<H", y_bits))[0]
        for interp in (0, 1):
            calls.append(("cudaport_cvt_halfraw2_to_fp8x2", h | y_bits << 16, 0, 1 | interp << 1))
            refs.append(_fp8_reference(x, True, interp) | _fp8_reference(y, True, interp) << 8)
        if h % 7 == 0:
            calls.append(("cudaport_cvt_halfraw_to_fp8", h, 0, 0))
            refs.append(_fp8_reference(x, False, 0))
            calls.append(("cudaport_cvt_rn_satfinite_e5m2x2_f16x2", h << 16 | y_bits, 0, 0))
            refs.append(_fp8_reference(x, True, 1) << 8 | _fp8_reference(y, True, 1))
            calls.append(("cudaport_cvt_rn_satfinite_e4m3x2_f16x2", h << 16 | y_bits, 0, 0))
            refs.append(_fp8_reference(x, True, 0) << 8 | _fp8_reference(y, True, 0))
        if h % 5 == 0:  # a bfloat16 is the upper half of a float
            b = _f32(h << 16)
            c = _f32((h ^ 0x8001) << 16)
            calls.append(("cudaport_cvt_bfloat16raw2_to_fp8x2", h | (h ^ 0x8001) << 16, 0, 2))
            refs.append(_fp8_reference(b, False, 1) | _fp8_reference(c, False, 1) << 8)
            calls.append(("cudaport_cvt_bfloat16raw_to_fp8", h, 0, 1))
            refs.append(_fp8_reference(b, True, 0))
            for interp, name in ((0, "cudaport_cvt_rn_satfinite_e4m3x2_bf16x2"),
                                 (1, "cudaport_cvt_rn_satfinite_e5m2x2_bf16x2")):  # (PTX: .satfinite)
                calls.append((name, h | (h ^ 0x8001) << 16, 0, 0))
                refs.append(_fp8_reference(b, True, interp) | _fp8_reference(c, True, interp) << 8)
    for c in range(0x10000):  # every pair of codes to two halves (the low byte in .x)
        for interp in (0, 1):
            want = _fp8_to_half_reference(c & 0xFF, interp) | _fp8_to_half_reference(c >> 8, interp) << 16
            if c % 3 == 0:
                calls.append(("cudaport_cvt_fp8x2_to_halfraw2", c, interp, 0))
                refs.append(want)
            if c < 0x100:
                calls.append(("cudaport_cvt_fp8_to_halfraw", c, interp, 0))
                refs.append(want & 0xFFFF)
            if c % 11 == 0:
                calls.append(("cudaport_cvt_rn_f16x2_e4m3x2" if interp == 0 else
                              "cudaport_cvt_rn_f16x2_e5m2x2", c, 0, 0))
                refs.append(want)
    for c in range(256):  # FP4 pairs: the low nibble in the low half
        lo, hi = [(-1 if n & 8 else 1) * _FP4_GRID[n & 7] for n in (c & 15, c >> 4)]
        calls.append(("cudaport_cvt_rn_f16x2_e2m1x2", c, 0, 0))
        refs.append(_half_bits(lo) | _half_bits(hi) << 16)
        calls.append(("cudaport_cvt_rn_bf16x2_e2m1x2", c, 0, 0))
        refs.append(_bits(lo) >> 16 | (_bits(hi) >> 16) << 16)
    got = driver(calls)
    bad = [(c, hex(g), hex(r)) for c, g, r in zip(calls, got, refs) if g != r]
    assert not bad, (len(bad), bad[:10])


def _e8m0_reference(x: float, saturate: bool, up: bool, from_double: bool = False) -> int:
    """CUDA's __nv_cvt_*_to_e8m0: |x| rounded down or up to a power of two 2^k; k < -127
    gives 0x00, k > 127 0xFE (saturated) or 0xFF, NaN 0xFF; else k + 127. A finite double
    of 2^128 or more rounded down gives 0xFE (CUDA reads it through float, rounded to odd:
    the largest float)."""
    import math
    if math.isnan(x):
        return 0xFF
    a = abs(Fraction(x)) if not math.isinf(x) else None
    if a is None:
        k = 1000
    elif a == 0:
        return 0x00
    else:
        k = a.numerator.bit_length() - a.denominator.bit_length()  # 2^k <= a < 2^(k+1), near
        if Fraction(2) ** k > a:
            k -= 1
        if up and Fraction(2) ** k != a:
            k += 1
        if from_double and not up and a >= 2 ** 128:
            return 0xFE
    if k < -127:
        return 0x00
    if k > 127:
        return 0xFE if saturate else 0xFF
    return k + 127


def test_e8m0_conversions_match_cudas_definitions(driver):
    rng = random.Random(80)
    floats = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), -float("nan"), 1.0, -1.0,
              2.0 ** 127, 2.0 ** -127, 2.0 ** -126, 3.4028234663852886e38, 1.5 * 2.0 ** 127]
    for k in range(-150, 129):  # each power of two and its float neighbours
        if k < 128:
            b = _bits(2.0 ** k) if k >= -149 else 0
            floats += [_f32(b), _f32(b + 1), _f32(b - 1) if b else 0.0]
    floats += [_f32(rng.getrandbits(32)) for _ in range(3000)]
    floats = [v for v in floats] + [-v for v in floats]
    calls, refs = [], []
    for v in floats:
        for mode in (2, 3, 4, 5):  # saturate | rounding << 1: cudaRoundZero 1, cudaRoundPosInf 2
            sat, up = bool(mode & 1), mode >> 1 == 2
            calls.append(("cudaport_cvt_float_to_e8m0", _bits(v), 0, mode))
            refs.append(_e8m0_reference(v, sat, up))
    for w, v in zip(floats, floats[1:]):
        for mode in (2, 5):
            sat, up = bool(mode & 1), mode >> 1 == 2
            calls.append(("cudaport_cvt_float2_to_e8m0x2", _bits(w), _bits(v), mode))
            refs.append(_e8m0_reference(w, sat, up) | _e8m0_reference(v, sat, up) << 8)
            # PTX cvt.{rz,rp}.ue8m0x2.f32 d, a, b: a into the upper byte
            calls.append(("cudaport_cvt_ue8m0x2_f32", _bits(w), _bits(v), mode))
            refs.append(_e8m0_reference(w, sat, up) << 8 | _e8m0_reference(v, sat, up))
    for h in range(0x10000):  # every bfloat16
        x = _f32(h << 16)
        for mode in (2, 3, 4, 5):
            sat, up = bool(mode & 1), mode >> 1 == 2
            calls.append(("cudaport_cvt_bfloat16raw_to_e8m0", h, 0, mode))
            refs.append(_e8m0_reference(x, sat, up))
        if h % 3 == 0:
            y = _f32((h ^ 0x8011) << 16)
            calls.append(("cudaport_cvt_bfloat162raw_to_e8m0x2", h | (h ^ 0x8011) << 16, 0, 4))
            refs.append(_e8m0_reference(x, False, True) | _e8m0_reference(y, False, True) << 8)
    doubles = [2.0 ** 128, 1e300, -1e300, float("inf"), 2.0 ** -127 * (1 + 2.0 ** -40),
               1 + 2.0 ** -40, 1 - 2.0 ** -40, 2.0 ** -1074, 2.0 ** -200, 2.0 ** 127 * (2 - 2.0 ** -40),
               2.0 ** 127 * (2 - 2.0 ** -20), 1.7976931348623157e308, 2.0 ** -127, 0.0, -0.0]
    doubles += [_f64(rng.getrandbits(64)) for _ in range(2000)]
    for d in doubles:
        for mode in (2, 3, 4, 5):
            sat, up = bool(mode & 1), mode >> 1 == 2
            calls.append(("cudaport_cvt_double_to_e8m0", _bits64(d), mode, 0))
            refs.append(_e8m0_reference(d, sat, up, from_double=True))
        calls.append(("cudaport_cvt_double2_to_e8m0x2", _bits64(d), 4, 0))  # (d, 2d)
        refs.append(_e8m0_reference(d, False, True, True) | _e8m0_reference(2 * d, False, True, True) << 8)
    for c in range(0x10000):  # pairs of scales to bfloat16 (the low byte in .x)
        if c % 5 == 0 or c < 0x100:
            lo, hi = [0x7FFF if b == 0xFF else 0x0040 if b == 0 else b << 7 for b in (c & 0xFF, c >> 8)]
            calls.append(("cudaport_cvt_e8m0x2_to_bf162raw", c, 0, 0))
            refs.append(lo | hi << 16)
    for v in floats[:400]:  # __nv_fp8_e8m0(float): cudaRoundPosInf, __NV_SATFINITE
        calls.append(("cudaport_fp8_e8m0_float", _bits(v), 0, 0))
        refs.append(_e8m0_reference(v, True, True))
    for c in range(256):
        calls.append(("cudaport_fp8_e8m0_to_float", c, 0, 0))
        refs.append(0x7FFF0000 if c == 255 else _bits(2.0 ** (c - 127)))
    got = driver(calls)
    bad = [(c, hex(g), hex(r)) for c, g, r in zip(calls, got, refs) if g != r]
    assert not bad, (len(bad), bad[:10])


# ---- compile: one translated file with every ported construct ------------------------------

EVERYTHING = DATA / "every_port.cu"


def _hipcc(version: str) -> Path | None:
    path = Path(f"/var/cache/cudaport/rocm-{version}/cudaport-hipcc")
    ready = Path(f"/var/cache/cudaport/rocm-{version}/.cudaport-rocm")
    return path if path.exists() and ready.exists() else None


@pytest.mark.slow
@pytest.mark.parametrize("version,arch", [("7.2", "gfx942"), ("7.2", "gfx90a"),
                                          ("6.4", "gfx942"), ("6.4", "gfx90a")])
def test_every_ported_construct_compiles(tmp_path, version, arch):
    hipcc = _hipcc(version)
    if hipcc is None:
        pytest.skip(f"no ROCm {version} root (tools/setup-rocm.sh {version})")
    src = EVERYTHING.read_bytes()
    if version == "6.4":  # (Debian's ROCm 6.4 root has no roctracer)
        src = re.sub(rb"(?s)// nvtx begin.*?// nvtx end\n", b"", src)
    result = _translate(src, version, "every_port.cu")
    assert not [f for f in result.findings if f.severity == "error"], result.findings
    out = tmp_path / "every_port.hip"
    out.write_bytes(result.output)
    proc = subprocess.run([str(hipcc), f"--offload-arch={arch}", "-std=c++17", "-c", str(out),
                           "-o", str(tmp_path / "every_port.o")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-4000:]


AMD_FORMS = b"""\
#include <cuda_runtime.h>
__global__ void k(int* o, unsigned* u) {
  o[0] = __dp4a(o[1], o[2], o[3]);
  u[0] = __dp4a(u[1], u[2], u[3]);
  u[4] = __vsadu4(u[5], u[6]);
}
"""


@pytest.mark.slow
@pytest.mark.parametrize("arch,dot", [("gfx942", True), ("gfx90a", True), ("gfx1100", False)])
def test_amd_builtin_forms_are_the_ones_compiled(tmp_path, arch, dot):
    """The device side takes the AMD-builtin forms where the target has them (v_dot4 for
    __dp4a on CDNA; v_sad_u8 for __vsadu4 everywhere) and the generic form elsewhere.
    Their agreement with the generic form rests on the instructions' documented
    definitions (stated next to them in the header): no AMD GPU runs them here."""
    hipcc = _hipcc("7.2")
    if hipcc is None:
        pytest.skip("no ROCm 7.2 root (tools/setup-rocm.sh 7.2)")
    out = tmp_path / "forms.hip"
    out.write_bytes(_translate(AMD_FORMS).output)
    proc = subprocess.run([str(hipcc), f"--offload-arch={arch}", "-O2", "-S",
                           "--cuda-device-only", "-o", "-", str(out)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-4000:]
    asm = proc.stdout
    if dot:
        assert "v_dot4c_i32_i8" in asm or "v_dot4_i32_i8" in asm
        assert "v_dot4_u32_u8" in asm
    # (gfx1100 lacks __builtin_amdgcn_sdot4, "dot1-insts": that it compiles shows the
    # generic form was taken; clang turns the unsigned loop into v_dot4_u32_u8 by itself)
    assert "v_sad_u8" in asm
