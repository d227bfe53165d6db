// cudaport_portable.h: device functions CUDA has and HIP lacks, written for cudaport from
// CUDA's documented definitions (CUDA Math API: SIMD, Integer and Single Precision
// Intrinsics, Half and Bfloat16 Precision Comparison Functions), which are quoted above
// each function. No other project's code is copied here.
//
// Each function is `__host__ __device__` and has one generic C++ form, so a host program
// (and cudaport's semantic tests, compiled with g++) calls the same code a kernel runs.
// cudaport copies into a translated file only the sections (`//@ ...` lines) whose
// functions the file calls, each guarded so that a translation unit compiles it once;
// `cudaport portable-header --target hip` writes the whole file.
//
// Section lines: `//@ ID needs=ID,... provides=NAME,...`.

//@ prelude provides=
#ifndef CUDAPORT_PORTABLE_PRELUDE
#define CUDAPORT_PORTABLE_PRELUDE
#ifndef CUDAPORT_HD  // (set beforehand by bench/device_compare.py, which builds with nvcc)
#if defined(__HIPCC__)
#define CUDAPORT_HD __host__ __device__
#else
#define CUDAPORT_HD
#endif
#endif
namespace cudaport_detail {
// The bytes of `from` as a `To` of the same size (memcpy: defined for every trivially
// copyable type, and folded to a register move by clang and g++).
template <class To, class From>
CUDAPORT_HD inline To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs equal sizes");
  To to;
  __builtin_memcpy((void*)&to, (const void*)&from, sizeof(To));
  return to;
}
}  // namespace cudaport_detail
#endif
//@ end

//@ simd needs=prelude provides=cudaport_vabs2,cudaport_vabs4,cudaport_vabsdiffs2,cudaport_vabsdiffs4,cudaport_vabsdiffu2,cudaport_vabsdiffu4,cudaport_vabsss2,cudaport_vabsss4,cudaport_vadd2,cudaport_vadd4,cudaport_vaddss2,cudaport_vaddss4,cudaport_vaddus2,cudaport_vaddus4,cudaport_vavgs2,cudaport_vavgs4,cudaport_vavgu2,cudaport_vavgu4,cudaport_vcmpeq2,cudaport_vcmpeq4,cudaport_vcmpges2,cudaport_vcmpges4,cudaport_vcmpgeu2,cudaport_vcmpgeu4,cudaport_vcmpgts2,cudaport_vcmpgts4,cudaport_vcmpgtu2,cudaport_vcmpgtu4,cudaport_vcmples2,cudaport_vcmples4,cudaport_vcmpleu2,cudaport_vcmpleu4,cudaport_vcmplts2,cudaport_vcmplts4,cudaport_vcmpltu2,cudaport_vcmpltu4,cudaport_vcmpne2,cudaport_vcmpne4,cudaport_vhaddu2,cudaport_vhaddu4,cudaport_vmaxs2,cudaport_vmaxs4,cudaport_vmaxu2,cudaport_vmaxu4,cudaport_vmins2,cudaport_vmins4,cudaport_vminu2,cudaport_vminu4,cudaport_vneg2,cudaport_vneg4,cudaport_vnegss2,cudaport_vnegss4,cudaport_vsads2,cudaport_vsads4,cudaport_vsadu2,cudaport_vsadu4,cudaport_vseteq2,cudaport_vseteq4,cudaport_vsetges2,cudaport_vsetges4,cudaport_vsetgeu2,cudaport_vsetgeu4,cudaport_vsetgts2,cudaport_vsetgts4,cudaport_vsetgtu2,cudaport_vsetgtu4,cudaport_vsetles2,cudaport_vsetles4,cudaport_vsetleu2,cudaport_vsetleu4,cudaport_vsetlts2,cudaport_vsetlts4,cudaport_vsetltu2,cudaport_vsetltu4,cudaport_vsetne2,cudaport_vsetne4,cudaport_vsub2,cudaport_vsub4,cudaport_vsubss2,cudaport_vsubss4,cudaport_vsubus2,cudaport_vsubus4
#ifndef CUDAPORT_PORTABLE_SIMD
#define CUDAPORT_PORTABLE_SIMD
// CUDA's SIMD intrinsics (CUDA Math API, "SIMD Intrinsics"): a 32-bit word is split into
// 2 halfwords (the ...2 functions) or 4 bytes (the ...4 functions); the operation is
// applied to corresponding parts, which are recombined into an unsigned int, part i in
// bits [i*W, (i+1)*W). "s" reads the parts as signed, "u" as unsigned; plain add, sub,
// neg and abs wrap around; "ss"/"us" saturate to the signed/unsigned range of a part.
//   abs: |a|            absss: |a| saturated (|-2^(W-1)| = 2^(W-1)-1)
//   absdiff: |a - b|    add, sub, neg: wrap-around
//   addss, subss, negss, addus, subus: saturated
//   avgs: signed rounded average, (a+b)/2 rounded to nearest with halves away from zero
//   avgu: unsigned rounded average, (a+b+1) >> 1     haddu: (a+b) >> 1
//   cmpXX: all bits of the part set where the comparison holds, else 0
//   setXX: 1 in the part where the comparison holds, else 0
//   max, min: of the parts     sad: the sum over the parts of |a - b| (not per part)
namespace cudaport_detail {
enum simd_op {
  simd_abs, simd_absss, simd_absdiffs, simd_absdiffu, simd_add, simd_addss, simd_addus,
  simd_avgs, simd_avgu, simd_haddu, simd_eq, simd_ges, simd_geu, simd_gts, simd_gtu,
  simd_les, simd_leu, simd_lts, simd_ltu, simd_ne, simd_maxs, simd_maxu, simd_mins,
  simd_minu, simd_neg, simd_negss, simd_sub, simd_subss, simd_subus
};
// One part of width W (8 or 16): its unsigned and its signed value.
template <int W> CUDAPORT_HD inline int simd_u(unsigned x, int i) {
  return (int)((x >> (i * W)) & ((1u << W) - 1u));
}
template <int W> CUDAPORT_HD inline int simd_s(unsigned x, int i) {
  int u = simd_u<W>(x, i);
  return u >= (1 << (W - 1)) ? u - (1 << W) : u;
}
CUDAPORT_HD inline int simd_clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
// The value of one part of the result (before it is cut to W bits); `all` is the part's
// all-ones value for cmp, 1 for set.
template <int W, int OP> CUDAPORT_HD inline int simd_part(unsigned a, unsigned b, int i, int all) {
  const int as = simd_s<W>(a, i), bs = simd_s<W>(b, i);
  const int au = simd_u<W>(a, i), bu = simd_u<W>(b, i);
  const int smin = -(1 << (W - 1)), smax = (1 << (W - 1)) - 1, u_hi = (1 << W) - 1;
  switch (OP) {
    case simd_abs: return as < 0 ? -as : as;
    case simd_absss: return simd_clamp(as < 0 ? -as : as, 0, smax);
    case simd_absdiffs: return as > bs ? as - bs : bs - as;
    case simd_absdiffu: return au > bu ? au - bu : bu - au;
    case simd_add: return au + bu;
    case simd_addss: return simd_clamp(as + bs, smin, smax);
    case simd_addus: return simd_clamp(au + bu, 0, u_hi);
    case simd_avgs: { int s = as + bs; return s >= 0 ? (s + 1) / 2 : -((-s + 1) / 2); }
    case simd_avgu: return (au + bu + 1) >> 1;
    case simd_haddu: return (au + bu) >> 1;
    case simd_eq: return au == bu ? all : 0;
    case simd_ges: return as >= bs ? all : 0;
    case simd_geu: return au >= bu ? all : 0;
    case simd_gts: return as > bs ? all : 0;
    case simd_gtu: return au > bu ? all : 0;
    case simd_les: return as <= bs ? all : 0;
    case simd_leu: return au <= bu ? all : 0;
    case simd_lts: return as < bs ? all : 0;
    case simd_ltu: return au < bu ? all : 0;
    case simd_ne: return au != bu ? all : 0;
    case simd_maxs: return as > bs ? as : bs;
    case simd_maxu: return au > bu ? au : bu;
    case simd_mins: return as < bs ? as : bs;
    case simd_minu: return au < bu ? au : bu;
    case simd_neg: return -as;
    case simd_negss: return simd_clamp(-as, smin, smax);
    case simd_sub: return au - bu;
    case simd_subss: return simd_clamp(as - bs, smin, smax);
    default: return simd_clamp(au - bu, 0, u_hi);  // simd_subus
  }
}
template <int W, int OP> CUDAPORT_HD inline unsigned simd(unsigned a, unsigned b, int all = (1 << W) - 1) {
  unsigned r = 0;
  for (int i = 0; i < 32 / W; ++i)
    r |= ((unsigned)simd_part<W, OP>(a, b, i, all) & ((1u << W) - 1u)) << (i * W);
  return r;
}
template <int W, bool SIGNED> CUDAPORT_HD inline unsigned simd_sad(unsigned a, unsigned b) {
  unsigned r = 0;
  for (int i = 0; i < 32 / W; ++i)
    r += (unsigned)simd_part<W, SIGNED ? simd_absdiffs : simd_absdiffu>(a, b, i, 0);
  return r;
}
}  // namespace cudaport_detail
#define CUDAPORT_SIMD_UNARY(NAME, W, OP) \
  CUDAPORT_HD inline unsigned int NAME(unsigned int a) { return cudaport_detail::simd<W, cudaport_detail::OP>(a, 0u); }
#define CUDAPORT_SIMD(NAME, W, OP) \
  CUDAPORT_HD inline unsigned int NAME(unsigned int a, unsigned int b) { return cudaport_detail::simd<W, cudaport_detail::OP>(a, b); }
#define CUDAPORT_SIMD_SET(NAME, W, OP) \
  CUDAPORT_HD inline unsigned int NAME(unsigned int a, unsigned int b) { return cudaport_detail::simd<W, cudaport_detail::OP>(a, b, 1); }
CUDAPORT_SIMD_UNARY(cudaport_vabs2, 16, simd_abs)
CUDAPORT_SIMD_UNARY(cudaport_vabs4, 8, simd_abs)
CUDAPORT_SIMD_UNARY(cudaport_vabsss2, 16, simd_absss)
CUDAPORT_SIMD_UNARY(cudaport_vabsss4, 8, simd_absss)
CUDAPORT_SIMD_UNARY(cudaport_vneg2, 16, simd_neg)
CUDAPORT_SIMD_UNARY(cudaport_vneg4, 8, simd_neg)
CUDAPORT_SIMD_UNARY(cudaport_vnegss2, 16, simd_negss)
CUDAPORT_SIMD_UNARY(cudaport_vnegss4, 8, simd_negss)
CUDAPORT_SIMD(cudaport_vabsdiffs2, 16, simd_absdiffs)
CUDAPORT_SIMD(cudaport_vabsdiffs4, 8, simd_absdiffs)
CUDAPORT_SIMD(cudaport_vabsdiffu2, 16, simd_absdiffu)
CUDAPORT_SIMD(cudaport_vabsdiffu4, 8, simd_absdiffu)
CUDAPORT_SIMD(cudaport_vadd2, 16, simd_add)
CUDAPORT_SIMD(cudaport_vadd4, 8, simd_add)
CUDAPORT_SIMD(cudaport_vaddss2, 16, simd_addss)
CUDAPORT_SIMD(cudaport_vaddss4, 8, simd_addss)
CUDAPORT_SIMD(cudaport_vaddus2, 16, simd_addus)
CUDAPORT_SIMD(cudaport_vaddus4, 8, simd_addus)
CUDAPORT_SIMD(cudaport_vavgs2, 16, simd_avgs)
CUDAPORT_SIMD(cudaport_vavgs4, 8, simd_avgs)
CUDAPORT_SIMD(cudaport_vavgu2, 16, simd_avgu)
CUDAPORT_SIMD(cudaport_vavgu4, 8, simd_avgu)
CUDAPORT_SIMD(cudaport_vhaddu2, 16, simd_haddu)
CUDAPORT_SIMD(cudaport_vhaddu4, 8, simd_haddu)
CUDAPORT_SIMD(cudaport_vcmpeq2, 16, simd_eq)
CUDAPORT_SIMD(cudaport_vcmpeq4, 8, simd_eq)
CUDAPORT_SIMD(cudaport_vcmpges2, 16, simd_ges)
CUDAPORT_SIMD(cudaport_vcmpges4, 8, simd_ges)
CUDAPORT_SIMD(cudaport_vcmpgeu2, 16, simd_geu)
CUDAPORT_SIMD(cudaport_vcmpgeu4, 8, simd_geu)
CUDAPORT_SIMD(cudaport_vcmpgts2, 16, simd_gts)
CUDAPORT_SIMD(cudaport_vcmpgts4, 8, simd_gts)
CUDAPORT_SIMD(cudaport_vcmpgtu2, 16, simd_gtu)
CUDAPORT_SIMD(cudaport_vcmpgtu4, 8, simd_gtu)
CUDAPORT_SIMD(cudaport_vcmples2, 16, simd_les)
CUDAPORT_SIMD(cudaport_vcmples4, 8, simd_les)
CUDAPORT_SIMD(cudaport_vcmpleu2, 16, simd_leu)
CUDAPORT_SIMD(cudaport_vcmpleu4, 8, simd_leu)
CUDAPORT_SIMD(cudaport_vcmplts2, 16, simd_lts)
CUDAPORT_SIMD(cudaport_vcmplts4, 8, simd_lts)
CUDAPORT_SIMD(cudaport_vcmpltu2, 16, simd_ltu)
CUDAPORT_SIMD(cudaport_vcmpltu4, 8, simd_ltu)
CUDAPORT_SIMD(cudaport_vcmpne2, 16, simd_ne)
CUDAPORT_SIMD(cudaport_vcmpne4, 8, simd_ne)
CUDAPORT_SIMD_SET(cudaport_vseteq2, 16, simd_eq)
CUDAPORT_SIMD_SET(cudaport_vseteq4, 8, simd_eq)
CUDAPORT_SIMD_SET(cudaport_vsetges2, 16, simd_ges)
CUDAPORT_SIMD_SET(cudaport_vsetges4, 8, simd_ges)
CUDAPORT_SIMD_SET(cudaport_vsetgeu2, 16, simd_geu)
CUDAPORT_SIMD_SET(cudaport_vsetgeu4, 8, simd_geu)
CUDAPORT_SIMD_SET(cudaport_vsetgts2, 16, simd_gts)
CUDAPORT_SIMD_SET(cudaport_vsetgts4, 8, simd_gts)
CUDAPORT_SIMD_SET(cudaport_vsetgtu2, 16, simd_gtu)
CUDAPORT_SIMD_SET(cudaport_vsetgtu4, 8, simd_gtu)
CUDAPORT_SIMD_SET(cudaport_vsetles2, 16, simd_les)
CUDAPORT_SIMD_SET(cudaport_vsetles4, 8, simd_les)
CUDAPORT_SIMD_SET(cudaport_vsetleu2, 16, simd_leu)
CUDAPORT_SIMD_SET(cudaport_vsetleu4, 8, simd_leu)
CUDAPORT_SIMD_SET(cudaport_vsetlts2, 16, simd_lts)
CUDAPORT_SIMD_SET(cudaport_vsetlts4, 8, simd_lts)
CUDAPORT_SIMD_SET(cudaport_vsetltu2, 16, simd_ltu)
CUDAPORT_SIMD_SET(cudaport_vsetltu4, 8, simd_ltu)
CUDAPORT_SIMD_SET(cudaport_vsetne2, 16, simd_ne)
CUDAPORT_SIMD_SET(cudaport_vsetne4, 8, simd_ne)
CUDAPORT_SIMD(cudaport_vmaxs2, 16, simd_maxs)
CUDAPORT_SIMD(cudaport_vmaxs4, 8, simd_maxs)
CUDAPORT_SIMD(cudaport_vmaxu2, 16, simd_maxu)
CUDAPORT_SIMD(cudaport_vmaxu4, 8, simd_maxu)
CUDAPORT_SIMD(cudaport_vmins2, 16, simd_mins)
CUDAPORT_SIMD(cudaport_vmins4, 8, simd_mins)
CUDAPORT_SIMD(cudaport_vminu2, 16, simd_minu)
CUDAPORT_SIMD(cudaport_vminu4, 8, simd_minu)
CUDAPORT_SIMD(cudaport_vsub2, 16, simd_sub)
CUDAPORT_SIMD(cudaport_vsub4, 8, simd_sub)
CUDAPORT_SIMD(cudaport_vsubss2, 16, simd_subss)
CUDAPORT_SIMD(cudaport_vsubss4, 8, simd_subss)
CUDAPORT_SIMD(cudaport_vsubus2, 16, simd_subus)
CUDAPORT_SIMD(cudaport_vsubus4, 8, simd_subus)
CUDAPORT_HD inline unsigned int cudaport_vsads2(unsigned int a, unsigned int b) { return cudaport_detail::simd_sad<16, true>(a, b); }
CUDAPORT_HD inline unsigned int cudaport_vsads4(unsigned int a, unsigned int b) { return cudaport_detail::simd_sad<8, true>(a, b); }
CUDAPORT_HD inline unsigned int cudaport_vsadu2(unsigned int a, unsigned int b) { return cudaport_detail::simd_sad<16, false>(a, b); }
CUDAPORT_HD inline unsigned int cudaport_vsadu4(unsigned int a, unsigned int b) {
#if defined(__HIP_DEVICE_COMPILE__)
  // AMD form, every AMDGPU target: __builtin_amdgcn_sad_u8 is v_sad_u8 (GCN/CDNA/RDNA ISA
  // guides: D = |S0.u8[0] - S1.u8[0]| + ... + |S0.u8[3] - S1.u8[3]| + S2, unsigned bytes),
  // the same sum as the generic form's with S2 = 0: at most 4 * 255, so nothing wraps
  return __builtin_amdgcn_sad_u8(a, b, 0u);
#else
  return cudaport_detail::simd_sad<8, false>(a, b);
#endif
}
#undef CUDAPORT_SIMD_UNARY
#undef CUDAPORT_SIMD
#undef CUDAPORT_SIMD_SET
#endif
//@ end

//@ dot needs=prelude provides=cudaport_dp4a,cudaport_dp2a_lo,cudaport_dp2a_hi
#ifndef CUDAPORT_PORTABLE_DOT
#define CUDAPORT_PORTABLE_DOT
// __dp4a(srcA, srcB, c) (CUDA Math API, "Integer Intrinsics"): "four-way byte dot
// product-accumulate": srcA and srcB each hold four bytes (signed for int, unsigned for
// unsigned int); returns c + the sum of the four products of corresponding bytes, in
// 32-bit arithmetic that wraps around.
// __dp2a_lo(srcA, srcB, c) / __dp2a_hi: "two-way 16-bit to 8-bit dot
// product-accumulate": srcA holds two halfwords, srcB four bytes; the halfwords are
// multiplied with the two lower bytes of srcB (lo) or its two upper bytes (hi), halfword
// 0 with the lower byte of the pair, and c + the two products is returned.
namespace cudaport_detail {
template <int W> CUDAPORT_HD inline int part_s(unsigned x, int i) {
  int u = (int)((x >> (i * W)) & ((1u << W) - 1u));
  return u >= (1 << (W - 1)) ? u - (1 << W) : u;
}
template <int W> CUDAPORT_HD inline int part_u(unsigned x, int i) {
  return (int)((x >> (i * W)) & ((1u << W) - 1u));
}
}  // namespace cudaport_detail
// AMD form: on the CDNA GPUs named below, one instruction (LLVM's AMDGPU builtins
// __builtin_amdgcn_sdot4/udot4, "dot1-insts"/"dot7-insts"; v_dot4_i32_i8 / v_dot4_u32_u8,
// AMD's CDNA ISA guides: D = S0.byte[0]*S1.byte[0] + ... + S0.byte[3]*S1.byte[3] + S2, with
// the clamp operand false so the 32-bit sum wraps). That is the same sum modulo 2^32 as
// the generic form's, so the results agree bit for bit; other targets use the generic form.
#if defined(__HIP_DEVICE_COMPILE__) && (defined(__gfx908__) || defined(__gfx90a__) || \
    defined(__gfx942__) || defined(__gfx950__))
#define CUDAPORT_AMD_DOT4 1
#endif
CUDAPORT_HD inline int cudaport_dp4a(int srcA, int srcB, int c) {
#if defined(CUDAPORT_AMD_DOT4)
  return __builtin_amdgcn_sdot4(srcA, srcB, c, false);
#else
  unsigned r = (unsigned)c;  // (unsigned: the sum wraps around, as CUDA's does)
  for (int i = 0; i < 4; ++i)
    r += (unsigned)(cudaport_detail::part_s<8>((unsigned)srcA, i) * cudaport_detail::part_s<8>((unsigned)srcB, i));
  return (int)r;
#endif
}
CUDAPORT_HD inline unsigned int cudaport_dp4a(unsigned int srcA, unsigned int srcB, unsigned int c) {
#if defined(CUDAPORT_AMD_DOT4)
  return __builtin_amdgcn_udot4(srcA, srcB, c, false);
#else
  for (int i = 0; i < 4; ++i)
    c += (unsigned)(cudaport_detail::part_u<8>(srcA, i) * cudaport_detail::part_u<8>(srcB, i));
  return c;
#endif
}
CUDAPORT_HD inline int cudaport_dp2a(int srcA, int srcB, int c, int hi) {
  unsigned r = (unsigned)c;
  for (int i = 0; i < 2; ++i)
    r += (unsigned)(cudaport_detail::part_s<16>((unsigned)srcA, i) * cudaport_detail::part_s<8>((unsigned)srcB, 2 * hi + i));
  return (int)r;
}
CUDAPORT_HD inline unsigned int cudaport_dp2a(unsigned int srcA, unsigned int srcB, unsigned int c, int hi) {
  for (int i = 0; i < 2; ++i)
    c += (unsigned)cudaport_detail::part_u<16>(srcA, i) * (unsigned)cudaport_detail::part_u<8>(srcB, 2 * hi + i);
  return c;
}
CUDAPORT_HD inline int cudaport_dp2a_lo(int srcA, int srcB, int c) { return cudaport_dp2a(srcA, srcB, c, 0); }
CUDAPORT_HD inline int cudaport_dp2a_hi(int srcA, int srcB, int c) { return cudaport_dp2a(srcA, srcB, c, 1); }
CUDAPORT_HD inline unsigned int cudaport_dp2a_lo(unsigned int srcA, unsigned int srcB, unsigned int c) { return cudaport_dp2a(srcA, srcB, c, 0); }
CUDAPORT_HD inline unsigned int cudaport_dp2a_hi(unsigned int srcA, unsigned int srcB, unsigned int c) { return cudaport_dp2a(srcA, srcB, c, 1); }
#endif
//@ end

//@ pairs needs=prelude provides=
#ifndef CUDAPORT_PORTABLE_PAIRS
#define CUDAPORT_PORTABLE_PAIRS
// The 16-bit float pairs: HIP's types where a HIP compiler or HIP's headers are
// at hand; else 4-byte stand-ins holding the bits, so a host program compiled without HIP
// (cudaport's semantic tests) calls the same code.
#if defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>
typedef __half2 cudaport_half2_t;
typedef __hip_bfloat162 cudaport_bfloat162_t;
#else
struct cudaport_half2_t { unsigned short x, y; };
struct cudaport_bfloat162_t { unsigned short x, y; };
#endif
namespace cudaport_detail {
// The value of a binary16 (E = 5, M = 10) or bfloat16 (E = 8, M = 7) bit pattern as a
// float: exact, since float has both formats' ranges and more precision.
template <int E, int M> CUDAPORT_HD inline float small_to_float(unsigned h) {
  if (E == 8) return bit_cast<float>(h << 16);  // bfloat16: float's upper half
  const unsigned sign = (h >> 15) & 1u, exp = (h >> M) & ((1u << E) - 1u), man = h & ((1u << M) - 1u);
  unsigned f;
  if (exp == (1u << E) - 1u) {
    f = 0x7f800000u | (man << (23 - M)) | (man ? 0x00400000u : 0u);  // inf, or a quiet NaN
  } else if (exp != 0) {
    f = ((exp + 127u - ((1u << (E - 1)) - 1u)) << 23) | (man << (23 - M));
  } else if (man == 0) {
    f = 0;
  } else {  // subnormal: man * 2^(1 - bias - M), a normal float
    int e = 1 - ((1 << (E - 1)) - 1);
    unsigned m = man;
    while (!(m & (1u << M))) { m <<= 1; --e; }
    f = ((unsigned)(e + 127) << 23) | ((m & ((1u << M) - 1u)) << (23 - M));
  }
  return bit_cast<float>(f | (sign << 31));
}
}  // namespace cudaport_detail
#endif
//@ end

//@ pair_compare needs=pairs provides=cudaport_hmax2,cudaport_hmin2,cudaport_hmax2_nan,cudaport_hmin2_nan,cudaport_heq2_mask,cudaport_hne2_mask,cudaport_hle2_mask,cudaport_hge2_mask,cudaport_hlt2_mask,cudaport_hgt2_mask,cudaport_hequ2_mask,cudaport_hneu2_mask,cudaport_hleu2_mask,cudaport_hgeu2_mask,cudaport_hltu2_mask,cudaport_hgtu2_mask
#ifndef CUDAPORT_PORTABLE_PAIR_COMPARE
#define CUDAPORT_PORTABLE_PAIR_COMPARE
// CUDA Math API, "Half2 Comparison Functions" and "Bfloat162 Comparison Functions":
// __hmax2(a, b), __hmin2(a, b): per half, "max(a, b) defined as (a > b) ? a : b" (min:
//   (a < b) ? a : b); "if either of inputs is NaN, the other input is returned; if both
//   inputs are NaNs, then canonical NaN is returned; if values of both inputs are 0.0,
//   then +0.0 > -0.0".
// __hmax2_nan, __hmin2_nan: the same, but "NaNs pass through": a NaN input gives the
//   canonical NaN.
// __hXX2_mask(a, b): per half, "unsigned 0xFFFF if true, 0 if false", the low half's
//   result in the low 16 bits. eq, ne, le, ge, lt, gt are ordered (false where either
//   input is NaN); equ, neu, leu, geu, ltu, gtu are unordered (true where either is NaN).
// The canonical NaN is 0x7FFF for both formats (CUDA_FP16 / CUDA_BF16 "CUDART_NAN").
namespace cudaport_detail {
enum pair_op { pair_max, pair_min, pair_max_nan, pair_min_nan, pair_eq, pair_ne, pair_le,
  pair_ge, pair_lt, pair_gt, pair_equ, pair_neu, pair_leu, pair_geu, pair_ltu, pair_gtu };
template <int E, int M, int OP> CUDAPORT_HD inline unsigned pair_part(unsigned a, unsigned b) {
  const float x = small_to_float<E, M>(a), y = small_to_float<E, M>(b);
  const bool nan = x != x || y != y;
  switch (OP) {
    case pair_max: case pair_min: case pair_max_nan: case pair_min_nan: {
      const bool is_max = OP == pair_max || OP == pair_max_nan;
      if (nan) {
        if ((OP == pair_max || OP == pair_min) && !(x != x && y != y)) return x != x ? b : a;
        return 0x7fffu;
      }
      if (x == y) {  // +0.0 > -0.0; equal values otherwise are one bit pattern
        const bool a_neg = (a >> 15) & 1u;
        return is_max ? (a_neg ? b : a) : (a_neg ? a : b);
      }
      return (is_max ? x > y : x < y) ? a : b;
    }
    case pair_eq: return !nan && x == y ? 0xffffu : 0u;
    case pair_ne: return !nan && x != y ? 0xffffu : 0u;
    case pair_le: return !nan && x <= y ? 0xffffu : 0u;
    case pair_ge: return !nan && x >= y ? 0xffffu : 0u;
    case pair_lt: return !nan && x < y ? 0xffffu : 0u;
    case pair_gt: return !nan && x > y ? 0xffffu : 0u;
    case pair_equ: return nan || x == y ? 0xffffu : 0u;
    case pair_neu: return nan || x != y ? 0xffffu : 0u;
    case pair_leu: return nan || x <= y ? 0xffffu : 0u;
    case pair_geu: return nan || x >= y ? 0xffffu : 0u;
    case pair_ltu: return nan || x < y ? 0xffffu : 0u;
    default: return nan || x > y ? 0xffffu : 0u;  // pair_gtu
  }
}
template <int E, int M, int OP> CUDAPORT_HD inline unsigned pair_bits(unsigned a, unsigned b) {
  return pair_part<E, M, OP>(a & 0xffffu, b & 0xffffu) | (pair_part<E, M, OP>(a >> 16, b >> 16) << 16);
}
}  // namespace cudaport_detail
#define CUDAPORT_PAIR_VALUE(NAME, OP) \
  CUDAPORT_HD inline cudaport_half2_t NAME(cudaport_half2_t a, cudaport_half2_t b) { \
    return cudaport_detail::bit_cast<cudaport_half2_t>(cudaport_detail::pair_bits<5, 10, cudaport_detail::OP>( \
        cudaport_detail::bit_cast<unsigned>(a), cudaport_detail::bit_cast<unsigned>(b))); } \
  CUDAPORT_HD inline cudaport_bfloat162_t NAME(cudaport_bfloat162_t a, cudaport_bfloat162_t b) { \
    return cudaport_detail::bit_cast<cudaport_bfloat162_t>(cudaport_detail::pair_bits<8, 7, cudaport_detail::OP>( \
        cudaport_detail::bit_cast<unsigned>(a), cudaport_detail::bit_cast<unsigned>(b))); }
#define CUDAPORT_PAIR_MASK(NAME, OP) \
  CUDAPORT_HD inline unsigned int NAME(cudaport_half2_t a, cudaport_half2_t b) { \
    return cudaport_detail::pair_bits<5, 10, cudaport_detail::OP>( \
        cudaport_detail::bit_cast<unsigned>(a), cudaport_detail::bit_cast<unsigned>(b)); } \
  CUDAPORT_HD inline unsigned int NAME(cudaport_bfloat162_t a, cudaport_bfloat162_t b) { \
    return cudaport_detail::pair_bits<8, 7, cudaport_detail::OP>( \
        cudaport_detail::bit_cast<unsigned>(a), cudaport_detail::bit_cast<unsigned>(b)); }
CUDAPORT_PAIR_VALUE(cudaport_hmax2, pair_max)
CUDAPORT_PAIR_VALUE(cudaport_hmin2, pair_min)
CUDAPORT_PAIR_VALUE(cudaport_hmax2_nan, pair_max_nan)
CUDAPORT_PAIR_VALUE(cudaport_hmin2_nan, pair_min_nan)
CUDAPORT_PAIR_MASK(cudaport_heq2_mask, pair_eq)
CUDAPORT_PAIR_MASK(cudaport_hne2_mask, pair_ne)
CUDAPORT_PAIR_MASK(cudaport_hle2_mask, pair_le)
CUDAPORT_PAIR_MASK(cudaport_hge2_mask, pair_ge)
CUDAPORT_PAIR_MASK(cudaport_hlt2_mask, pair_lt)
CUDAPORT_PAIR_MASK(cudaport_hgt2_mask, pair_gt)
CUDAPORT_PAIR_MASK(cudaport_hequ2_mask, pair_equ)
CUDAPORT_PAIR_MASK(cudaport_hneu2_mask, pair_neu)
CUDAPORT_PAIR_MASK(cudaport_hleu2_mask, pair_leu)
CUDAPORT_PAIR_MASK(cudaport_hgeu2_mask, pair_geu)
CUDAPORT_PAIR_MASK(cudaport_hltu2_mask, pair_ltu)
CUDAPORT_PAIR_MASK(cudaport_hgtu2_mask, pair_gtu)
#undef CUDAPORT_PAIR_VALUE
#undef CUDAPORT_PAIR_MASK
#endif
//@ end

//@ rounded needs=prelude provides=cudaport_fadd_rd,cudaport_fadd_ru,cudaport_fadd_rz,cudaport_fsub_rd,cudaport_fsub_ru,cudaport_fsub_rz,cudaport_fmul_rd,cudaport_fmul_ru,cudaport_fmul_rz,cudaport_fdiv_rd,cudaport_fdiv_ru,cudaport_fdiv_rz,cudaport_frcp_rd,cudaport_frcp_ru,cudaport_frcp_rz,cudaport_fsqrt_rd,cudaport_fsqrt_ru,cudaport_fsqrt_rz,cudaport_fmaf_rd,cudaport_fmaf_ru,cudaport_fmaf_rz
#ifndef CUDAPORT_PORTABLE_ROUNDED
#define CUDAPORT_PORTABLE_ROUNDED
// CUDA Math API, "Single Precision Intrinsics": __fadd_rX(x, y) = x + y, __fsub_rX = x - y,
// __fmul_rX = x * y, __fdiv_rX = x / y, __frcp_rX(x) = 1 / x, __fsqrt_rX(x) = sqrt(x),
// __fmaf_rX(x, y, z) = x * y + z as a single operation, each computed exactly and rounded
// once in the IEEE-754 mode named: rd towards -inf, ru towards +inf, rz towards zero. The
// _rn forms are HIP's own (OCML declares the others only under a macro the compiler's
// command line must set, OCML_BASIC_ROUNDED_OPERATIONS).
// How: the double result d of the operation is within one float step of the exact value,
// so r = (float)d is too; the sign of (exact - r) is found without error (Sterbenz's
// lemma: x - r*y, x - r*r, and the error of a sum, are exact in double), and r is moved one
// step in the rounding direction when it lies on the wrong side. An exactly zero sum is
// -0 under rd unless both addends are +0 (IEEE 754, 6.3).
namespace cudaport_detail {
enum round_mode { round_down, round_up, round_zero };
// the float next to r towards +inf (up) or -inf (!up); infinities and NaN are kept by
// the callers' checks
CUDAPORT_HD inline float float_step(float r, bool up) {
  unsigned u = bit_cast<unsigned>(r);
  if ((u & 0x7fffffffu) == 0) return bit_cast<float>(up ? 1u : 0x80000001u);
  const bool neg = u >> 31;
  u = (up != neg) ? u + 1u : u - 1u;  // away from zero on the side of `up`, else towards
  return bit_cast<float>(u);
}
// the double next to r (the same for binary64)
CUDAPORT_HD inline double float_step(double r, bool up) {
  unsigned long long u = bit_cast<unsigned long long>(r);
  if ((u << 1) == 0) return bit_cast<double>(up ? 1ull : 0x8000000000000001ull);
  const bool neg = u >> 63;
  u = (up != neg) ? u + 1ull : u - 1ull;
  return bit_cast<double>(u);
}
// r (a float or double next to the exact value) rounded in mode `mode`, where `side` is
// the sign of (exact - r): > 0 when the exact value is above r.
template <class T>
CUDAPORT_HD inline T round_to(T r, double side, int mode) {
  if (r != r || side == 0.0 || side != side) return r;
  const bool above = side > 0.0;
  if (mode == round_down) return above ? r : float_step(r, false);
  if (mode == round_up) return above ? float_step(r, true) : r;
  // towards zero: keep r when it is nearer zero than the exact value
  if (r == T(0)) return r;
  return (r > T(0)) == above ? r : float_step(r, r < T(0));
}
CUDAPORT_HD inline bool finite_f(float x) { return (bit_cast<unsigned>(x) & 0x7f800000u) != 0x7f800000u; }
// x + y + (z, a third addend: 0 for a plain sum), with x + y exact in double
CUDAPORT_HD inline float sum_rounded(double p, float z, int mode, bool p_is_pos_zero, bool p_is_zero) {
  const double s = p + (double)z;
  const double zz = s - p, e = (p - (s - zz)) + ((double)z - zz);  // Knuth's two-sum: s + e is exact
  const float r = (float)s;
  if (r == 0.0f && s == 0.0 && e == 0.0) {
    if (p_is_zero && z == 0.0f) {  // zero plus zero: -0 unless both are +0 (rd: unless both -0 give -0)
      const bool z_pos = !(bit_cast<unsigned>(z) >> 31);
      if (p_is_pos_zero && z_pos) return 0.0f;
      if (!p_is_pos_zero && !z_pos) return -0.0f;
    }
    return mode == round_down ? -0.0f : 0.0f;
  }
  return round_to(r, (s - (double)r) + e, mode);
}
CUDAPORT_HD inline float add_r(float x, float y, int mode) {
  if (!finite_f(x) || !finite_f(y)) return x + y;
  return sum_rounded((double)x, y, mode, x == 0.0f && !(bit_cast<unsigned>(x) >> 31), x == 0.0f);
}
CUDAPORT_HD inline float mul_r(float x, float y, int mode) {
  if (!finite_f(x) || !finite_f(y)) return x * y;
  const double p = (double)x * (double)y;  // exact: 48 bits
  const float r = (float)p;
  return round_to(r, p - (double)r, mode);
}
CUDAPORT_HD inline float fma_r(float x, float y, float z, int mode) {
  if (!finite_f(x) || !finite_f(y)) return x * y + z;  // (an infinite product is exact)
  if (!finite_f(z)) return z + 0.0f * x * y;  // a finite product: z (NaN stays NaN)
  const double p = (double)x * (double)y;  // exact
  const bool p_zero = p == 0.0;
  const bool p_pos_zero = p_zero && ((bit_cast<unsigned>(x) ^ bit_cast<unsigned>(y)) >> 31) == 0;
  return sum_rounded(p, z, mode, p_pos_zero, p_zero);
}
CUDAPORT_HD inline float div_r(float x, float y, int mode) {
  if (!finite_f(x) || !finite_f(y) || y == 0.0f || x == 0.0f) return x / y;
  const float r = (float)((double)x / (double)y);
  if (!finite_f(r)) return round_to(r, (y > 0.0f) == (x > 0.0f) ? -1.0 : 1.0, mode);  // |exact| < inf
  // sign(x/y - r) = sign(x - r*y) * sign(y); r*y is exact, and so is the difference
  const double rem = (double)x - (double)r * (double)y;
  return round_to(r, y > 0.0f ? rem : -rem, mode);
}
CUDAPORT_HD inline float sqrt_r(float x, int mode) {
  if (!finite_f(x) || x <= 0.0f) return __builtin_sqrtf(x);
  const float r = (float)__builtin_sqrt((double)x);
  return round_to(r, (double)x - (double)r * (double)r, mode);
}
}  // namespace cudaport_detail
CUDAPORT_HD inline float cudaport_fadd_rd(float x, float y) { return cudaport_detail::add_r(x, y, cudaport_detail::round_down); }
CUDAPORT_HD inline float cudaport_fsub_rd(float x, float y) { return cudaport_detail::add_r(x, -y, cudaport_detail::round_down); }
CUDAPORT_HD inline float cudaport_fmul_rd(float x, float y) { return cudaport_detail::mul_r(x, y, cudaport_detail::round_down); }
CUDAPORT_HD inline float cudaport_fdiv_rd(float x, float y) { return cudaport_detail::div_r(x, y, cudaport_detail::round_down); }
CUDAPORT_HD inline float cudaport_frcp_rd(float x) { return cudaport_detail::div_r(1.0f, x, cudaport_detail::round_down); }
CUDAPORT_HD inline float cudaport_fsqrt_rd(float x) { return cudaport_detail::sqrt_r(x, cudaport_detail::round_down); }
CUDAPORT_HD inline float cudaport_fmaf_rd(float x, float y, float z) { return cudaport_detail::fma_r(x, y, z, cudaport_detail::round_down); }
CUDAPORT_HD inline float cudaport_fadd_ru(float x, float y) { return cudaport_detail::add_r(x, y, cudaport_detail::round_up); }
CUDAPORT_HD inline float cudaport_fsub_ru(float x, float y) { return cudaport_detail::add_r(x, -y, cudaport_detail::round_up); }
CUDAPORT_HD inline float cudaport_fmul_ru(float x, float y) { return cudaport_detail::mul_r(x, y, cudaport_detail::round_up); }
CUDAPORT_HD inline float cudaport_fdiv_ru(float x, float y) { return cudaport_detail::div_r(x, y, cudaport_detail::round_up); }
CUDAPORT_HD inline float cudaport_frcp_ru(float x) { return cudaport_detail::div_r(1.0f, x, cudaport_detail::round_up); }
CUDAPORT_HD inline float cudaport_fsqrt_ru(float x) { return cudaport_detail::sqrt_r(x, cudaport_detail::round_up); }
CUDAPORT_HD inline float cudaport_fmaf_ru(float x, float y, float z) { return cudaport_detail::fma_r(x, y, z, cudaport_detail::round_up); }
CUDAPORT_HD inline float cudaport_fadd_rz(float x, float y) { return cudaport_detail::add_r(x, y, cudaport_detail::round_zero); }
CUDAPORT_HD inline float cudaport_fsub_rz(float x, float y) { return cudaport_detail::add_r(x, -y, cudaport_detail::round_zero); }
CUDAPORT_HD inline float cudaport_fmul_rz(float x, float y) { return cudaport_detail::mul_r(x, y, cudaport_detail::round_zero); }
CUDAPORT_HD inline float cudaport_fdiv_rz(float x, float y) { return cudaport_detail::div_r(x, y, cudaport_detail::round_zero); }
CUDAPORT_HD inline float cudaport_frcp_rz(float x) { return cudaport_detail::div_r(1.0f, x, cudaport_detail::round_zero); }
CUDAPORT_HD inline float cudaport_fsqrt_rz(float x) { return cudaport_detail::sqrt_r(x, cudaport_detail::round_zero); }
CUDAPORT_HD inline float cudaport_fmaf_rz(float x, float y, float z) { return cudaport_detail::fma_r(x, y, z, cudaport_detail::round_zero); }
#endif
//@ end

//@ rounded_double needs=rounded provides=cudaport_fma_rd,cudaport_fma_ru,cudaport_fma_rz,cudaport_dadd_rd,cudaport_dsub_rd,cudaport_dmul_rd,cudaport_ddiv_rd,cudaport_drcp_rd,cudaport_dsqrt_rd,cudaport_dadd_ru,cudaport_dsub_ru,cudaport_dmul_ru,cudaport_ddiv_ru,cudaport_drcp_ru,cudaport_dsqrt_ru,cudaport_dadd_rz,cudaport_dsub_rz,cudaport_dmul_rz,cudaport_ddiv_rz,cudaport_drcp_rz,cudaport_dsqrt_rz
#ifndef CUDAPORT_PORTABLE_ROUNDED_DOUBLE
#define CUDAPORT_PORTABLE_ROUNDED_DOUBLE
// CUDA Math API, "Double Precision Intrinsics": __dadd_rX(x, y) = x + y, __dsub_rX = x - y,
// __dmul_rX = x * y, __ddiv_rX = x / y, __drcp_rX(x) = 1 / x, __dsqrt_rX(x) = sqrt(x), each
// computed exactly and rounded once in the IEEE-754 mode named (rd, ru, rz). HIP 6.4 and
// 7.2 declare only the _rn forms.
// How: r is the operation's own (round-to-nearest) result, and the sign of (exact - r) is
// found without error; r is then moved one step in the rounding direction when it lies on
// the wrong side (this needs r only within one step of the exact value). A sum: with
// |x| >= |y|, Dekker's fast two-sum error e (x + y = r + e) is exact and cannot overflow.
// A product, quotient or square root: the operands are scaled by powers of two (frexp,
// ldexp: exact) to near 1, where one fma gives x*y - r, x - r*y or x - r*r rounded once
// with no underflow, so with its exact sign. A finite operation that gives an infinity has
// |exact| > DBL_MAX: rd/rz/ru then take DBL_MAX where they go towards zero. An exactly zero
// sum is -0 under rd unless both addends are +0 (IEEE 754, 6.3).
// __fma_rX(x, y, z) = x * y + z as a single operation, rounded once in the mode named: r is
// fma's own result; x and y are scaled to near 1 (frexp) and z and r by the same power of
// two, which is exact while z is not far below or above x*y; then x*y splits exactly into
// P + p (one fma), and the sign of P + p + z - r is read from the expansion that Shewchuk's
// growing (two-sum steps, exact) makes of the four: the sign of its largest nonzero part.
// Where z's last place lies far above x*y, the sign is that of z - r, or of x*y when r is z.
namespace cudaport_detail {
CUDAPORT_HD inline bool finite_d(double x) {
  return (bit_cast<unsigned long long>(x) & 0x7ff0000000000000ull) != 0x7ff0000000000000ull;
}
CUDAPORT_HD inline double overflowed(double r, int mode) { return round_to(r, r > 0.0 ? -1.0 : 1.0, mode); }
CUDAPORT_HD inline double dadd_r(double x, double y, int mode) {
  const double r = x + y;
  if (!finite_d(x) || !finite_d(y)) return r;
  if (!finite_d(r)) return overflowed(r, mode);
  const double big = __builtin_fabs(x) >= __builtin_fabs(y) ? x : y, small = big == x ? y : x;
  const double e = small - (r - big);  // exact (fast two-sum)
  if (r == 0.0 && e == 0.0) {
    if (x == 0.0 && y == 0.0 && (bit_cast<unsigned long long>(x) >> 63) == (bit_cast<unsigned long long>(y) >> 63))
      return x;  // +0 + +0, -0 + -0
    return mode == round_down ? -0.0 : 0.0;
  }
  return round_to(r, e, mode);
}
CUDAPORT_HD inline double dmul_r(double x, double y, int mode) {
  const double r = x * y;
  if (!finite_d(x) || !finite_d(y) || x == 0.0 || y == 0.0) return r;  // exact
  if (!finite_d(r)) return overflowed(r, mode);
  int ex, ey;
  const double mx = __builtin_frexp(x, &ex), my = __builtin_frexp(y, &ey);  // x = mx 2^ex
  // x*y - r = (mx*my - rs) 2^(ex+ey), 1/4 <= |mx*my| < 1, rs = r 2^-(ex+ey) exactly
  return round_to(r, __builtin_fma(mx, my, -__builtin_ldexp(r, -(ex + ey))), mode);
}
CUDAPORT_HD inline double ddiv_r(double x, double y, int mode) {
  const double r = x / y;
  if (!finite_d(x) || !finite_d(y) || x == 0.0 || y == 0.0) return r;  // exact
  if (!finite_d(r)) return overflowed(r, mode);
  int ex, ey;
  const double mx = __builtin_frexp(x, &ex), my = __builtin_frexp(y, &ey);
  // sign(x/y - r) = sign(mx - rs*my) * sign(my), rs = r 2^(ey-ex) exactly (about mx/my)
  const double rem = __builtin_fma(-__builtin_ldexp(r, ey - ex), my, mx);
  return round_to(r, my > 0.0 ? rem : -rem, mode);
}
CUDAPORT_HD inline double dsqrt_r(double x, int mode) {
  const double r = __builtin_sqrt(x);
  if (!finite_d(x) || x <= 0.0) return r;  // exact, or NaN
  int e;
  double m = __builtin_frexp(x, &e);
  if (e & 1) {  // x = m 2^e with e even, 1/2 <= m < 2
    m *= 2.0;
    e -= 1;
  }
  // sign(sqrt(x) - r) = sign(m - rs*rs), rs = r 2^(-e/2) exactly
  const double rs = __builtin_ldexp(r, -e / 2);
  return round_to(r, __builtin_fma(-rs, rs, m), mode);
}
// s + e = a + b exactly (Knuth's two-sum: any magnitudes, no overflow)
CUDAPORT_HD inline double two_sum(double a, double b, double& e) {
  const double s = a + b, bb = s - a;
  e = (a - (s - bb)) + (b - bb);
  return s;
}
CUDAPORT_HD inline double dfma_r(double x, double y, double z, int mode) {
  const double r = __builtin_fma(x, y, z);
  if (!finite_d(x) || !finite_d(y) || !finite_d(z)) return r;  // exact, or NaN
  if (x == 0.0 || y == 0.0) return dadd_r(x * y, z, mode);  // (x*y an exact signed zero)
  if (z == 0.0) return dmul_r(x, y, mode);
  if (!finite_d(r)) return overflowed(r, mode);
  int ex, ey, ez;
  const double mx = __builtin_frexp(x, &ex), my = __builtin_frexp(y, &ey);
  (void)__builtin_frexp(z, &ez);
  const int e = ex + ey;  // x*y = mx*my 2^e, 1/4 <= |mx*my| < 1
  double side;
  if (ez > e + 110) {  // |x*y| is far below half of z's last place: r is z or next to it
    side = r != z ? z - r : ((x > 0.0) == (y > 0.0) ? 1.0 : -1.0);
  } else {
    // (|z| <= 2^110 after scaling; far below x*y it may round, even to 0, but then it
    // decides the sign only where the rest is exactly 0, and its sign is kept)
    double zs = __builtin_ldexp(z, -e);
    if (zs == 0.0) zs = z > 0.0 ? 4.9406564584124654e-324 : -4.9406564584124654e-324;
    const double rs = __builtin_ldexp(r, -e);  // (exact: r is 0 or within 2^-170 of x*y + z)
    const double P = mx * my, p = __builtin_fma(mx, my, -P);  // mx*my = P + p exactly
    double h0, h1, g0, g1, g2;
    double q = two_sum(zs, p, h0);  // grow (p, P) by zs, then by -rs
    const double h2 = two_sum(q, P, h1);
    q = two_sum(-rs, h0, g0);
    q = two_sum(q, h1, g1);
    const double g3 = two_sum(q, h2, g2);
    side = g3 != 0.0 ? g3 : g2 != 0.0 ? g2 : g1 != 0.0 ? g1 : g0;
  }
  if (side == 0.0 && r == 0.0) return mode == round_down ? -0.0 : 0.0;  // exact zero sum
  return round_to(r, side, mode);
}
}  // namespace cudaport_detail
CUDAPORT_HD inline double cudaport_fma_rd(double x, double y, double z) { return cudaport_detail::dfma_r(x, y, z, cudaport_detail::round_down); }
CUDAPORT_HD inline double cudaport_fma_ru(double x, double y, double z) { return cudaport_detail::dfma_r(x, y, z, cudaport_detail::round_up); }
CUDAPORT_HD inline double cudaport_fma_rz(double x, double y, double z) { return cudaport_detail::dfma_r(x, y, z, cudaport_detail::round_zero); }
CUDAPORT_HD inline double cudaport_dadd_rd(double x, double y) { return cudaport_detail::dadd_r(x, y, cudaport_detail::round_down); }
CUDAPORT_HD inline double cudaport_dsub_rd(double x, double y) { return cudaport_detail::dadd_r(x, -y, cudaport_detail::round_down); }
CUDAPORT_HD inline double cudaport_dmul_rd(double x, double y) { return cudaport_detail::dmul_r(x, y, cudaport_detail::round_down); }
CUDAPORT_HD inline double cudaport_ddiv_rd(double x, double y) { return cudaport_detail::ddiv_r(x, y, cudaport_detail::round_down); }
CUDAPORT_HD inline double cudaport_drcp_rd(double x) { return cudaport_detail::ddiv_r(1.0, x, cudaport_detail::round_down); }
CUDAPORT_HD inline double cudaport_dsqrt_rd(double x) { return cudaport_detail::dsqrt_r(x, cudaport_detail::round_down); }
CUDAPORT_HD inline double cudaport_dadd_ru(double x, double y) { return cudaport_detail::dadd_r(x, y, cudaport_detail::round_up); }
CUDAPORT_HD inline double cudaport_dsub_ru(double x, double y) { return cudaport_detail::dadd_r(x, -y, cudaport_detail::round_up); }
CUDAPORT_HD inline double cudaport_dmul_ru(double x, double y) { return cudaport_detail::dmul_r(x, y, cudaport_detail::round_up); }
CUDAPORT_HD inline double cudaport_ddiv_ru(double x, double y) { return cudaport_detail::ddiv_r(x, y, cudaport_detail::round_up); }
CUDAPORT_HD inline double cudaport_drcp_ru(double x) { return cudaport_detail::ddiv_r(1.0, x, cudaport_detail::round_up); }
CUDAPORT_HD inline double cudaport_dsqrt_ru(double x) { return cudaport_detail::dsqrt_r(x, cudaport_detail::round_up); }
CUDAPORT_HD inline double cudaport_dadd_rz(double x, double y) { return cudaport_detail::dadd_r(x, y, cudaport_detail::round_zero); }
CUDAPORT_HD inline double cudaport_dsub_rz(double x, double y) { return cudaport_detail::dadd_r(x, -y, cudaport_detail::round_zero); }
CUDAPORT_HD inline double cudaport_dmul_rz(double x, double y) { return cudaport_detail::dmul_r(x, y, cudaport_detail::round_zero); }
CUDAPORT_HD inline double cudaport_ddiv_rz(double x, double y) { return cudaport_detail::ddiv_r(x, y, cudaport_detail::round_zero); }
CUDAPORT_HD inline double cudaport_drcp_rz(double x) { return cudaport_detail::ddiv_r(1.0, x, cudaport_detail::round_zero); }
CUDAPORT_HD inline double cudaport_dsqrt_rz(double x) { return cudaport_detail::dsqrt_r(x, cudaport_detail::round_zero); }
#endif
//@ end

//@ ldcv needs=prelude provides=cudaport_ldcv
#ifndef CUDAPORT_PORTABLE_LDCV
#define CUDAPORT_PORTABLE_LDCV
// CUDA C++ Programming Guide, "Load Functions Using Cache Hints": __ldcv(p) returns *p,
// loaded with the cache operator .cv (PTX ISA, "Cache Operators": do not cache, fetch
// again), for the scalar, vector, __half and __nv_bfloat16 types CUDA declares it for.
// How: a volatile load of the same bytes. For a volatile global load the AMDGPU backend
// sets the bits that bypass the non-coherent caches (compiled by ROCm 7.2: `sc0 sc1` on
// gfx942, `glc` on gfx90a), so every call reads memory again, as .cv does. The bytes are
// read in the widest pieces (8, 4, 2 or 1 bytes) that the type's size allows, through a
// may_alias type (a plain one let g++ -O2 drop the stores to a local it read).
namespace cudaport_detail {
template <bool C, class A, class B> struct pick { typedef A type; };
template <class A, class B> struct pick<false, A, B> { typedef B type; };
template <class T> struct load_piece {
  typedef typename pick<sizeof(T) % 8 == 0, unsigned long long,
      typename pick<sizeof(T) % 4 == 0, unsigned,
          typename pick<sizeof(T) % 2 == 0, unsigned short, unsigned char>::type>::type>::type type;
};
}  // namespace cudaport_detail
template <class T>
CUDAPORT_HD inline T cudaport_ldcv(const T* p) {
  typedef typename cudaport_detail::load_piece<T>::type W;
  typedef W __attribute__((__may_alias__)) A;  // (reads T's bytes: no type-based aliasing)
  W pieces[sizeof(T) / sizeof(W)];
  const volatile A* from = reinterpret_cast<const volatile A*>(p);
  for (unsigned i = 0; i < sizeof(T) / sizeof(W); ++i) pieces[i] = from[i];
  T v;
  __builtin_memcpy((void*)&v, (const void*)pieces, sizeof(T));
  return v;
}
#endif
//@ end

//@ lowp_raw needs=prelude provides=
#ifndef CUDAPORT_PORTABLE_LOWP_RAW
#define CUDAPORT_PORTABLE_LOWP_RAW
// The raw 16-bit float holders the conversions below return: HIP's where HIP's headers
// are at hand, else stand-ins of the same layout (bits in `x`).
#if defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>
typedef __half_raw cudaport_half_raw_t;
typedef __half2_raw cudaport_half2_raw_t;
typedef __hip_bfloat16_raw cudaport_bfloat16_raw_t;
typedef __hip_bfloat162_raw cudaport_bfloat162_raw_t;
#else
struct cudaport_half_raw_t { unsigned short x; };
struct cudaport_half2_raw_t { unsigned short x, y; };
struct cudaport_bfloat16_raw_t { unsigned short x; };
struct cudaport_bfloat162_raw_t { unsigned short x, y; };
#endif
#endif
//@ end

//@ double2half needs=lowp_raw provides=cudaport_double2half
#ifndef CUDAPORT_PORTABLE_DOUBLE2HALF
#define CUDAPORT_PORTABLE_DOUBLE2HALF
// __double2half(x) (cuda_fp16.h): x converted to half precision in round-to-nearest-even
// mode, rounded once from the double (through float, a double just off a half tie would be
// rounded twice). HIP 6.4 and 7.2 have no double overload. A magnitude at or over 65520
// (the midpoint of 65504, the largest half, and 2^16) gives an infinity of x's sign, an
// infinity too; a zero or a value rounding to zero keeps x's sign. A NaN gives what PTX's
// cvt.rn.f16.f64 gives on the device (measured on an H200, sm_90: 0x7FF8000000000000 ->
// 0x7E00, 0xFFF0000000000001 -> 0xFE00, 0x7FF4000000000000 -> 0x7F00): a quiet NaN of x's
// sign holding the top 10 bits of x's payload (CUDA's host code gives 0x7FFF instead).
namespace cudaport_detail {
CUDAPORT_HD inline unsigned short half_bits_from_double(double x) {
  const unsigned long long bits = bit_cast<unsigned long long>(x);
  const unsigned sign = (unsigned)(bits >> 63) << 15;
  if (x != x) return (unsigned short)(sign | 0x7E00u | (unsigned)((bits >> 42) & 0x3FFu));
  const double a = sign ? -x : x;
  if (!(a < 65536.0)) return (unsigned short)(sign | 0x7C00u);
  int e = (int)((bits >> 52) & 0x7FF) - 1023;  // (a's binary exponent; a subnormal half's: -14)
  if (e < -14) e = -14;
  // a in units of the half's last place (10 - e >= -5, <= 24: exact, under 2^11)
  const double r = a * bit_cast<double>((unsigned long long)(10 - e + 1023) << 52);
  unsigned n = (unsigned)r;
  const double rest = r - (double)n;
  if (rest > 0.5 || (rest == 0.5 && (n & 1u))) ++n;
  // (the leading bit of n, 2^10, adds the 1 of the biased exponent; a carry is right)
  const unsigned code = ((unsigned)(e + 14) << 10) + n;
  return (unsigned short)(sign | (code > 0x7BFFu ? 0x7C00u : code));
}
}  // namespace cudaport_detail
#if defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__)
CUDAPORT_HD inline __half cudaport_double2half(double x) {
  cudaport_half_raw_t r;
  r.x = cudaport_detail::half_bits_from_double(x);
  return __half(r);
}
#else
CUDAPORT_HD inline cudaport_half_raw_t cudaport_double2half(double x) {
  cudaport_half_raw_t r;
  r.x = cudaport_detail::half_bits_from_double(x);
  return r;
}
#endif
#endif
//@ end

//@ int2bfloat16 needs=lowp_raw provides=cudaport_int2bfloat16_rn,cudaport_int2bfloat16_rz,cudaport_int2bfloat16_rd,cudaport_int2bfloat16_ru,cudaport_uint2bfloat16_rn,cudaport_uint2bfloat16_rz,cudaport_uint2bfloat16_rd,cudaport_uint2bfloat16_ru,cudaport_ll2bfloat16_rn,cudaport_ll2bfloat16_rz,cudaport_ll2bfloat16_rd,cudaport_ll2bfloat16_ru,cudaport_ull2bfloat16_rn,cudaport_ull2bfloat16_rz,cudaport_ull2bfloat16_rd,cudaport_ull2bfloat16_ru,cudaport_short2bfloat16_rn,cudaport_short2bfloat16_rz,cudaport_short2bfloat16_rd,cudaport_short2bfloat16_ru,cudaport_ushort2bfloat16_rn,cudaport_ushort2bfloat16_rz,cudaport_ushort2bfloat16_rd,cudaport_ushort2bfloat16_ru
#ifndef CUDAPORT_PORTABLE_INT2BFLOAT16
#define CUDAPORT_PORTABLE_INT2BFLOAT16
// __{int,uint,ll,ull,short,ushort}2bfloat16_{rn,rz,rd,ru}(x) (cuda_bf16.h): the integer x
// as a bfloat16 (8 significant bits), rounded once in the mode named: rn to nearest, ties to
// the even mantissa; rz towards zero; rd towards -inf; ru towards +inf. No integer reaches
// bfloat16's range limits; zero is +0. HIP 6.4 lacks them; ROCm 7.2's __int2bfloat16_rn
// converts through float (gfx942: v_cvt_f32_i32, then float to bfloat16), rounding twice,
// so 2^24 + 2^16 + 1 gives 2^24 there and 2^24 + 2^17 in CUDA; the other forms it lacks.
namespace cudaport_detail {
// the bits of the bfloat16 of (neg ? -m : m), m rounded to 8 significant bits in `mode`
// (0 rn, 1 rz, 2 rd, 3 ru)
CUDAPORT_HD inline unsigned short bf16_bits_from_integer(unsigned long long m, bool neg, int mode) {
  int p = 0;  // (the place of m's leading bit)
  while (p < 63 && (m >> (p + 1)) != 0) ++p;
  if (p > 7) {
    const int s = p - 7;
    const unsigned long long rest = m & ((1ull << s) - 1ull), half = 1ull << (s - 1);
    m >>= s;
    const bool up = mode == 0 ? (rest > half || (rest == half && (m & 1ull)))
                    : mode == 1 ? false : rest != 0 && ((mode == 3) != neg);
    m += up;
    // m now has at most 9 significant bits, so m * 2^s is a float exactly
    const float f = (float)m * bit_cast<float>((unsigned)(s + 127) << 23);
    return (unsigned short)((bit_cast<unsigned>(f) >> 16) | (neg ? 0x8000u : 0u));
  }
  const float f = (float)m;  // (exact)
  return (unsigned short)((bit_cast<unsigned>(f) >> 16) | (neg && m ? 0x8000u : 0u));
}
#if defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__)
typedef __hip_bfloat16 bf16_t;
CUDAPORT_HD inline __hip_bfloat16 bf16_from_bits(unsigned short bits) {
  return __hip_bfloat16(bit_cast<__hip_bfloat16_raw>(bits));
}
#else
typedef cudaport_bfloat16_raw_t bf16_t;
CUDAPORT_HD inline cudaport_bfloat16_raw_t bf16_from_bits(unsigned short bits) {
  return bit_cast<cudaport_bfloat16_raw_t>(bits);
}
#endif
CUDAPORT_HD inline bf16_t bf16_of_signed(long long x, int mode) {
  return bf16_from_bits(bf16_bits_from_integer(
      x < 0 ? 0ull - (unsigned long long)x : (unsigned long long)x, x < 0, mode));
}
CUDAPORT_HD inline bf16_t bf16_of_unsigned(unsigned long long x, int mode) {
  return bf16_from_bits(bf16_bits_from_integer(x, false, mode));
}
}  // namespace cudaport_detail
typedef cudaport_detail::bf16_t cudaport_bf16_t;
CUDAPORT_HD inline cudaport_bf16_t cudaport_int2bfloat16_rn(int x) { return cudaport_detail::bf16_of_signed(x, 0); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_int2bfloat16_rz(int x) { return cudaport_detail::bf16_of_signed(x, 1); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_int2bfloat16_rd(int x) { return cudaport_detail::bf16_of_signed(x, 2); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_int2bfloat16_ru(int x) { return cudaport_detail::bf16_of_signed(x, 3); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_uint2bfloat16_rn(unsigned int x) { return cudaport_detail::bf16_of_unsigned(x, 0); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_uint2bfloat16_rz(unsigned int x) { return cudaport_detail::bf16_of_unsigned(x, 1); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_uint2bfloat16_rd(unsigned int x) { return cudaport_detail::bf16_of_unsigned(x, 2); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_uint2bfloat16_ru(unsigned int x) { return cudaport_detail::bf16_of_unsigned(x, 3); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_ll2bfloat16_rn(long long x) { return cudaport_detail::bf16_of_signed(x, 0); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_ll2bfloat16_rz(long long x) { return cudaport_detail::bf16_of_signed(x, 1); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_ll2bfloat16_rd(long long x) { return cudaport_detail::bf16_of_signed(x, 2); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_ll2bfloat16_ru(long long x) { return cudaport_detail::bf16_of_signed(x, 3); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_ull2bfloat16_rn(unsigned long long x) { return cudaport_detail::bf16_of_unsigned(x, 0); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_ull2bfloat16_rz(unsigned long long x) { return cudaport_detail::bf16_of_unsigned(x, 1); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_ull2bfloat16_rd(unsigned long long x) { return cudaport_detail::bf16_of_unsigned(x, 2); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_ull2bfloat16_ru(unsigned long long x) { return cudaport_detail::bf16_of_unsigned(x, 3); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_short2bfloat16_rn(short x) { return cudaport_detail::bf16_of_signed(x, 0); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_short2bfloat16_rz(short x) { return cudaport_detail::bf16_of_signed(x, 1); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_short2bfloat16_rd(short x) { return cudaport_detail::bf16_of_signed(x, 2); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_short2bfloat16_ru(short x) { return cudaport_detail::bf16_of_signed(x, 3); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_ushort2bfloat16_rn(unsigned short x) { return cudaport_detail::bf16_of_unsigned(x, 0); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_ushort2bfloat16_rz(unsigned short x) { return cudaport_detail::bf16_of_unsigned(x, 1); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_ushort2bfloat16_rd(unsigned short x) { return cudaport_detail::bf16_of_unsigned(x, 2); }
CUDAPORT_HD inline cudaport_bf16_t cudaport_ushort2bfloat16_ru(unsigned short x) { return cudaport_detail::bf16_of_unsigned(x, 3); }
#endif
//@ end

//@ bfloat162int needs=int2bfloat16 provides=cudaport_bfloat162int_rn,cudaport_bfloat162int_rz,cudaport_bfloat162int_rd,cudaport_bfloat162int_ru,cudaport_bfloat162uint_rn,cudaport_bfloat162uint_rz,cudaport_bfloat162uint_rd,cudaport_bfloat162uint_ru,cudaport_bfloat162ll_rn,cudaport_bfloat162ll_rz,cudaport_bfloat162ll_rd,cudaport_bfloat162ll_ru,cudaport_bfloat162ull_rn,cudaport_bfloat162ull_rz,cudaport_bfloat162ull_rd,cudaport_bfloat162ull_ru,cudaport_bfloat162short_rn,cudaport_bfloat162short_rz,cudaport_bfloat162short_rd,cudaport_bfloat162short_ru,cudaport_bfloat162ushort_rn,cudaport_bfloat162ushort_rz,cudaport_bfloat162ushort_rd,cudaport_bfloat162ushort_ru,cudaport_bfloat162char_rz,cudaport_bfloat162uchar_rz
#ifndef CUDAPORT_PORTABLE_BFLOAT162INT
#define CUDAPORT_PORTABLE_BFLOAT162INT
// __bfloat162{int,uint,ll,ull,short,ushort}_{rn,rz,rd,ru}(h), __bfloat162char_rz(h) and
// __bfloat162uchar_rz(h) (cuda_bf16.h): h's value rounded to an integer in the mode named
// (rn to nearest, ties to even; rz towards zero; rd towards -inf; ru towards +inf), then
// saturated to the result type: a value above its largest gives the largest, below its
// smallest the smallest. NaN gives 0, and 0x8000000000000000 for the 64-bit results (the
// documentation of each in cuda_bf16.h; on the device, PTX's cvt.<mode>i.<type>.f32 of h's
// exact float value). HIP 6.4 and 7.2 have none of them.
namespace cudaport_detail {
// h's value rounded in `mode` (0 rn, 1 rz, 2 rd, 3 ru): an integral float (bfloat16 has 8
// significant bits, so a magnitude of 256 or more has no fraction)
CUDAPORT_HD inline float bf16_rounded(unsigned short bits, int mode) {
  const float f = bit_cast<float>((unsigned)bits << 16);
  if (!(f < 256.0f && f > -256.0f)) return f;
  int i = (int)f;  // (towards zero; exact)
  const float rest = f - (float)i;  // (exact)
  if (mode == 0) {
    const float a = rest < 0.0f ? -rest : rest;
    if (a > 0.5f || (a == 0.5f && (i & 1))) i += rest < 0.0f ? -1 : 1;
  } else if (mode == 2 && rest < 0.0f) {
    --i;
  } else if (mode == 3 && rest > 0.0f) {
    ++i;
  }
  return (float)i;
}
// h rounded in `mode` and saturated to a signed / an unsigned integer of `width` bits
CUDAPORT_HD inline long long bf16_to_signed(bf16_t h, int mode, int width, long long nan) {
  const unsigned short bits = bit_cast<unsigned short>(h);
  if ((bits & 0x7FFFu) > 0x7F80u) return nan;
  const float r = bf16_rounded(bits, mode);
  const float top = bit_cast<float>((unsigned)(width - 1 + 127) << 23);  // 2^(width-1)
  const long long largest = (long long)(~0ull >> (65 - width));
  if (r >= top) return largest;
  if (r < -top) return -largest - 1;
  return (long long)r;
}
CUDAPORT_HD inline unsigned long long bf16_to_unsigned(bf16_t h, int mode, int width,
                                                       unsigned long long nan) {
  const unsigned short bits = bit_cast<unsigned short>(h);
  if ((bits & 0x7FFFu) > 0x7F80u) return nan;
  const float r = bf16_rounded(bits, mode);
  if (r >= bit_cast<float>((unsigned)(width + 127) << 23)) return ~0ull >> (64 - width);
  if (r < 0.0f) return 0;
  return (unsigned long long)r;
}
}  // namespace cudaport_detail
CUDAPORT_HD inline int cudaport_bfloat162int_rn(cudaport_bf16_t h) { return (int)cudaport_detail::bf16_to_signed(h, 0, 32, 0); }
CUDAPORT_HD inline int cudaport_bfloat162int_rz(cudaport_bf16_t h) { return (int)cudaport_detail::bf16_to_signed(h, 1, 32, 0); }
CUDAPORT_HD inline int cudaport_bfloat162int_rd(cudaport_bf16_t h) { return (int)cudaport_detail::bf16_to_signed(h, 2, 32, 0); }
CUDAPORT_HD inline int cudaport_bfloat162int_ru(cudaport_bf16_t h) { return (int)cudaport_detail::bf16_to_signed(h, 3, 32, 0); }
CUDAPORT_HD inline unsigned int cudaport_bfloat162uint_rn(cudaport_bf16_t h) { return (unsigned int)cudaport_detail::bf16_to_unsigned(h, 0, 32, 0); }
CUDAPORT_HD inline unsigned int cudaport_bfloat162uint_rz(cudaport_bf16_t h) { return (unsigned int)cudaport_detail::bf16_to_unsigned(h, 1, 32, 0); }
CUDAPORT_HD inline unsigned int cudaport_bfloat162uint_rd(cudaport_bf16_t h) { return (unsigned int)cudaport_detail::bf16_to_unsigned(h, 2, 32, 0); }
CUDAPORT_HD inline unsigned int cudaport_bfloat162uint_ru(cudaport_bf16_t h) { return (unsigned int)cudaport_detail::bf16_to_unsigned(h, 3, 32, 0); }
CUDAPORT_HD inline long long cudaport_bfloat162ll_rn(cudaport_bf16_t h) { return (long long)cudaport_detail::bf16_to_signed(h, 0, 64, (long long)0x8000000000000000ull); }
CUDAPORT_HD inline long long cudaport_bfloat162ll_rz(cudaport_bf16_t h) { return (long long)cudaport_detail::bf16_to_signed(h, 1, 64, (long long)0x8000000000000000ull); }
CUDAPORT_HD inline long long cudaport_bfloat162ll_rd(cudaport_bf16_t h) { return (long long)cudaport_detail::bf16_to_signed(h, 2, 64, (long long)0x8000000000000000ull); }
CUDAPORT_HD inline long long cudaport_bfloat162ll_ru(cudaport_bf16_t h) { return (long long)cudaport_detail::bf16_to_signed(h, 3, 64, (long long)0x8000000000000000ull); }
CUDAPORT_HD inline unsigned long long cudaport_bfloat162ull_rn(cudaport_bf16_t h) { return (unsigned long long)cudaport_detail::bf16_to_unsigned(h, 0, 64, 0x8000000000000000ull); }
CUDAPORT_HD inline unsigned long long cudaport_bfloat162ull_rz(cudaport_bf16_t h) { return (unsigned long long)cudaport_detail::bf16_to_unsigned(h, 1, 64, 0x8000000000000000ull); }
CUDAPORT_HD inline unsigned long long cudaport_bfloat162ull_rd(cudaport_bf16_t h) { return (unsigned long long)cudaport_detail::bf16_to_unsigned(h, 2, 64, 0x8000000000000000ull); }
CUDAPORT_HD inline unsigned long long cudaport_bfloat162ull_ru(cudaport_bf16_t h) { return (unsigned long long)cudaport_detail::bf16_to_unsigned(h, 3, 64, 0x8000000000000000ull); }
CUDAPORT_HD inline short cudaport_bfloat162short_rn(cudaport_bf16_t h) { return (short)cudaport_detail::bf16_to_signed(h, 0, 16, 0); }
CUDAPORT_HD inline short cudaport_bfloat162short_rz(cudaport_bf16_t h) { return (short)cudaport_detail::bf16_to_signed(h, 1, 16, 0); }
CUDAPORT_HD inline short cudaport_bfloat162short_rd(cudaport_bf16_t h) { return (short)cudaport_detail::bf16_to_signed(h, 2, 16, 0); }
CUDAPORT_HD inline short cudaport_bfloat162short_ru(cudaport_bf16_t h) { return (short)cudaport_detail::bf16_to_signed(h, 3, 16, 0); }
CUDAPORT_HD inline unsigned short cudaport_bfloat162ushort_rn(cudaport_bf16_t h) { return (unsigned short)cudaport_detail::bf16_to_unsigned(h, 0, 16, 0); }
CUDAPORT_HD inline unsigned short cudaport_bfloat162ushort_rz(cudaport_bf16_t h) { return (unsigned short)cudaport_detail::bf16_to_unsigned(h, 1, 16, 0); }
CUDAPORT_HD inline unsigned short cudaport_bfloat162ushort_rd(cudaport_bf16_t h) { return (unsigned short)cudaport_detail::bf16_to_unsigned(h, 2, 16, 0); }
CUDAPORT_HD inline unsigned short cudaport_bfloat162ushort_ru(cudaport_bf16_t h) { return (unsigned short)cudaport_detail::bf16_to_unsigned(h, 3, 16, 0); }
CUDAPORT_HD inline signed char cudaport_bfloat162char_rz(cudaport_bf16_t h) { return (signed char)cudaport_detail::bf16_to_signed(h, 1, 8, 0); }
CUDAPORT_HD inline unsigned char cudaport_bfloat162uchar_rz(cudaport_bf16_t h) { return (unsigned char)cudaport_detail::bf16_to_unsigned(h, 1, 8, 0); }
#endif
//@ end

//@ round_mode needs=prelude provides=cudaport_round_mode,cudaport_round_nearest,cudaport_round_zero,cudaport_round_pos_inf,cudaport_round_min_inf
#ifndef CUDAPORT_PORTABLE_ROUND_MODE
#define CUDAPORT_PORTABLE_ROUND_MODE
// CUDA's enum cudaRoundMode (the rounding argument of the FP4 and E8M0 conversions), with
// CUDA's values in CUDA's order.
enum cudaport_round_mode { cudaport_round_nearest = 0, cudaport_round_zero = 1,
                           cudaport_round_pos_inf = 2, cudaport_round_min_inf = 3 };
#endif
//@ end

//@ e8m0 needs=lowp_raw,round_mode provides=cudaport_cvt_e8m0_to_bf16raw,cudaport_cvt_float_to_e8m0,cudaport_cvt_double_to_e8m0,cudaport_cvt_bfloat16raw_to_e8m0,cudaport_cvt_float2_to_e8m0x2,cudaport_cvt_double2_to_e8m0x2,cudaport_cvt_bfloat162raw_to_e8m0x2,cudaport_cvt_e8m0x2_to_bf162raw,cudaport_cvt_rn_bf16x2_ue8m0x2,cudaport_cvt_ue8m0x2_f32,cudaport_cvt_ue8m0x2_bf16x2,cudaport_fp8_e8m0
#ifndef CUDAPORT_PORTABLE_E8M0
#define CUDAPORT_PORTABLE_E8M0
// __nv_cvt_e8m0_to_bf16raw(x) (cuda_fp8.h, CUDA 12.8): "converts input scaling factor
// value of e8m0 kind into bfloat16; input scales are exact powers of two or a NaN value,
// also representable in the target format". An e8m0 byte x is 2^(x - 127), 0xFF is NaN:
// in bfloat16 the exponent field is x (bits 14..7), except x = 0, 2^-127, a subnormal
// (0x0040), and NaN, the canonical 0x7FFF.
CUDAPORT_HD inline cudaport_bfloat16_raw_t cudaport_cvt_e8m0_to_bf16raw(unsigned char x) {
  const unsigned short bits = x == 0xFFu ? (unsigned short)0x7FFFu
                            : x == 0u ? (unsigned short)0x0040u : (unsigned short)(x << 7);
  return cudaport_detail::bit_cast<cudaport_bfloat16_raw_t>(bits);
}
// __nv_cvt_{float,double,bfloat16raw}_to_e8m0(x, saturate, rounding) (cuda_fp8.h, CUDA
// 12.8): |x| rounded to a power of two, down (cudaRoundZero) or up (cudaRoundPosInf; CUDA
// accepts no other mode, and here every other mode rounds down); a result below 2^-127
// (zero too) becomes 2^-127 (0x00); above 2^127 it becomes 2^127 (0xFE) with
// __NV_SATFINITE and NaN (0xFF) with __NV_NOSAT; NaN becomes 0xFF. The result byte is the
// power's exponent plus 127. A double is read as CUDA reads it, through float rounded to
// odd: a finite double of 2^128 or more is the largest float, so rounding down gives 0xFE
// even with __NV_NOSAT.
// __nv_cvt_{float2,double2,bfloat162raw}_to_e8m0x2: .x into the low byte, .y into the high
// one; __nv_cvt_e8m0x2_to_bf162raw: the low byte into .x.
// __nv_fp8_e8m0: the byte in __x; built from float or double with cudaRoundPosInf and
// __NV_SATFINITE; converts to float and double exactly (NaN for 0xFF).
// Inline PTX (PTX ISA, cvt): cvt.{rz,rp}{,.satfinite}.ue8m0x2.f32 d, a, b converts a into
// the upper byte of d and b into the lower one; .ue8m0x2.bf16x2 d, a converts each half
// (the lower into the lower); cvt.rn.bf16x2.ue8m0x2 d, a is __nv_cvt_e8m0x2_to_bf162raw.
namespace cudaport_detail {
CUDAPORT_HD inline unsigned char e8m0_from_double(double x, int saturate, int rounding) {
  const unsigned long long bits = bit_cast<unsigned long long>(x) & 0x7FFFFFFFFFFFFFFFull;
  if (bits > 0x7FF0000000000000ull) return 0xFF;  // NaN
  if (bits == 0) return 0x00;
  int k = (int)(bits >> 52) - 1023;  // floor(log2 |x|) for a normal double; 1024 for infinity
  if (rounding == cudaport_round_pos_inf && (bits & 0xFFFFFFFFFFFFFull) != 0) ++k;
  if (k < -127) return 0x00;
  if (k > 127) return saturate == 1 ? 0xFE : 0xFF;
  return (unsigned char)(k + 127);
}
CUDAPORT_HD inline unsigned short e8m0x2(unsigned char hi, unsigned char lo) {
  return (unsigned short)(hi << 8 | lo);
}
}  // namespace cudaport_detail
CUDAPORT_HD inline unsigned char cudaport_cvt_float_to_e8m0(float x, int saturate, int rounding) {
  return cudaport_detail::e8m0_from_double((double)x, saturate, rounding);
}
CUDAPORT_HD inline unsigned char cudaport_cvt_double_to_e8m0(double x, int saturate, int rounding) {
  const unsigned long long bits = cudaport_detail::bit_cast<unsigned long long>(x) & 0x7FFFFFFFFFFFFFFFull;
  if (rounding != cudaport_round_pos_inf && bits >= 0x47F0000000000000ull && bits < 0x7FF0000000000000ull)
    return 0xFE;  // (2^128 <= |x| < infinity: the largest float, see above)
  return cudaport_detail::e8m0_from_double(x, saturate, rounding);
}
template <class Bfloat16Raw>
CUDAPORT_HD inline unsigned char cudaport_cvt_bfloat16raw_to_e8m0(const Bfloat16Raw& x, int saturate, int rounding) {
  const unsigned v = (unsigned)cudaport_detail::bit_cast<unsigned short>(x) << 16;
  return cudaport_cvt_float_to_e8m0(cudaport_detail::bit_cast<float>(v), saturate, rounding);
}
template <class Float2>
CUDAPORT_HD inline unsigned short cudaport_cvt_float2_to_e8m0x2(const Float2& x, int saturate, int rounding) {
  return cudaport_detail::e8m0x2(cudaport_cvt_float_to_e8m0(x.y, saturate, rounding),
                                 cudaport_cvt_float_to_e8m0(x.x, saturate, rounding));
}
template <class Double2>
CUDAPORT_HD inline unsigned short cudaport_cvt_double2_to_e8m0x2(const Double2& x, int saturate, int rounding) {
  return cudaport_detail::e8m0x2(cudaport_cvt_double_to_e8m0(x.y, saturate, rounding),
                                 cudaport_cvt_double_to_e8m0(x.x, saturate, rounding));
}
template <class Bfloat162Raw>
CUDAPORT_HD inline unsigned short cudaport_cvt_bfloat162raw_to_e8m0x2(const Bfloat162Raw& x, int saturate, int rounding) {
  const unsigned v = cudaport_detail::bit_cast<unsigned>(x);
  return cudaport_detail::e8m0x2(cudaport_cvt_bfloat16raw_to_e8m0((unsigned short)(v >> 16), saturate, rounding),
                                 cudaport_cvt_bfloat16raw_to_e8m0((unsigned short)v, saturate, rounding));
}
CUDAPORT_HD inline unsigned cudaport_cvt_rn_bf16x2_ue8m0x2(unsigned short x) {
  return (unsigned)cudaport_detail::bit_cast<unsigned short>(cudaport_cvt_e8m0_to_bf16raw((unsigned char)x))
         | (unsigned)cudaport_detail::bit_cast<unsigned short>(cudaport_cvt_e8m0_to_bf16raw((unsigned char)(x >> 8))) << 16;
}
CUDAPORT_HD inline cudaport_bfloat162_raw_t cudaport_cvt_e8m0x2_to_bf162raw(unsigned short x) {
  return cudaport_detail::bit_cast<cudaport_bfloat162_raw_t>(cudaport_cvt_rn_bf16x2_ue8m0x2(x));
}
// (the PTX pair forms: a into the upper byte; mode 1 rounds down, 2 up, as cudaRoundMode)
CUDAPORT_HD inline unsigned short cudaport_cvt_ue8m0x2_f32(float a, float b, int saturate, int rounding) {
  return cudaport_detail::e8m0x2(cudaport_cvt_float_to_e8m0(a, saturate, rounding),
                                 cudaport_cvt_float_to_e8m0(b, saturate, rounding));
}
CUDAPORT_HD inline unsigned short cudaport_cvt_ue8m0x2_bf16x2(unsigned a, int saturate, int rounding) {
  return cudaport_cvt_bfloat162raw_to_e8m0x2(a, saturate, rounding);
}
struct cudaport_fp8_e8m0 {
  unsigned char __x;
  cudaport_fp8_e8m0() = default;
  CUDAPORT_HD explicit cudaport_fp8_e8m0(float f) : __x(cudaport_cvt_float_to_e8m0(f, 1, cudaport_round_pos_inf)) {}
  CUDAPORT_HD explicit cudaport_fp8_e8m0(double f) : __x(cudaport_cvt_double_to_e8m0(f, 1, cudaport_round_pos_inf)) {}
  CUDAPORT_HD explicit operator float() const {
    const unsigned short b = cudaport_detail::bit_cast<unsigned short>(cudaport_cvt_e8m0_to_bf16raw(__x));
    return cudaport_detail::bit_cast<float>((unsigned)b << 16);
  }
  CUDAPORT_HD explicit operator double() const { return (double)(float)*this; }
};
#endif
//@ end

//@ fp4 needs=lowp_raw,round_mode provides=cudaport_fp4_storage_t,cudaport_fp4x2_storage_t,cudaport_fp4x4_storage_t,cudaport_fp4_interpretation_t,cudaport_e2m1,cudaport_cvt_float_to_fp4,cudaport_cvt_double_to_fp4,cudaport_cvt_float2_to_fp4x2,cudaport_cvt_fp4_to_halfraw,cudaport_cvt_fp4x2_to_halfraw2,cudaport_fp4_e2m1,cudaport_fp4x2_e2m1,cudaport_fp4x4_e2m1
#ifndef CUDAPORT_PORTABLE_FP4
#define CUDAPORT_PORTABLE_FP4
// FP4 E2M1 (cuda_fp4.h, CUDA 12.8): a 4-bit float, sign in bit 3, two exponent bits (bias
// 1), one mantissa bit: codes 0..7 are 0, 0.5, 1, 1.5, 2, 3, 4, 6 (0x8..0xF the same,
// negative; no infinity, no NaN). __nv_fp4x2_storage_t holds two codes, the first in the
// low nibble; __nv_fp4x4_storage_t four.
// __nv_cvt_float_to_fp4(x, __NV_E2M1, rounding) / __nv_cvt_double_to_fp4: x rounded to
//   the nearest code (cudaRoundNearest, ties to the even code) or towards zero
//   (cudaRoundZero), saturated to +-6 ("satfinite": infinities become +-6); the sign of a
//   result that rounds to zero is kept; NaN becomes 0x7 (+6).
// __nv_cvt_float2_to_fp4x2(x2, ...): x2.x in the low nibble, x2.y in the high one.
// __nv_cvt_fp4_to_halfraw(c, __NV_E2M1) / __nv_cvt_fp4x2_to_halfraw2: the code's exact
//   value as binary16 (the low nibble in .x).
// __nv_fp4_e2m1, __nv_fp4x2_e2m1, __nv_fp4x4_e2m1: the storage (member __x) built from
//   float, float2 or float4 with round to nearest (a float4 (x, y, z, w) is stored
//   x | y << 4 | z << 8 | w << 12); __nv_fp4_e2m1 converts back to float.
typedef unsigned char cudaport_fp4_storage_t;
typedef unsigned char cudaport_fp4x2_storage_t;
typedef unsigned short cudaport_fp4x4_storage_t;
enum cudaport_fp4_interpretation_t { cudaport_e2m1 = 0 };
CUDAPORT_HD inline cudaport_fp4_storage_t cudaport_cvt_double_to_fp4(double x, int interpretation = 0,
                                                                     int rounding = 0) {
  (void)interpretation;  // (E2M1 is the only one)
  if (x != x) return 0x7;
  const unsigned char sign = (cudaport_detail::bit_cast<unsigned long long>(x) >> 63) ? 0x8 : 0x0;
  const double a = sign ? -x : x;
  const double grid[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
  if (a >= 6.0) return (cudaport_fp4_storage_t)(sign | 0x7);
  int i = 0;
  while (a >= grid[i + 1]) ++i;  // grid[i] <= a < grid[i + 1]
  if (rounding != cudaport_round_zero) {
    const double mid = (grid[i] + grid[i + 1]) / 2;  // (exact: halves of small dyadics)
    if (a > mid || (a == mid && (i & 1))) ++i;
  }
  return (cudaport_fp4_storage_t)(sign | i);
}
CUDAPORT_HD inline cudaport_fp4_storage_t cudaport_cvt_float_to_fp4(float x, int interpretation = 0,
                                                                    int rounding = 0) {
  return cudaport_cvt_double_to_fp4((double)x, interpretation, rounding);
}
template <class Float2>
CUDAPORT_HD inline cudaport_fp4x2_storage_t cudaport_cvt_float2_to_fp4x2(const Float2& x, int interpretation = 0,
                                                                        int rounding = 0) {
  return (cudaport_fp4x2_storage_t)(cudaport_cvt_float_to_fp4(x.x, interpretation, rounding)
                                    | cudaport_cvt_float_to_fp4(x.y, interpretation, rounding) << 4);
}
CUDAPORT_HD inline cudaport_half_raw_t cudaport_cvt_fp4_to_halfraw(cudaport_fp4_storage_t c, int interpretation = 0) {
  (void)interpretation;
  const unsigned short value[8] = {0x0000, 0x3800, 0x3C00, 0x3E00, 0x4000, 0x4200, 0x4400, 0x4600};
  const unsigned short bits = (unsigned short)(value[c & 0x7] | ((c & 0x8) ? 0x8000 : 0));
  return cudaport_detail::bit_cast<cudaport_half_raw_t>(bits);
}
CUDAPORT_HD inline cudaport_half2_raw_t cudaport_cvt_fp4x2_to_halfraw2(cudaport_fp4x2_storage_t c, int interpretation = 0) {
  const unsigned lo = cudaport_detail::bit_cast<unsigned short>(cudaport_cvt_fp4_to_halfraw(c & 0xF, interpretation));
  const unsigned hi = cudaport_detail::bit_cast<unsigned short>(cudaport_cvt_fp4_to_halfraw(c >> 4, interpretation));
  return cudaport_detail::bit_cast<cudaport_half2_raw_t>(lo | hi << 16);
}
struct cudaport_fp4_e2m1 {
  cudaport_fp4_storage_t __x;
  cudaport_fp4_e2m1() = default;
  CUDAPORT_HD explicit cudaport_fp4_e2m1(float f) : __x(cudaport_cvt_float_to_fp4(f)) {}
  CUDAPORT_HD explicit cudaport_fp4_e2m1(double f) : __x(cudaport_cvt_double_to_fp4(f)) {}
  CUDAPORT_HD explicit operator float() const {
    const unsigned short h = cudaport_detail::bit_cast<unsigned short>(cudaport_cvt_fp4_to_halfraw(__x));
    const float mag = (float)(1u << ((h >> 10) & 0x1F)) / 32768.0f * (1.0f + (float)(h & 0x3FF) / 1024.0f);
    return (h & 0x7FFF) == 0 ? ((h & 0x8000) ? -0.0f : 0.0f) : ((h & 0x8000) ? -mag : mag);
  }
};
struct cudaport_fp4x2_e2m1 {
  cudaport_fp4x2_storage_t __x;
  cudaport_fp4x2_e2m1() = default;
  template <class Float2>
  CUDAPORT_HD explicit cudaport_fp4x2_e2m1(const Float2& f) : __x(cudaport_cvt_float2_to_fp4x2(f)) {}
};
struct cudaport_fp4x4_e2m1 {
  cudaport_fp4x4_storage_t __x;
  cudaport_fp4x4_e2m1() = default;
  template <class Float4>
  CUDAPORT_HD explicit cudaport_fp4x4_e2m1(const Float4& f)
      : __x((cudaport_fp4x4_storage_t)(cudaport_cvt_float_to_fp4(f.x) | cudaport_cvt_float_to_fp4(f.y) << 4
                                       | cudaport_cvt_float_to_fp4(f.z) << 8 | cudaport_cvt_float_to_fp4(f.w) << 12)) {}
};
#endif
//@ end

//@ fp4_ptx needs=fp4 provides=cudaport_cvt_rn_satfinite_e2m1x2_f32,cudaport_cvt_rn_f16x2_e2m1x2,cudaport_cvt_rn_bf16x2_e2m1x2
#ifndef CUDAPORT_PORTABLE_FP4_PTX
#define CUDAPORT_PORTABLE_FP4_PTX
// Inline PTX on FP4 pairs (PTX ISA, cvt), for the statements cudaport rewrites:
// cvt.rn.satfinite.e2m1x2.f32 d, a, b: a and b rounded to E2M1 as __nv_cvt_float_to_fp4
//   with cudaRoundNearest (ties to even, saturated to +-6), a in the upper nibble of the
//   byte d, b in the lower one.
// cvt.rn.f16x2.e2m1x2 d, a / cvt.rn.bf16x2.e2m1x2 d, a: the two codes of the byte a as the
//   exact binary16 / bfloat16 values, the lower nibble in the lower half of d.
CUDAPORT_HD inline unsigned char cudaport_cvt_rn_satfinite_e2m1x2_f32(float a, float b) {
  return (unsigned char)(cudaport_cvt_float_to_fp4(a) << 4 | cudaport_cvt_float_to_fp4(b));
}
CUDAPORT_HD inline unsigned cudaport_cvt_rn_f16x2_e2m1x2(unsigned char a) {
  return cudaport_detail::bit_cast<unsigned>(cudaport_cvt_fp4x2_to_halfraw2(a));
}
CUDAPORT_HD inline unsigned cudaport_cvt_rn_bf16x2_e2m1x2(unsigned char a) {
  // (bfloat16 of 0, 0.5, 1, 1.5, 2, 3, 4, 6; bit 15 the sign)
  const unsigned short value[8] = {0x0000, 0x3F00, 0x3F80, 0x3FC0, 0x4000, 0x4040, 0x4080, 0x40C0};
  const unsigned lo = value[a & 0x7] | ((a & 0x8) ? 0x8000u : 0u);
  const unsigned hi = value[(a >> 4) & 0x7] | ((a & 0x80) ? 0x8000u : 0u);
  return lo | hi << 16;
}
#endif
//@ end

//@ fp8 needs=lowp_raw provides=cudaport_cvt_double_to_fp8,cudaport_cvt_float_to_fp8,cudaport_cvt_double2_to_fp8x2,cudaport_cvt_float2_to_fp8x2,cudaport_cvt_halfraw_to_fp8,cudaport_cvt_halfraw2_to_fp8x2,cudaport_cvt_bfloat16raw_to_fp8,cudaport_cvt_bfloat16raw2_to_fp8x2,cudaport_cvt_fp8_to_halfraw,cudaport_cvt_fp8x2_to_halfraw2,cudaport_cvt_rn_satfinite_e4m3x2_f32,cudaport_cvt_rn_satfinite_e5m2x2_f32,cudaport_cvt_rn_satfinite_e4m3x2_f16x2,cudaport_cvt_rn_satfinite_e5m2x2_f16x2,cudaport_cvt_rn_satfinite_e4m3x2_bf16x2,cudaport_cvt_rn_satfinite_e5m2x2_bf16x2,cudaport_cvt_rn_f16x2_e4m3x2,cudaport_cvt_rn_f16x2_e5m2x2
#ifndef CUDAPORT_PORTABLE_FP8
#define CUDAPORT_PORTABLE_FP8
// FP8 (cuda_fp8.h): one byte, the sign in bit 7. E4M3: 4 exponent bits (bias 7), 3
// mantissa bits, no infinity; S.1111.111 is NaN, the largest finite value is 448 (0x7E).
// E5M2: 5 exponent bits (bias 15), 2 mantissa bits, infinities (0x7C) and NaNs as in IEEE
// 754; the largest finite value is 57344 (0x7B). An E5M2 byte is the upper byte of the
// binary16 of the same value.
// __nv_cvt_{double,float,halfraw,bfloat16raw}_to_fp8(x, saturate, interpretation): x
//   rounded to the nearest FP8 value, ties to the even mantissa, as if the exponent were
//   unbounded above. A result above the largest finite value (an infinity too) becomes,
//   with __NV_SATFINITE, the largest finite value of x's sign; with __NV_NOSAT, NaN (E4M3)
//   or infinity (E5M2) of x's sign. A zero result keeps x's sign. NaN stays NaN: from
//   float, half or bfloat16 the byte 0x7F; from double x's sign with 0x7F (E4M3) or 0x7E
//   and the two upper bits of x's mantissa (E5M2).
// __nv_cvt_{double2,float2,halfraw2,bfloat16raw2}_to_fp8x2: .x into the low byte, .y into
//   the high one.
// __nv_cvt_fp8_to_halfraw(c, interpretation), __nv_cvt_fp8x2_to_halfraw2: the exact value as
//   binary16 (the low byte into .x); NaN becomes 0x7FFF.
// Inline PTX (PTX ISA, cvt): cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 d, a, b converts a into
//   the upper byte of d and b into the lower one, as __NV_SATFINITE from float;
//   cvt.rn.satfinite.{e4m3x2,e5m2x2}.{f16x2,bf16x2} d, a and cvt.rn.f16x2.{e4m3x2,e5m2x2} d, a
//   convert each half of a, the lower into the lower.
// The saturate and interpretation arguments take CUDA's values, which HIP's enumerators
// share: __NV_NOSAT/__HIP_NOSAT 0, __NV_SATFINITE/__HIP_SATFINITE 1, E4M3 0, E5M2 1.
// (HIP's __hip_cvt_float_to_fp8 & co. are not used: ROCm 7.2's turn an infinity into NaN
// (E4M3) or infinity (E5M2) under __HIP_SATFINITE, keep a NaN's sign, make values just
// over the largest finite NaN or infinity under __HIP_NOSAT, and assert on gfx942, whose
// FP8 is the FNUZ kind, when asked for E4M3 or E5M2.)
namespace cudaport_detail {
CUDAPORT_HD inline double pow2(int k) {  // 2^k for -1022 <= k <= 1023
  return bit_cast<double>((unsigned long long)(k + 1023) << 52);
}
CUDAPORT_HD inline unsigned char fp8_from_double(double x, int saturate, int interpretation) {
  const unsigned long long bits = bit_cast<unsigned long long>(x);
  const unsigned sign = (unsigned)(bits >> 63) << 7;
  const bool e5m2 = interpretation == 1;
  const int m = e5m2 ? 2 : 3, emin = e5m2 ? -14 : -6, emax = e5m2 ? 15 : 8;
  const unsigned largest = e5m2 ? 0x7Bu : 0x7Eu;
  if (x != x) return (unsigned char)(sign | (e5m2 ? 0x7Eu | (unsigned)((bits >> 50) & 0x3u) : 0x7Fu));
  const double a = sign ? -x : x;
  unsigned code = largest + 1u;  // (a >= 2^(emax+1): over the largest finite value)
  if (a < pow2(emax + 1)) {
    int e = (int)((bits >> 52) & 0x7FF) - 1023;  // (a's exponent; the least is emin)
    if (e < emin) e = emin;
    const double r = a * pow2(m - e);  // (exact: 0 <= r < 2^(m+1), in units of the last place)
    unsigned n = (unsigned)r;
    const double rest = r - (double)n;
    if (rest > 0.5 || (rest == 0.5 && (n & 1u))) ++n;
    code = ((unsigned)(e - emin) << m) + n;  // (a carry into the exponent field is right)
  }
  if (code > largest) code = saturate == 1 ? largest : e5m2 ? 0x7Cu : 0x7Fu;
  return (unsigned char)(sign | code);
}
CUDAPORT_HD inline unsigned char fp8_from_float(float x, int saturate, int interpretation) {
  return x != x ? (unsigned char)0x7F : fp8_from_double((double)x, saturate, interpretation);
}
CUDAPORT_HD inline unsigned char fp8_from_half_bits(unsigned short h, int saturate, int interpretation) {
  const int e = (h >> 10) & 0x1F;
  const unsigned f = h & 0x3FFu;
  if (e == 0x1F && f != 0) return 0x7F;
  const double v = e == 0x1F ? bit_cast<double>(0x7FF0000000000000ull)
                 : e == 0 ? (double)f * pow2(-24) : (double)(f + 1024u) * pow2(e - 25);
  return fp8_from_double((h & 0x8000u) ? -v : v, saturate, interpretation);
}
CUDAPORT_HD inline unsigned char fp8_from_bf16_bits(unsigned short b, int saturate, int interpretation) {
  return fp8_from_float(bit_cast<float>((unsigned)b << 16), saturate, interpretation);
}
// A binary16 (bf16 false) or bfloat16 (bf16 true), and a pair of them (the low half to the
// low byte).
CUDAPORT_HD inline unsigned char fp8_from_16(unsigned short v, bool bf16, int saturate, int interpretation) {
  return bf16 ? fp8_from_bf16_bits(v, saturate, interpretation) : fp8_from_half_bits(v, saturate, interpretation);
}
CUDAPORT_HD inline unsigned short fp8x2_from_16x2(unsigned v, bool bf16, int saturate, int interpretation) {
  return (unsigned short)(fp8_from_16((unsigned short)(v >> 16), bf16, saturate, interpretation) << 8
                          | fp8_from_16((unsigned short)v, bf16, saturate, interpretation));
}
CUDAPORT_HD inline unsigned short fp8_to_half_bits(unsigned char c, int interpretation) {
  if (interpretation == 1) return (c & 0x7Fu) > 0x7Cu ? (unsigned short)0x7FFF : (unsigned short)(c << 8);
  if ((c & 0x7Fu) == 0x7Fu) return 0x7FFF;
  const unsigned sign = (unsigned)(c & 0x80u) << 8;
  int e = (c >> 3) & 0xF;
  unsigned f = c & 0x7u;
  if (e == 0) {  // f * 2^-9: normalised, e may go below 1 (binary16 holds it as a normal)
    if (f == 0) return (unsigned short)sign;
    e = 1;
    while (!(f & 0x8u)) { f <<= 1; --e; }
    f &= 0x7u;
  }
  return (unsigned short)(sign | (unsigned)(e + 8) << 10 | f << 7);
}
}  // namespace cudaport_detail
CUDAPORT_HD inline unsigned char cudaport_cvt_double_to_fp8(double x, int saturate, int interpretation) {
  return cudaport_detail::fp8_from_double(x, saturate, interpretation);
}
CUDAPORT_HD inline unsigned char cudaport_cvt_float_to_fp8(float x, int saturate, int interpretation) {
  return cudaport_detail::fp8_from_float(x, saturate, interpretation);
}
template <class Double2>
CUDAPORT_HD inline unsigned short cudaport_cvt_double2_to_fp8x2(const Double2& x, int saturate, int interpretation) {
  return (unsigned short)(cudaport_detail::fp8_from_double(x.y, saturate, interpretation) << 8
                          | cudaport_detail::fp8_from_double(x.x, saturate, interpretation));
}
template <class Float2>
CUDAPORT_HD inline unsigned short cudaport_cvt_float2_to_fp8x2(const Float2& x, int saturate, int interpretation) {
  return (unsigned short)(cudaport_detail::fp8_from_float(x.y, saturate, interpretation) << 8
                          | cudaport_detail::fp8_from_float(x.x, saturate, interpretation));
}
// (x: a __half_raw or __nv_bfloat16_raw, or anything of its 16 bits; x2: a pair of them, .x
// in the low half)
template <class HalfRaw>
CUDAPORT_HD inline unsigned char cudaport_cvt_halfraw_to_fp8(const HalfRaw& x, int saturate, int interpretation) {
  return cudaport_detail::fp8_from_16(cudaport_detail::bit_cast<unsigned short>(x), false, saturate, interpretation);
}
template <class Half2Raw>
CUDAPORT_HD inline unsigned short cudaport_cvt_halfraw2_to_fp8x2(const Half2Raw& x, int saturate, int interpretation) {
  return cudaport_detail::fp8x2_from_16x2(cudaport_detail::bit_cast<unsigned>(x), false, saturate, interpretation);
}
template <class Bfloat16Raw>
CUDAPORT_HD inline unsigned char cudaport_cvt_bfloat16raw_to_fp8(const Bfloat16Raw& x, int saturate, int interpretation) {
  return cudaport_detail::fp8_from_16(cudaport_detail::bit_cast<unsigned short>(x), true, saturate, interpretation);
}
template <class Bfloat162Raw>
CUDAPORT_HD inline unsigned short cudaport_cvt_bfloat16raw2_to_fp8x2(const Bfloat162Raw& x, int saturate, int interpretation) {
  return cudaport_detail::fp8x2_from_16x2(cudaport_detail::bit_cast<unsigned>(x), true, saturate, interpretation);
}
CUDAPORT_HD inline cudaport_half_raw_t cudaport_cvt_fp8_to_halfraw(unsigned char x, int interpretation) {
  return cudaport_detail::bit_cast<cudaport_half_raw_t>(cudaport_detail::fp8_to_half_bits(x, interpretation));
}
CUDAPORT_HD inline cudaport_half2_raw_t cudaport_cvt_fp8x2_to_halfraw2(unsigned short x, int interpretation) {
  const unsigned lo = cudaport_detail::fp8_to_half_bits((unsigned char)x, interpretation);
  const unsigned hi = cudaport_detail::fp8_to_half_bits((unsigned char)(x >> 8), interpretation);
  return cudaport_detail::bit_cast<cudaport_half2_raw_t>(lo | hi << 16);
}
CUDAPORT_HD inline unsigned short cudaport_cvt_rn_satfinite_e4m3x2_f32(float a, float b) {
  return (unsigned short)(cudaport_detail::fp8_from_float(a, 1, 0) << 8 | cudaport_detail::fp8_from_float(b, 1, 0));
}
CUDAPORT_HD inline unsigned short cudaport_cvt_rn_satfinite_e5m2x2_f32(float a, float b) {
  return (unsigned short)(cudaport_detail::fp8_from_float(a, 1, 1) << 8 | cudaport_detail::fp8_from_float(b, 1, 1));
}
CUDAPORT_HD inline unsigned short cudaport_cvt_rn_satfinite_e4m3x2_f16x2(unsigned a) {
  return cudaport_cvt_halfraw2_to_fp8x2(a, 1, 0);
}
CUDAPORT_HD inline unsigned short cudaport_cvt_rn_satfinite_e5m2x2_f16x2(unsigned a) {
  return cudaport_cvt_halfraw2_to_fp8x2(a, 1, 1);
}
CUDAPORT_HD inline unsigned short cudaport_cvt_rn_satfinite_e4m3x2_bf16x2(unsigned a) {
  return cudaport_detail::fp8x2_from_16x2(a, true, 1, 0);
}
CUDAPORT_HD inline unsigned short cudaport_cvt_rn_satfinite_e5m2x2_bf16x2(unsigned a) {
  return cudaport_detail::fp8x2_from_16x2(a, true, 1, 1);
}
CUDAPORT_HD inline unsigned cudaport_cvt_rn_f16x2_e4m3x2(unsigned short a) {
  return cudaport_detail::bit_cast<unsigned>(cudaport_cvt_fp8x2_to_halfraw2(a, 0));
}
CUDAPORT_HD inline unsigned cudaport_cvt_rn_f16x2_e5m2x2(unsigned short a) {
  return cudaport_detail::bit_cast<unsigned>(cudaport_cvt_fp8x2_to_halfraw2(a, 1));
}
#endif
//@ end

//@ f32x2 needs=prelude provides=cudaport_fma_rn_f32x2,cudaport_fma_rn_ftz_f32x2,cudaport_add_rn_f32x2,cudaport_add_rn_ftz_f32x2,cudaport_sub_rn_f32x2,cudaport_sub_rn_ftz_f32x2,cudaport_mul_rn_f32x2,cudaport_mul_rn_ftz_f32x2
#ifndef CUDAPORT_PORTABLE_F32X2
#define CUDAPORT_PORTABLE_F32X2
// Inline PTX on pairs of floats (PTX ISA, sm_100: add, sub, mul, fma with .f32x2): a 64-bit
// register holds two binary32 values, the first in the low 32 bits; each is computed on its
// own and rounded to nearest even (.rn; fma: a*b + c rounded once). .ftz reads a subnormal
// input as a zero of the same sign and flushes a subnormal result the same way. A NaN
// result is the canonical NaN 0x7FFFFFFF, as NVIDIA GPUs give it.
namespace cudaport_detail {
enum f32x2_op { f32x2_fma, f32x2_add, f32x2_sub, f32x2_mul };
CUDAPORT_HD inline float flush_subnormal(float x) {
  const unsigned u = bit_cast<unsigned>(x);
  return (u & 0x7F800000u) == 0 ? bit_cast<float>(u & 0x80000000u) : x;
}
CUDAPORT_HD inline unsigned long long f32x2(int op, bool ftz, unsigned long long a, unsigned long long b,
                                            unsigned long long c) {
  unsigned long long d = 0;
  for (int k = 0; k < 64; k += 32) {
    float x = bit_cast<float>((unsigned)(a >> k)), y = bit_cast<float>((unsigned)(b >> k));
    float z = bit_cast<float>((unsigned)(c >> k));
    if (ftz) {
      x = flush_subnormal(x);
      y = flush_subnormal(y);
      z = flush_subnormal(z);
    }
    float r = op == f32x2_fma ? __builtin_fmaf(x, y, z) : op == f32x2_add ? x + y : op == f32x2_sub ? x - y : x * y;
    if (ftz) r = flush_subnormal(r);
    const unsigned bits = r != r ? 0x7FFFFFFFu : bit_cast<unsigned>(r);
    d |= (unsigned long long)bits << k;
  }
  return d;
}
}  // namespace cudaport_detail
CUDAPORT_HD inline unsigned long long cudaport_fma_rn_f32x2(unsigned long long a, unsigned long long b, unsigned long long c) { return cudaport_detail::f32x2(cudaport_detail::f32x2_fma, false, a, b, c); }
CUDAPORT_HD inline unsigned long long cudaport_fma_rn_ftz_f32x2(unsigned long long a, unsigned long long b, unsigned long long c) { return cudaport_detail::f32x2(cudaport_detail::f32x2_fma, true, a, b, c); }
CUDAPORT_HD inline unsigned long long cudaport_add_rn_f32x2(unsigned long long a, unsigned long long b) { return cudaport_detail::f32x2(cudaport_detail::f32x2_add, false, a, b, 0); }
CUDAPORT_HD inline unsigned long long cudaport_add_rn_ftz_f32x2(unsigned long long a, unsigned long long b) { return cudaport_detail::f32x2(cudaport_detail::f32x2_add, true, a, b, 0); }
CUDAPORT_HD inline unsigned long long cudaport_sub_rn_f32x2(unsigned long long a, unsigned long long b) { return cudaport_detail::f32x2(cudaport_detail::f32x2_sub, false, a, b, 0); }
CUDAPORT_HD inline unsigned long long cudaport_sub_rn_ftz_f32x2(unsigned long long a, unsigned long long b) { return cudaport_detail::f32x2(cudaport_detail::f32x2_sub, true, a, b, 0); }
CUDAPORT_HD inline unsigned long long cudaport_mul_rn_f32x2(unsigned long long a, unsigned long long b) { return cudaport_detail::f32x2(cudaport_detail::f32x2_mul, false, a, b, 0); }
CUDAPORT_HD inline unsigned long long cudaport_mul_rn_ftz_f32x2(unsigned long long a, unsigned long long b) { return cudaport_detail::f32x2(cudaport_detail::f32x2_mul, true, a, b, 0); }
#endif
//@ end

//@ reduce_sync needs=prelude provides=cudaport_reduce_add_sync,cudaport_reduce_min_sync,cudaport_reduce_max_sync,cudaport_reduce_and_sync,cudaport_reduce_or_sync,cudaport_reduce_xor_sync
#ifndef CUDAPORT_PORTABLE_REDUCE_SYNC
#define CUDAPORT_PORTABLE_REDUCE_SYNC
// __reduce_add_sync(mask, value), __reduce_min_sync, __reduce_max_sync (unsigned and int),
// __reduce_and_sync, __reduce_or_sync, __reduce_xor_sync (unsigned) (CUDA C++ Programming
// Guide, "Warp Reduce Functions"): every thread named in mask takes part and receives the
// reduction (a wrapping sum, minimum, maximum, or bitwise and/or/xor) of `value` over
// those threads. For HIP before 7.2, which lacks them, and for the bitwise three in 7.2 too
// (whose own combine lanes with logical operators off the whole-wave path): a read of each
// named lane's value with __shfl, in lane order (the operations are associative and
// commutative, so the order does not change the result). A 32-bit mask of all ones (a whole CUDA warp) names
// every active lane, as cudaport's rename does for HIP 7.2 (`__activemask()`), so a
// wavefront of 64 reduces as one. Device code only: there is no warp on the host.
#if defined(__HIPCC__)
namespace cudaport_detail {
struct red_add { template <class T> __device__ T operator()(T a, T b) const { return (T)((unsigned)a + (unsigned)b); } };
struct red_min { template <class T> __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
struct red_max { template <class T> __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
struct red_and { __device__ unsigned operator()(unsigned a, unsigned b) const { return a & b; } };
struct red_or { __device__ unsigned operator()(unsigned a, unsigned b) const { return a | b; } };
struct red_xor { __device__ unsigned operator()(unsigned a, unsigned b) const { return a ^ b; } };
template <class M> __device__ inline unsigned long long lane_mask(M mask) {
  return sizeof(M) == 4 && (unsigned)mask == 0xffffffffu ? (unsigned long long)__ballot(1)
                                                          : (unsigned long long)mask;
}
template <class T, class Op>
__device__ inline T reduce_lanes(unsigned long long mask, T value, Op op) {
  T acc = value;
  bool first = true;
  for (int lane = 0; lane < warpSize; ++lane) {
    if (!((mask >> lane) & 1ull)) continue;  // (the mask is the same in every named lane)
    const T v = __shfl(value, lane);
    acc = first ? v : op(acc, v);
    first = false;
  }
  return acc;
}
}  // namespace cudaport_detail
template <class M> __device__ inline unsigned cudaport_reduce_add_sync(M mask, unsigned value) { return cudaport_detail::reduce_lanes(cudaport_detail::lane_mask(mask), value, cudaport_detail::red_add()); }
template <class M> __device__ inline int cudaport_reduce_add_sync(M mask, int value) { return cudaport_detail::reduce_lanes(cudaport_detail::lane_mask(mask), value, cudaport_detail::red_add()); }
template <class M> __device__ inline unsigned cudaport_reduce_min_sync(M mask, unsigned value) { return cudaport_detail::reduce_lanes(cudaport_detail::lane_mask(mask), value, cudaport_detail::red_min()); }
template <class M> __device__ inline int cudaport_reduce_min_sync(M mask, int value) { return cudaport_detail::reduce_lanes(cudaport_detail::lane_mask(mask), value, cudaport_detail::red_min()); }
template <class M> __device__ inline unsigned cudaport_reduce_max_sync(M mask, unsigned value) { return cudaport_detail::reduce_lanes(cudaport_detail::lane_mask(mask), value, cudaport_detail::red_max()); }
template <class M> __device__ inline int cudaport_reduce_max_sync(M mask, int value) { return cudaport_detail::reduce_lanes(cudaport_detail::lane_mask(mask), value, cudaport_detail::red_max()); }
template <class M> __device__ inline unsigned cudaport_reduce_and_sync(M mask, unsigned value) { return cudaport_detail::reduce_lanes(cudaport_detail::lane_mask(mask), value, cudaport_detail::red_and()); }
template <class M> __device__ inline unsigned cudaport_reduce_or_sync(M mask, unsigned value) { return cudaport_detail::reduce_lanes(cudaport_detail::lane_mask(mask), value, cudaport_detail::red_or()); }
template <class M> __device__ inline unsigned cudaport_reduce_xor_sync(M mask, unsigned value) { return cudaport_detail::reduce_lanes(cudaport_detail::lane_mask(mask), value, cudaport_detail::red_xor()); }
#endif
#endif
//@ end

//@ pipeline needs=prelude provides=cudaport_pipeline_memcpy_async,cudaport_pipeline_commit,cudaport_pipeline_wait_prior
#ifndef CUDAPORT_PORTABLE_PIPELINE
#define CUDAPORT_PORTABLE_PIPELINE
// CUDA's pipeline primitives (<cuda_pipeline_primitives.h>; CUDA C++ Programming Guide,
// "Pipeline Primitives Interface"):
//   __pipeline_memcpy_async(dst, src, size_and_align, zfill = 0): copies size_and_align
//     bytes (4, 8 or 16; both pointers aligned to it) from global memory at src to shared
//     memory at dst, asynchronously; the last zfill of those bytes are written as zeros
//     (only size_and_align - zfill bytes are read).
//   __pipeline_commit(): commits the copies issued so far as one batch.
//   __pipeline_wait_prior(N): waits until all but the N most recent batches are complete.
// Here each copy is made at once, so every batch is complete when it is committed and
// waiting has nothing left to wait for: the same bytes arrive, but the copy no longer
// overlaps the work issued after it (cudaport reports that, CP231).
CUDAPORT_HD inline void cudaport_pipeline_memcpy_async(void* dst, const void* src,
                                                       __SIZE_TYPE__ size_and_align,
                                                       __SIZE_TYPE__ zfill = 0) {
  unsigned char* d = (unsigned char*)dst;
  const unsigned char* s = (const unsigned char*)src;
  const __SIZE_TYPE__ read = zfill < size_and_align ? size_and_align - zfill : 0;
  for (__SIZE_TYPE__ i = 0; i < size_and_align; ++i) d[i] = i < read ? s[i] : 0;
}
CUDAPORT_HD inline void cudaport_pipeline_commit() {}
CUDAPORT_HD inline void cudaport_pipeline_wait_prior(__SIZE_TYPE__) {}
#endif
//@ end

//@ programmatic_launch needs=prelude provides=cudaport_grid_dependency_synchronize,cudaport_trigger_programmatic_launch_completion
#ifndef CUDAPORT_PORTABLE_PROGRAMMATIC_LAUNCH
#define CUDAPORT_PORTABLE_PROGRAMMATIC_LAUNCH
// CUDA Runtime API, "Programmatic Dependent Launch": cudaGridDependencySynchronize() blocks
// until the grids this one depends on have completed (or triggered) and their memory is
// visible; cudaTriggerProgrammaticLaunchCompletion() lets a dependent grid start early.
// HIP has no programmatic launch: a kernel starts after the kernel before it on its
// stream has completed, so the wait is already satisfied and there is nothing to trigger.
CUDAPORT_HD inline void cudaport_grid_dependency_synchronize() {}
CUDAPORT_HD inline void cudaport_trigger_programmatic_launch_completion() {}
#endif
//@ end

//@ launch_attributes provides=
#ifndef CUDAPORT_PORTABLE_LAUNCH_ATTRIBUTES
#define CUDAPORT_PORTABLE_LAUNCH_ATTRIBUTES
// CUDA Runtime API, cudaLaunchAttributeID (numbers of driver_types.h, which HIP's
// hipLaunchAttributeID shares): an attribute of id 0 (cudaLaunchAttributeIgnore) is ignored;
// id 6 (cudaLaunchAttributeProgrammaticStreamSerialization) lets the kernel start before the
// kernel before it on the stream has completed, its grid-dependency wait still ordering
// what it reads (programmatic dependent launch), so without it the kernel computes the same
// after waiting; id 2 (cudaLaunchAttributeCooperative) with value 0 asks for an ordinary
// launch. keep_launch_attributes copies the other attributes of `in[0..n)` to `out` (room
// for `cap`) in their order and returns how many; cap + 1 when they do not fit.
namespace cudaport_detail {
template <class Attribute>
inline unsigned keep_launch_attributes(const Attribute* in, unsigned n, Attribute* out,
                                       unsigned cap) {
  unsigned kept = 0;
  for (unsigned i = 0; i < n; ++i) {
    const int id = static_cast<int>(in[i].id);
    if (id == 0 || id == 6 || (id == 2 && in[i].val.cooperative == 0)) continue;
    if (kept == cap) return cap + 1;
    out[kept++] = in[i];
  }
  return kept;
}
}  // namespace cudaport_detail
#endif
//@ end

//@ launch_ex needs=launch_attributes provides=cudaport_launch_kernel_ex,cudaport_launch_kernel_ex_c,cudaport_launch_kernel_ex_c_ptsz,cudaport_launch_attribute_programmatic_stream_serialization
#ifndef CUDAPORT_PORTABLE_LAUNCH_EX
#if defined(HIP_INCLUDE_HIP_HIP_RUNTIME_API_H) && defined(__cplusplus)
#define CUDAPORT_PORTABLE_LAUNCH_EX
// cudaLaunchKernelExC(config, func, args) / cudaLaunchKernelEx(config, kernel, args...)
// (CUDA Runtime API, "Execution Control"): launch with config's grid, block, dynamic shared
// memory and stream, honouring its attributes. HIP has no programmatic dependent launch and
// no attribute ids 0 and 6, and ROCm 7.2's hipLaunchKernelExC launches only with numAttrs 0
// or a cooperative attribute of non-zero value (any other attribute: an error, no launch),
// so these launch with the attributes keep_launch_attributes keeps: the same kernel on the
// same stream, started after the kernel before it has completed.
static constexpr hipLaunchAttributeID cudaport_launch_attribute_programmatic_stream_serialization =
    static_cast<hipLaunchAttributeID>(6);
static inline hipError_t cudaport_launch_kernel_ex_c(const hipLaunchConfig_t* config,
                                                     const void* func, void** args) {
  if (config == nullptr || config->attrs == nullptr || config->numAttrs == 0)
    return hipLaunchKernelExC(config, func, args);
  hipLaunchAttribute kept[16];
  const unsigned n = cudaport_detail::keep_launch_attributes(config->attrs, config->numAttrs,
                                                              kept, 16);
  if (n > 16) return hipLaunchKernelExC(config, func, args);  // (HIP judges them all)
  hipLaunchConfig_t c = *config;
  c.attrs = n != 0 ? kept : nullptr;
  c.numAttrs = n;
  return hipLaunchKernelExC(&c, func, args);
}
// cudaLaunchKernelExC_ptsz: the form cuda_runtime_api.h calls under --default-stream
// per-thread, where stream 0 (the legacy default stream) stands for the calling thread's
// default stream; HIP names that stream hipStreamPerThread.
static inline hipError_t cudaport_launch_kernel_ex_c_ptsz(const hipLaunchConfig_t* config,
                                                          const void* func, void** args) {
  if (config == nullptr || config->stream != nullptr)
    return cudaport_launch_kernel_ex_c(config, func, args);
  hipLaunchConfig_t c = *config;
  c.stream = hipStreamPerThread;
  return cudaport_launch_kernel_ex_c(&c, func, args);
}
template <typename... KernelArgs, typename... Args>
static inline hipError_t cudaport_launch_kernel_ex(const hipLaunchConfig_t* config,
                                                   void (*kernel)(KernelArgs...),
                                                   Args&&... args) {
  return [&](KernelArgs... converted) {
    void* pointers[sizeof...(KernelArgs) + 1] = {&converted...};
    return cudaport_launch_kernel_ex_c(config, reinterpret_cast<const void*>(kernel),
                                       pointers);
  }(static_cast<Args&&>(args)...);
}
#endif
#endif
//@ end

//@ prefetch_batch provides=cudaport_mem_prefetch_batch_async
#ifndef CUDAPORT_PORTABLE_PREFETCH_BATCH
#if defined(HIP_INCLUDE_HIP_HIP_RUNTIME_API_H) && defined(__cplusplus)
#define CUDAPORT_PORTABLE_PREFETCH_BATCH
// cudaMemPrefetchBatchAsync(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs,
// numPrefetchLocs, flags, stream) (CUDA Runtime API, CUDA 13): the prefetches
// cudaMemPrefetchAsync(dptrs[i], sizes[i], prefetchLocs[k], 0, stream) for i from 0 to
// count - 1, location k applying from prefetchLocIdxs[k] up to prefetchLocIdxs[k + 1] - 1
// (the last up to count - 1), in stream order as a whole, in no order within the batch.
// prefetchLocIdxs[0] must be 0, the indices increasing and below count, numPrefetchLocs at
// most count, flags 0: otherwise an invalid-value error. Here, one hipMemPrefetchAsync_v2
// per range, in array order; the first error ends the batch and is returned.
static inline hipError_t cudaport_mem_prefetch_batch_async(
    void** dptrs, size_t* sizes, size_t count, hipMemLocation* prefetchLocs,
    size_t* prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags,
    hipStream_t stream) {
  if (flags != 0 || count == 0 || numPrefetchLocs == 0 || numPrefetchLocs > count ||
      dptrs == nullptr || sizes == nullptr || prefetchLocs == nullptr ||
      prefetchLocIdxs == nullptr || prefetchLocIdxs[0] != 0)
    return hipErrorInvalidValue;
  for (size_t k = 1; k < numPrefetchLocs; ++k)
    if (prefetchLocIdxs[k] <= prefetchLocIdxs[k - 1] || prefetchLocIdxs[k] >= count)
      return hipErrorInvalidValue;
  for (size_t k = 0; k < numPrefetchLocs; ++k) {
    const size_t end = k + 1 < numPrefetchLocs ? prefetchLocIdxs[k + 1] : count;
    for (size_t i = prefetchLocIdxs[k]; i < end; ++i) {
      const hipError_t status =
          hipMemPrefetchAsync_v2(dptrs[i], sizes[i], prefetchLocs[k], 0, stream);
      if (status != hipSuccess) return status;
    }
  }
  return hipSuccess;
}
#endif
#endif
//@ end

//@ graph_exec_update provides=cudaport_graph_exec_update_result_info,cudaport_graph_exec_update
#ifndef CUDAPORT_PORTABLE_GRAPH_EXEC_UPDATE
#if defined(HIP_INCLUDE_HIP_HIP_RUNTIME_API_H) && defined(__cplusplus)
#define CUDAPORT_PORTABLE_GRAPH_EXEC_UPDATE
// cudaGraphExecUpdate(hGraphExec, hGraph, resultInfo) (CUDA Runtime API, CUDA 12 and later;
// cuGraphExecUpdate in the driver API): updates the executable graph with hGraph's
// parameters where their topologies agree; resultInfo->result says whether the update was
// made or why not, errorNode names the node at fault (the "to" node of an edge at fault;
// NULL for a generic error), errorFromNode the "from" node of such an edge (else NULL).
// HIP's hipGraphExecUpdate has CUDA 11's form, the node at fault and the result as two
// outputs; no from node of an edge, so errorFromNode is NULL here (the rule's caveat).
struct cudaport_graph_exec_update_result_info {
  hipGraphExecUpdateResult result;
  hipGraphNode_t errorNode;
  hipGraphNode_t errorFromNode;
};
static inline hipError_t cudaport_graph_exec_update(hipGraphExec_t hGraphExec, hipGraph_t hGraph,
                                                    cudaport_graph_exec_update_result_info* resultInfo) {
  hipGraphNode_t node = nullptr;
  hipGraphExecUpdateResult result = hipGraphExecUpdateSuccess;
  const hipError_t status = hipGraphExecUpdate(hGraphExec, hGraph, &node, &result);
  if (resultInfo != nullptr) {
    resultInfo->result = result;
    resultInfo->errorNode = node;
    resultInfo->errorFromNode = nullptr;
  }
  return status;
}
#endif
#endif
//@ end

//@ labeled_partition provides=cudaport_labeled_partition
#ifndef CUDAPORT_PORTABLE_LABELED_PARTITION
#if defined(HIP_INCLUDE_HIP_AMD_DETAIL_HIP_COOPERATIVE_GROUPS_H) && \
    !defined(HIP_DISABLE_WARP_SYNC_BUILTINS)
#define CUDAPORT_PORTABLE_LABELED_PARTITION
// cooperative_groups::labeled_partition(parent, label) (CUDA C++ Programming Guide,
// Cooperative Groups, "labeled_partition"): parent is a coalesced_group or a
// thread_block_tile; label an integral or pointer value. Each thread of the parent gets the
// coalesced_group of the parent's threads whose label equals its own; meta_group_size() is
// how many different labels the parent holds and meta_group_rank() this group's place among
// them, ordered by their lowest lane. HIP's cooperative groups have no such function; it is
// made here with __match_any_sync (lanes with equal labels) and HIP's coalesced_group, whose
// mask constructor and meta-group fields a derived class reaches. The rule agrees with
// CUDA's own labeled_partition on an NVIDIA GPU (bench/labeled_partition_cuda.cu).
namespace cooperative_groups {
namespace cudaport_detail {
struct labeled_group : coalesced_group {
  __device__ explicit labeled_group(const coalesced_group& group) : coalesced_group(group) {}
  __device__ labeled_group(unsigned long long lanes, unsigned int rank, unsigned int count)
      : coalesced_group(lanes) {
    coalesced_info.tiled_info.meta_group_rank = rank;
    coalesced_info.tiled_info.meta_group_size = count;
  }
  __device__ unsigned long long lanes() const { return coalesced_info.member_mask; }
};
}  // namespace cudaport_detail
template <class Label>
__device__ inline coalesced_group cudaport_labeled_partition(const coalesced_group& parent,
                                                             Label label) {
  const unsigned long long all = cudaport_detail::labeled_group(parent).lanes();
  const unsigned long long mine = __match_any_sync(all, (unsigned long long)label);
  const unsigned long long lowest = mine & (~mine + 1);  // the group's lowest lane
  const bool first = ((1ull << __lane_id()) & lowest) != 0;
  const unsigned long long firsts = __ballot_sync(all, first);
  return cudaport_detail::labeled_group(mine, __popcll(firsts & (lowest - 1)),
                                        __popcll(firsts));
}
template <class Label, unsigned int Size, class Parent>
__device__ inline coalesced_group cudaport_labeled_partition(
    const thread_block_tile<Size, Parent>& parent, Label label) {
  return cudaport_labeled_partition(binary_partition(parent, true), label);
}
}  // namespace cooperative_groups
#endif
#endif
//@ end

//@ dpx needs=prelude provides=cudaport_vimax3_s32,cudaport_vimin3_s32,cudaport_viaddmax_s32,cudaport_viaddmin_s32,cudaport_vimax3_u32,cudaport_vimin3_u32,cudaport_viaddmax_u32,cudaport_viaddmin_u32,cudaport_vimax3_s16x2,cudaport_vimin3_s16x2,cudaport_viaddmax_s16x2,cudaport_viaddmin_s16x2,cudaport_vimax3_u16x2,cudaport_vimin3_u16x2,cudaport_viaddmax_u16x2,cudaport_viaddmin_u16x2,cudaport_vimax_s32_relu,cudaport_vimin_s32_relu,cudaport_vimax3_s32_relu,cudaport_vimin3_s32_relu,cudaport_viaddmax_s32_relu,cudaport_viaddmin_s32_relu,cudaport_vimax_s16x2_relu,cudaport_vimin_s16x2_relu,cudaport_vimax3_s16x2_relu,cudaport_vimin3_s16x2_relu,cudaport_viaddmax_s16x2_relu,cudaport_viaddmin_s16x2_relu,cudaport_vibmax_s32,cudaport_vibmax_u32,cudaport_vibmax_s16x2,cudaport_vibmax_u16x2,cudaport_vibmin_s32,cudaport_vibmin_u32,cudaport_vibmin_s16x2,cudaport_vibmin_u16x2
#ifndef CUDAPORT_PORTABLE_DPX
#define CUDAPORT_PORTABLE_DPX
// CUDA's DPX functions (CUDA Math API, "Integer Intrinsics", CUDA 12): on 32-bit integers
// (s32 signed, u32 unsigned) or per halfword of a 32-bit word (s16x2, u16x2; results
// recombined, the low halfword in bits 0..15):
//   __vimax3_X(a, b, c) = max(max(a, b), c)      __vimin3_X = min(min(a, b), c)
//   __viaddmax_X(a, b, c) = max(a + b, c)        __viaddmin_X = min(a + b, c)
//     (the sum wraps around in the width of the part)
//   _relu forms: the same, then max(result, 0)   __vimax_X_relu(a, b) = max(max(a, b), 0)
//   __vibmax_X(a, b, pred...) = max(a, b), also sets *pred to (a >= b) (per halfword:
//     *pred_hi, *pred_lo); __vibmin_X = min(a, b) with (a <= b)
namespace cudaport_detail {
enum dpx_op { dpx_max3, dpx_min3, dpx_addmax, dpx_addmin, dpx_max_relu, dpx_min_relu,
  dpx_max3_relu, dpx_min3_relu, dpx_addmax_relu, dpx_addmin_relu };
// part i of width W, signed or not, as a long long (the 32-bit parts too)
template <int W, bool S> CUDAPORT_HD inline long long dpx_part(unsigned x, int i) {
  const unsigned long long u = W == 32 ? x : (x >> (16 * i)) & 0xffffu;
  return S && (u >> (W - 1)) ? (long long)u - (1ll << W) : (long long)u;
}
template <int W, bool S> CUDAPORT_HD inline long long dpx_wrap(long long v) {  // v in the part's range
  const unsigned long long u = (unsigned long long)v & ((1ull << W) - 1ull);
  return S && (u >> (W - 1)) ? (long long)u - (1ll << W) : (long long)u;
}
CUDAPORT_HD inline long long dpx_max(long long a, long long b) { return a > b ? a : b; }
CUDAPORT_HD inline long long dpx_min(long long a, long long b) { return a < b ? a : b; }
template <int W, bool S> CUDAPORT_HD inline unsigned dpx(int op, unsigned a, unsigned b, unsigned c) {
  unsigned r = 0;
  for (int i = 0; i < 32 / W; ++i) {
    const long long x = dpx_part<W, S>(a, i), y = dpx_part<W, S>(b, i), z = dpx_part<W, S>(c, i);
    long long v;
    switch (op) {
      case dpx_max3: v = dpx_max(dpx_max(x, y), z); break;
      case dpx_min3: v = dpx_min(dpx_min(x, y), z); break;
      case dpx_addmax: v = dpx_max(dpx_wrap<W, S>(x + y), z); break;
      case dpx_addmin: v = dpx_min(dpx_wrap<W, S>(x + y), z); break;
      case dpx_max_relu: v = dpx_max(dpx_max(x, y), 0); break;
      case dpx_min_relu: v = dpx_max(dpx_min(x, y), 0); break;
      case dpx_max3_relu: v = dpx_max(dpx_max(dpx_max(x, y), z), 0); break;
      case dpx_min3_relu: v = dpx_max(dpx_min(dpx_min(x, y), z), 0); break;
      case dpx_addmax_relu: v = dpx_max(dpx_max(dpx_wrap<W, S>(x + y), z), 0); break;
      default: v = dpx_max(dpx_min(dpx_wrap<W, S>(x + y), z), 0); break;  // dpx_addmin_relu
    }
    r |= (unsigned)((unsigned long long)v & (W == 32 ? 0xffffffffull : 0xffffull)) << (W == 32 ? 0 : 16 * i);
  }
  return r;
}
template <bool S, bool MAX>
CUDAPORT_HD inline unsigned vib16(unsigned a, unsigned b, bool* pred_hi, bool* pred_lo) {
  const long long alo = dpx_part<16, S>(a, 0), blo = dpx_part<16, S>(b, 0);
  const long long ahi = dpx_part<16, S>(a, 1), bhi = dpx_part<16, S>(b, 1);
  *pred_lo = MAX ? alo >= blo : alo <= blo;
  *pred_hi = MAX ? ahi >= bhi : ahi <= bhi;
  return ((*pred_lo ? a : b) & 0xffffu) | ((*pred_hi ? a : b) & 0xffff0000u);
}
}  // namespace cudaport_detail
CUDAPORT_HD inline int cudaport_vimax3_s32(int a, int b, int c) { return (int)cudaport_detail::dpx<32, true>(cudaport_detail::dpx_max3, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline int cudaport_vimin3_s32(int a, int b, int c) { return (int)cudaport_detail::dpx<32, true>(cudaport_detail::dpx_min3, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline int cudaport_viaddmax_s32(int a, int b, int c) { return (int)cudaport_detail::dpx<32, true>(cudaport_detail::dpx_addmax, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline int cudaport_viaddmin_s32(int a, int b, int c) { return (int)cudaport_detail::dpx<32, true>(cudaport_detail::dpx_addmin, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_vimax3_u32(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<32, false>(cudaport_detail::dpx_max3, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_vimin3_u32(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<32, false>(cudaport_detail::dpx_min3, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_viaddmax_u32(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<32, false>(cudaport_detail::dpx_addmax, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_viaddmin_u32(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<32, false>(cudaport_detail::dpx_addmin, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_vimax3_s16x2(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<16, true>(cudaport_detail::dpx_max3, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_vimin3_s16x2(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<16, true>(cudaport_detail::dpx_min3, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_viaddmax_s16x2(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<16, true>(cudaport_detail::dpx_addmax, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_viaddmin_s16x2(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<16, true>(cudaport_detail::dpx_addmin, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_vimax3_u16x2(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<16, false>(cudaport_detail::dpx_max3, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_vimin3_u16x2(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<16, false>(cudaport_detail::dpx_min3, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_viaddmax_u16x2(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<16, false>(cudaport_detail::dpx_addmax, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_viaddmin_u16x2(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<16, false>(cudaport_detail::dpx_addmin, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline int cudaport_vimax_s32_relu(int a, int b) { return (int)cudaport_detail::dpx<32, true>(cudaport_detail::dpx_max_relu, (unsigned)a, (unsigned)b, 0u); }
CUDAPORT_HD inline int cudaport_vimin_s32_relu(int a, int b) { return (int)cudaport_detail::dpx<32, true>(cudaport_detail::dpx_min_relu, (unsigned)a, (unsigned)b, 0u); }
CUDAPORT_HD inline int cudaport_vimax3_s32_relu(int a, int b, int c) { return (int)cudaport_detail::dpx<32, true>(cudaport_detail::dpx_max3_relu, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline int cudaport_vimin3_s32_relu(int a, int b, int c) { return (int)cudaport_detail::dpx<32, true>(cudaport_detail::dpx_min3_relu, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline int cudaport_viaddmax_s32_relu(int a, int b, int c) { return (int)cudaport_detail::dpx<32, true>(cudaport_detail::dpx_addmax_relu, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline int cudaport_viaddmin_s32_relu(int a, int b, int c) { return (int)cudaport_detail::dpx<32, true>(cudaport_detail::dpx_addmin_relu, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_vimax_s16x2_relu(unsigned int a, unsigned int b) { return (unsigned int)cudaport_detail::dpx<16, true>(cudaport_detail::dpx_max_relu, (unsigned)a, (unsigned)b, 0u); }
CUDAPORT_HD inline unsigned int cudaport_vimin_s16x2_relu(unsigned int a, unsigned int b) { return (unsigned int)cudaport_detail::dpx<16, true>(cudaport_detail::dpx_min_relu, (unsigned)a, (unsigned)b, 0u); }
CUDAPORT_HD inline unsigned int cudaport_vimax3_s16x2_relu(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<16, true>(cudaport_detail::dpx_max3_relu, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_vimin3_s16x2_relu(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<16, true>(cudaport_detail::dpx_min3_relu, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_viaddmax_s16x2_relu(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<16, true>(cudaport_detail::dpx_addmax_relu, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline unsigned int cudaport_viaddmin_s16x2_relu(unsigned int a, unsigned int b, unsigned int c) { return (unsigned int)cudaport_detail::dpx<16, true>(cudaport_detail::dpx_addmin_relu, (unsigned)a, (unsigned)b, (unsigned)c); }
CUDAPORT_HD inline int cudaport_vibmax_s32(int a, int b, bool* pred) { *pred = a >= b; return *pred ? a : b; }
CUDAPORT_HD inline unsigned int cudaport_vibmax_u32(unsigned int a, unsigned int b, bool* pred) { *pred = a >= b; return *pred ? a : b; }
CUDAPORT_HD inline unsigned int cudaport_vibmax_s16x2(unsigned int a, unsigned int b, bool* pred_hi, bool* pred_lo) { return cudaport_detail::vib16<true, true>(a, b, pred_hi, pred_lo); }
CUDAPORT_HD inline unsigned int cudaport_vibmax_u16x2(unsigned int a, unsigned int b, bool* pred_hi, bool* pred_lo) { return cudaport_detail::vib16<false, true>(a, b, pred_hi, pred_lo); }
CUDAPORT_HD inline int cudaport_vibmin_s32(int a, int b, bool* pred) { *pred = a <= b; return *pred ? a : b; }
CUDAPORT_HD inline unsigned int cudaport_vibmin_u32(unsigned int a, unsigned int b, bool* pred) { *pred = a <= b; return *pred ? a : b; }
CUDAPORT_HD inline unsigned int cudaport_vibmin_s16x2(unsigned int a, unsigned int b, bool* pred_hi, bool* pred_lo) { return cudaport_detail::vib16<true, false>(a, b, pred_hi, pred_lo); }
CUDAPORT_HD inline unsigned int cudaport_vibmin_u16x2(unsigned int a, unsigned int b, bool* pred_hi, bool* pred_lo) { return cudaport_detail::vib16<false, false>(a, b, pred_hi, pred_lo); }
#endif
//@ end

//@ nanosleep needs=prelude provides=cudaport_nanosleep
#ifndef CUDAPORT_PORTABLE_NANOSLEEP
#define CUDAPORT_PORTABLE_NANOSLEEP
// __nanosleep(ns) (CUDA C++ Programming Guide, "Nanosleep Function"): "suspends the thread
// for a sleep duration of approximately ns nanoseconds. The maximum sleep duration is
// approximately 1 millisecond"; the duration is guaranteed to be in [0, 2 * ns]. Here:
// ns / 64 waits of s_sleep 1 (64 clock cycles each, so about ns cycles in all: ns / f
// nanoseconds at f GHz, within [0, 2 * ns] for any clock of 0.5 GHz or faster), at most
// 1 ms worth. On the host (no thread to suspend for a device's sake) nothing: 0 is in range.
CUDAPORT_HD inline void cudaport_nanosleep(unsigned int ns) {
#if defined(__HIP_DEVICE_COMPILE__)
  const unsigned int waits = (ns < 1000000u ? ns : 1000000u) / 64u;
  for (unsigned int i = 0; i < waits; ++i) __builtin_amdgcn_s_sleep(1);
#else
  (void)ns;
#endif
}
#endif
//@ end

//@ cvta needs=prelude provides=cudaport_cvta_generic_to_shared,cudaport_cvta_shared_to_generic,cudaport_cvta_generic_to_global,cudaport_cvta_global_to_generic,cudaport_cvta_generic_to_local,cudaport_cvta_local_to_generic
#ifndef CUDAPORT_PORTABLE_CVTA
#define CUDAPORT_PORTABLE_CVTA
// CUDA C++ Programming Guide, "Address Space Conversion Functions":
// __cvta_generic_to_shared(ptr) / _global / _local: "returns the result of executing the
// PTX cvta.to.shared (.global, .local) instruction on the generic address denoted by ptr",
// the address of the same byte in that state space, as a size_t;
// __cvta_shared_to_generic(rawbits) / _global / _local: the generic pointer to the byte
// whose address in that space is rawbits (PTX cvta.shared and the like).
// On AMD GPUs the spaces are LLVM address spaces: shared memory (LDS) is 3, with 32-bit
// addresses, private memory 5, and a global address is the generic (flat) one; the casts
// below are clang's address space conversions. Device code only (a host pointer is
// returned as it is, as no state space exists there).
#if defined(__HIP_DEVICE_COMPILE__)
#define CUDAPORT_AS(N) __attribute__((address_space(N)))
__device__ inline __SIZE_TYPE__ cudaport_cvta_generic_to_shared(const void* ptr) {
  return (__SIZE_TYPE__)(const CUDAPORT_AS(3) void*)ptr;
}
__device__ inline void* cudaport_cvta_shared_to_generic(__SIZE_TYPE__ rawbits) {
  return (void*)(CUDAPORT_AS(3) void*)(unsigned)rawbits;
}
__device__ inline __SIZE_TYPE__ cudaport_cvta_generic_to_local(const void* ptr) {
  return (__SIZE_TYPE__)(const CUDAPORT_AS(5) void*)ptr;
}
__device__ inline void* cudaport_cvta_local_to_generic(__SIZE_TYPE__ rawbits) {
  return (void*)(CUDAPORT_AS(5) void*)(unsigned)rawbits;
}
#undef CUDAPORT_AS
#else
CUDAPORT_HD inline __SIZE_TYPE__ cudaport_cvta_generic_to_shared(const void* ptr) { return (__SIZE_TYPE__)ptr; }
CUDAPORT_HD inline void* cudaport_cvta_shared_to_generic(__SIZE_TYPE__ rawbits) { return (void*)rawbits; }
CUDAPORT_HD inline __SIZE_TYPE__ cudaport_cvta_generic_to_local(const void* ptr) { return (__SIZE_TYPE__)ptr; }
CUDAPORT_HD inline void* cudaport_cvta_local_to_generic(__SIZE_TYPE__ rawbits) { return (void*)rawbits; }
#endif
CUDAPORT_HD inline __SIZE_TYPE__ cudaport_cvta_generic_to_global(const void* ptr) { return (__SIZE_TYPE__)ptr; }
CUDAPORT_HD inline void* cudaport_cvta_global_to_generic(__SIZE_TYPE__ rawbits) { return (void*)rawbits; }
#endif
//@ end

//@ stream_write_value provides=cudaport_stream_write_value_default
#ifndef CUDAPORT_PORTABLE_STREAM_WRITE_VALUE
#define CUDAPORT_PORTABLE_STREAM_WRITE_VALUE
// CUstreamWriteValue_flags (cuda.h): CU_STREAM_WRITE_VALUE_DEFAULT = 0x0, the write ordered
// after the stream's earlier work as a memory barrier orders it. hipStreamWriteValue32/64
// take `unsigned int flags` (ROCm 6.4 and 7.2: "reserved, ignored") and name no value;
// 0 is the value CUDA's call passes and the one HIP expects.
static constexpr unsigned int cudaport_stream_write_value_default = 0u;
#endif
//@ end

//@ nvml_error_string provides=cudaport_nvml_error_string
#ifndef CUDAPORT_PORTABLE_NVML_ERROR_STRING
#if defined(ROCM_SMI_ROCM_SMI_H_)
#define CUDAPORT_PORTABLE_NVML_ERROR_STRING
// nvmlErrorString(result) (nvml.h): "a string representation of the error" of an NVML
// status. ROCm SMI's rsmi_status_string(status, &text) sets `text` to its description of
// the status (the statuses NVML's map to, rules/hip/nvml.yaml); the text is ROCm SMI's,
// not NVML's. Where that call fails, a fixed text, as nvmlErrorString never fails.
static inline const char* cudaport_nvml_error_string(rsmi_status_t status) {
  const char* text = nullptr;
  if (rsmi_status_string(status, &text) != RSMI_STATUS_SUCCESS || text == nullptr)
    return "Unknown Error";
  return text;
}
#endif
#endif
//@ end

//@ minmax_functors needs=prelude provides=cudaport_minimum,cudaport_maximum
#ifndef CUDAPORT_PORTABLE_MINMAX_FUNCTORS
#define CUDAPORT_PORTABLE_MINMAX_FUNCTORS
#include <math.h>
#include <type_traits>
// cuda::minimum<T> and cuda::maximum<T> (<cuda/functional>, libcu++ of CUDA 13.0,
// cuda/__functional/minimum.h and maximum.h): operator()(const T& lhs, const T& rhs) returns
// cuda::std::fmin(lhs, rhs) (fmax) for a floating-point T, else (lhs < rhs) ? lhs : rhs
// ((lhs < rhs) ? rhs : lhs). The <void> forms take two types and return their common type,
// comparing the arguments as given (floating point: fmin/fmax of the converted values).
// fmin/fmax return the other argument when one is NaN; for __half and __hip_bfloat16
// (CUDA's extended floating-point types) they compare in float, which holds both exactly.
namespace cudaport_detail {
template <class T> struct minmax_float : std::is_floating_point<T> {};
#if defined(HIP_INCLUDE_HIP_AMD_DETAIL_HIP_FP16_H)
template <> struct minmax_float<__half> : std::true_type {};
CUDAPORT_HD inline __half minmax_pick(__half a, __half b, bool low) {
  const float x = __half2float(a), y = __half2float(b);
  return __float2half(low ? fminf(x, y) : fmaxf(x, y));
}
#endif
#if defined(_HIP_INCLUDE_HIP_AMD_DETAIL_HIP_BF16_H_)
template <> struct minmax_float<__hip_bfloat16> : std::true_type {};
CUDAPORT_HD inline __hip_bfloat16 minmax_pick(__hip_bfloat16 a, __hip_bfloat16 b, bool low) {
  const float x = __bfloat162float(a), y = __bfloat162float(b);
  return __float2bfloat16(low ? fminf(x, y) : fmaxf(x, y));
}
#endif
CUDAPORT_HD inline float minmax_pick(float a, float b, bool low) { return low ? fminf(a, b) : fmaxf(a, b); }
CUDAPORT_HD inline double minmax_pick(double a, double b, bool low) { return low ? fmin(a, b) : fmax(a, b); }
template <class C, class T, class U>
CUDAPORT_HD constexpr C minmax(const T& a, const U& b, bool low, std::true_type) {
  return minmax_pick(static_cast<C>(a), static_cast<C>(b), low);
}
template <class C, class T, class U>
CUDAPORT_HD constexpr C minmax(const T& a, const U& b, bool low, std::false_type) {
  return low ? ((a < b) ? static_cast<C>(a) : static_cast<C>(b))
             : ((a < b) ? static_cast<C>(b) : static_cast<C>(a));
}
}  // namespace cudaport_detail
template <class T = void> struct cudaport_minimum {
  CUDAPORT_HD constexpr T operator()(const T& lhs, const T& rhs) const {
    return cudaport_detail::minmax<T>(lhs, rhs, true, cudaport_detail::minmax_float<T>());
  }
};
template <> struct cudaport_minimum<void> {
  template <class T, class U, class C = typename std::common_type<T, U>::type>
  CUDAPORT_HD constexpr C operator()(const T& lhs, const U& rhs) const {
    return cudaport_detail::minmax<C>(lhs, rhs, true, cudaport_detail::minmax_float<C>());
  }
};
template <class T = void> struct cudaport_maximum {
  CUDAPORT_HD constexpr T operator()(const T& lhs, const T& rhs) const {
    return cudaport_detail::minmax<T>(lhs, rhs, false, cudaport_detail::minmax_float<T>());
  }
};
template <> struct cudaport_maximum<void> {
  template <class T, class U, class C = typename std::common_type<T, U>::type>
  CUDAPORT_HD constexpr C operator()(const T& lhs, const U& rhs) const {
    return cudaport_detail::minmax<C>(lhs, rhs, false, cudaport_detail::minmax_float<C>());
  }
};
#endif
//@ end

//@ declval needs=prelude provides=cudaport_declval
#ifndef CUDAPORT_PORTABLE_DECLVAL
#define CUDAPORT_PORTABLE_DECLVAL
#include <type_traits>
// cuda::std::declval<T>() (libcu++, cuda/std/__utility/declval.h): a declaration without a
// definition, usable only where nothing is evaluated (decltype, sizeof, noexcept), typed
// T&& (T for void). libstdc++'s std::declval is a host function, which clang's HIP
// overload resolution drops inside a __device__ body even in decltype; this one is declared
// for both sides, and like CUDA's it is never defined.
template <class T>
CUDAPORT_HD typename std::add_rvalue_reference<T>::type cudaport_declval() noexcept;
#endif
//@ end

//@ half_atomics needs=prelude provides=cudaport_atomic_add
#ifndef CUDAPORT_PORTABLE_HALF_ATOMICS
#if defined(__HIPCC__)
#define CUDAPORT_PORTABLE_HALF_ATOMICS
// atomicAdd(__half2*, __half2), atomicAdd(__half*, __half) (cuda_fp16.h) and the
// __nv_bfloat162 / __nv_bfloat16 forms (cuda_bf16.h): add val to *address, store the sum
// (rounded to nearest, as __hadd2/__hadd), return the old value. CUDA: "The atomicity of
// the add operation is guaranteed separately for each of the two __half elements; the
// entire __half2 is not guaranteed to be atomic as a single 32-bit access" (the 16-bit
// forms: "performed in one atomic operation"). HIP 6.4 and 7.2 have no atomicAdd for these
// types (only unsafeAtomicAdd, whose hardware add is not atomic on fine-grained memory). Here
// a compare-and-swap loop on the aligned 32-bit word holding the value updates it: both
// halves of a pair at once (at least CUDA's guarantee), a single half leaving the other
// half of its word as another thread stored it. (AMD GPUs are little-endian: the half at
// the lower address is the word's low 16 bits.)
namespace cudaport_detail {
template <class T, class Add>
__device__ inline T atomic_update_16x2(T* address, Add add) {
  unsigned int* word = reinterpret_cast<unsigned int*>(address);
  unsigned int old = *reinterpret_cast<volatile unsigned int*>(word), assumed;
  do {
    assumed = old;
    old = atomicCAS(word, assumed, bit_cast<unsigned int>(add(bit_cast<T>(assumed))));
  } while (old != assumed);
  return bit_cast<T>(old);
}
template <class T, class Add>
__device__ inline T atomic_update_16(T* address, Add add) {
  const unsigned long long at = reinterpret_cast<unsigned long long>(address);
  unsigned int* word = reinterpret_cast<unsigned int*>(at & ~3ull);
  const unsigned int shift = (at & 2ull) ? 16u : 0u;
  unsigned int old = *reinterpret_cast<volatile unsigned int*>(word), assumed;
  do {
    assumed = old;
    const unsigned short mine = static_cast<unsigned short>(assumed >> shift);
    const unsigned short sum = bit_cast<unsigned short>(add(bit_cast<T>(mine)));
    old = atomicCAS(word, assumed,
                    (assumed & ~(0xFFFFu << shift)) | (static_cast<unsigned int>(sum) << shift));
  } while (old != assumed);
  return bit_cast<T>(static_cast<unsigned short>(old >> shift));
}
}  // namespace cudaport_detail
#if defined(HIP_INCLUDE_HIP_AMD_DETAIL_HIP_FP16_H)
__device__ inline __half2 cudaport_atomic_add(__half2* address, __half2 val) {
  return cudaport_detail::atomic_update_16x2(address, [val](__half2 v) { return __hadd2(v, val); });
}
__device__ inline __half cudaport_atomic_add(__half* address, __half val) {
  return cudaport_detail::atomic_update_16(address, [val](__half v) { return __hadd(v, val); });
}
#endif
#if defined(_HIP_INCLUDE_HIP_AMD_DETAIL_HIP_BF16_H_)
// (HIP's bfloat16 __hadd adds in float and rounds that to bfloat16: the float sum is exact
// unless the exponents differ by more than 16, where the smaller operand is far below half
// a bfloat16 ulp, so the result is the exact sum rounded to nearest, as CUDA's)
__device__ inline __hip_bfloat162 cudaport_atomic_add(__hip_bfloat162* address, __hip_bfloat162 val) {
  return cudaport_detail::atomic_update_16x2(address, [val](__hip_bfloat162 v) { return __hadd2(v, val); });
}
__device__ inline __hip_bfloat16 cudaport_atomic_add(__hip_bfloat16* address, __hip_bfloat16 val) {
  return cudaport_detail::atomic_update_16(address, [val](__hip_bfloat16 v) { return __hadd(v, val); });
}
#endif
#endif
#endif
//@ end

//@ cg_memcpy_async provides=cudaport_memcpy_async,cudaport_wait,cudaport_wait_prior
#ifndef CUDAPORT_PORTABLE_CG_MEMCPY_ASYNC
#if defined(HIP_INCLUDE_HIP_AMD_DETAIL_HIP_COOPERATIVE_GROUPS_H)
#define CUDAPORT_PORTABLE_CG_MEMCPY_ASYNC
// cooperative_groups::memcpy_async / wait / wait_prior (<cooperative_groups/memcpy_async.h>,
// CUDA 13.0 cooperative_groups/details/async.h): the group's threads together copy `count`
// bytes (or, with element counts, min(dstCount, srcCount) elements) from src to dst, which
// is complete after wait(group) / wait_prior<N>(group), and those sync the group. HIP's
// cooperative groups have none; here the group's threads copy at once (thread_rank()
// strided by size()) and wait/wait_prior sync the group: the same bytes in dst after the
// wait, without the overlap of the copy with the work before the wait (CP231).
namespace cooperative_groups {
template <class TyGroup>
__device__ inline void cudaport_group_copy(const TyGroup& group, void* dst, const void* src,
                                           unsigned long long bytes) {
  unsigned char* d = static_cast<unsigned char*>(dst);
  const unsigned char* s = static_cast<const unsigned char*>(src);
  for (unsigned long long i = group.thread_rank(); i < bytes; i += group.size()) d[i] = s[i];
}
template <class TyGroup, class TyElem, class TySizeT>
__device__ inline void cudaport_memcpy_async(const TyGroup& group, TyElem* dst, const TyElem* src,
                                             const TySizeT& count) {
  cudaport_group_copy(group, (void*)dst, (const void*)src, (unsigned long long)(size_t)count);
}
template <class TyGroup, class TyElem, class DstLayout, class SrcLayout>
__device__ inline void cudaport_memcpy_async(const TyGroup& group, TyElem* dst,
                                             const DstLayout& dst_count, const TyElem* src,
                                             const SrcLayout& src_count) {
  const size_t n = (size_t)dst_count < (size_t)src_count ? (size_t)dst_count : (size_t)src_count;
  cudaport_group_copy(group, (void*)dst, (const void*)src, (unsigned long long)(n * sizeof(TyElem)));
}
template <unsigned int Stage, class TyGroup>
__device__ inline void cudaport_wait_prior(const TyGroup& group) { group.sync(); }
template <class TyGroup>
__device__ inline void cudaport_wait(const TyGroup& group) { group.sync(); }
}  // namespace cooperative_groups
#endif
#endif
//@ end

//@ device_error_strings needs=prelude provides=cudaport_device_error_string,cudaport_device_error_name
#ifndef CUDAPORT_PORTABLE_DEVICE_ERROR_STRINGS
#if defined(HIP_INCLUDE_HIP_HIP_RUNTIME_API_H) && defined(__cplusplus)
#define CUDAPORT_PORTABLE_DEVICE_ERROR_STRINGS
// cudaGetErrorString / cudaGetErrorName called in device code (CUDA declares both for
// it, cuda_device_runtime_api.h); HIP's hipGetErrorString / hipGetErrorName are host
// functions. These return, in device and host code, the texts the host functions of
// ROCm 7.2 return for each code (tools/gen_device_error_strings.py read them from
// hipGetErrorName / hipGetErrorString; the codes by number, the same in every HIP).
CUDAPORT_HD static inline const char* cudaport_device_error_string(hipError_t error) {
  switch (static_cast<int>(error)) {
    case 0: return "no error";
    case 1: return "invalid argument";
    case 2: return "out of memory";
    case 3: return "initialization error";
    case 4: return "driver shutting down";
    case 5: return "profiler disabled while using external profiling tool";
    case 6: return "profiler is not initialized";
    case 7: return "profiler already started";
    case 8: return "profiler already stopped";
    case 9: return "invalid configuration argument";
    case 12: return "invalid pitch argument";
    case 13: return "invalid device symbol";
    case 17: return "invalid device pointer";
    case 21: return "invalid copy direction for memcpy";
    case 35: return "driver version is insufficient for runtime version";
    case 52: return "__global__ function call is not configured";
    case 53: return "unspecified launch failure in prior launch";
    case 98: return "invalid device function";
    case 100: return "no ROCm-capable device is detected";
    case 101: return "invalid device ordinal";
    case 200: return "device kernel image is invalid";
    case 201: return "invalid device context";
    case 202: return "context is already current context";
    case 205: return "mapping of buffer object failed";
    case 206: return "unmapping of buffer object failed";
    case 207: return "array is mapped";
    case 208: return "resource already mapped";
    case 209: return "no kernel image is available for execution on the device";
    case 210: return "resource already acquired";
    case 211: return "resource not mapped";
    case 212: return "resource not mapped as array";
    case 213: return "resource not mapped as pointer";
    case 214: return "uncorrectable ECC error encountered";
    case 215: return "limit is not supported on this architecture";
    case 216: return "exclusive-thread device already in use by a different thread";
    case 217: return "peer access is not supported between these two devices";
    case 218: return "invalid kernel file";
    case 219: return "invalid OpenGL or DirectX context";
    case 300: return "device kernel image is invalid";
    case 301: return "file not found";
    case 302: return "shared object symbol not found";
    case 303: return "shared object initialization failed";
    case 304: return "OS call failed or operation not supported on this OS";
    case 400: return "invalid resource handle";
    case 401: return "the operation cannot be performed in the present state";
    case 500: return "named symbol not found";
    case 600: return "device not ready";
    case 700: return "an illegal memory access was encountered";
    case 701: return "too many resources requested for launch";
    case 702: return "the launch timed out and was terminated";
    case 704: return "peer access is already enabled";
    case 705: return "peer access has not been enabled";
    case 708: return "cannot set while device is active in this process";
    case 709: return "context is destroyed";
    case 710: return "device-side assert triggered";
    case 712: return "part or all of the requested memory range is already mapped";
    case 713: return "pointer does not correspond to a registered memory region";
    case 719: return "unspecified launch failure";
    case 720: return "too many blocks in cooperative launch";
    case 801: return "operation not supported";
    case 900: return "operation not permitted when stream is capturing";
    case 901: return "operation failed due to a previous error during capture";
    case 902: return "operation would result in a merge of separate capture sequences";
    case 903: return "capture was not ended in the same stream as it began";
    case 904: return "capturing stream has unjoined work";
    case 905: return "dependency created on uncaptured work in another stream";
    case 906: return "operation would make the legacy stream depend on a capturing blocking stream";
    case 907: return "operation not permitted on an event last recorded in a capturing stream";
    case 908: return "attempt to terminate a thread-local capture sequence from another thread";
    case 910: return "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update";
    case 911: return "invalid resource description of texture passed to the api";
    case 912: return "invalid texture object passed to the api";
    case 1052: return "runtime memory call returned error";
    case 1053: return "runtime call other than memory returned error";
    case 1054: return "unknown error";
    default: return "unknown error";
  }
}
CUDAPORT_HD static inline const char* cudaport_device_error_name(hipError_t error) {
  switch (static_cast<int>(error)) {
    case 0: return "hipSuccess";
    case 1: return "hipErrorInvalidValue";
    case 2: return "hipErrorOutOfMemory";
    case 3: return "hipErrorNotInitialized";
    case 4: return "hipErrorDeinitialized";
    case 5: return "hipErrorProfilerDisabled";
    case 6: return "hipErrorProfilerNotInitialized";
    case 7: return "hipErrorProfilerAlreadyStarted";
    case 8: return "hipErrorProfilerAlreadyStopped";
    case 9: return "hipErrorInvalidConfiguration";
    case 12: return "hipErrorInvalidPitchValue";
    case 13: return "hipErrorInvalidSymbol";
    case 17: return "hipErrorInvalidDevicePointer";
    case 21: return "hipErrorInvalidMemcpyDirection";
    case 35: return "hipErrorInsufficientDriver";
    case 52: return "hipErrorMissingConfiguration";
    case 53: return "hipErrorPriorLaunchFailure";
    case 98: return "hipErrorInvalidDeviceFunction";
    case 100: return "hipErrorNoDevice";
    case 101: return "hipErrorInvalidDevice";
    case 200: return "hipErrorInvalidImage";
    case 201: return "hipErrorInvalidContext";
    case 202: return "hipErrorContextAlreadyCurrent";
    case 205: return "hipErrorMapFailed";
    case 206: return "hipErrorUnmapFailed";
    case 207: return "hipErrorArrayIsMapped";
    case 208: return "hipErrorAlreadyMapped";
    case 209: return "hipErrorNoBinaryForGpu";
    case 210: return "hipErrorAlreadyAcquired";
    case 211: return "hipErrorNotMapped";
    case 212: return "hipErrorNotMappedAsArray";
    case 213: return "hipErrorNotMappedAsPointer";
    case 214: return "hipErrorECCNotCorrectable";
    case 215: return "hipErrorUnsupportedLimit";
    case 216: return "hipErrorContextAlreadyInUse";
    case 217: return "hipErrorPeerAccessUnsupported";
    case 218: return "hipErrorInvalidKernelFile";
    case 219: return "hipErrorInvalidGraphicsContext";
    case 300: return "hipErrorInvalidSource";
    case 301: return "hipErrorFileNotFound";
    case 302: return "hipErrorSharedObjectSymbolNotFound";
    case 303: return "hipErrorSharedObjectInitFailed";
    case 304: return "hipErrorOperatingSystem";
    case 400: return "hipErrorInvalidHandle";
    case 401: return "hipErrorIllegalState";
    case 500: return "hipErrorNotFound";
    case 600: return "hipErrorNotReady";
    case 700: return "hipErrorIllegalAddress";
    case 701: return "hipErrorLaunchOutOfResources";
    case 702: return "hipErrorLaunchTimeOut";
    case 704: return "hipErrorPeerAccessAlreadyEnabled";
    case 705: return "hipErrorPeerAccessNotEnabled";
    case 708: return "hipErrorSetOnActiveProcess";
    case 709: return "hipErrorContextIsDestroyed";
    case 710: return "hipErrorAssert";
    case 712: return "hipErrorHostMemoryAlreadyRegistered";
    case 713: return "hipErrorHostMemoryNotRegistered";
    case 719: return "hipErrorLaunchFailure";
    case 720: return "hipErrorCooperativeLaunchTooLarge";
    case 801: return "hipErrorNotSupported";
    case 900: return "hipErrorStreamCaptureUnsupported";
    case 901: return "hipErrorStreamCaptureInvalidated";
    case 902: return "hipErrorStreamCaptureMerge";
    case 903: return "hipErrorStreamCaptureUnmatched";
    case 904: return "hipErrorStreamCaptureUnjoined";
    case 905: return "hipErrorStreamCaptureIsolation";
    case 906: return "hipErrorStreamCaptureImplicit";
    case 907: return "hipErrorCapturedEvent";
    case 908: return "hipErrorStreamCaptureWrongThread";
    case 910: return "hipErrorGraphExecUpdateFailure";
    case 911: return "hipErrorInvalidChannelDescriptor";
    case 912: return "hipErrorInvalidTexture";
    case 1052: return "hipErrorRuntimeMemory";
    case 1053: return "hipErrorRuntimeOther";
    case 1054: return "hipErrorTbd";
    default: return "hipErrorUnknown";
  }
}
#endif
#endif
//@ end
