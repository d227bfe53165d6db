// Every construct cudaport ports to HIP under issue 29 (the device-function half), in one
// file: tests/test_portable.py translates it and compiles the result to object code.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_fp4.h>
// nvtx begin
#include <nvtx3/nvToolsExt.h>
void ranges() {
  nvtxRangePushA("a"); nvtxMarkA("m"); nvtxRangeId_t r = nvtxRangeStartA("r");
  nvtxRangeEnd(r); nvtxRangePop();
}
// nvtx end

__global__ void simd(unsigned* o, const unsigned* a) {
  unsigned x = a[0], y = a[1];
  o[0] = __vabs2(x);
  o[1] = __vabs4(x);
  o[2] = __vabsdiffs2(x, y);
  o[3] = __vabsdiffs4(x, y);
  o[4] = __vabsdiffu2(x, y);
  o[5] = __vabsdiffu4(x, y);
  o[6] = __vabsss2(x);
  o[7] = __vabsss4(x);
  o[8] = __vadd2(x, y);
  o[9] = __vadd4(x, y);
  o[10] = __vaddss2(x, y);
  o[11] = __vaddss4(x, y);
  o[12] = __vaddus2(x, y);
  o[13] = __vaddus4(x, y);
  o[14] = __vavgs2(x, y);
  o[15] = __vavgs4(x, y);
  o[16] = __vavgu2(x, y);
  o[17] = __vavgu4(x, y);
  o[18] = __vcmpeq2(x, y);
  o[19] = __vcmpeq4(x, y);
  o[20] = __vcmpges2(x, y);
  o[21] = __vcmpges4(x, y);
  o[22] = __vcmpgeu2(x, y);
  o[23] = __vcmpgeu4(x, y);
  o[24] = __vcmpgts2(x, y);
  o[25] = __vcmpgts4(x, y);
  o[26] = __vcmpgtu2(x, y);
  o[27] = __vcmpgtu4(x, y);
  o[28] = __vcmples2(x, y);
  o[29] = __vcmples4(x, y);
  o[30] = __vcmpleu2(x, y);
  o[31] = __vcmpleu4(x, y);
  o[32] = __vcmplts2(x, y);
  o[33] = __vcmplts4(x, y);
  o[34] = __vcmpltu2(x, y);
  o[35] = __vcmpltu4(x, y);
  o[36] = __vcmpne2(x, y);
  o[37] = __vcmpne4(x, y);
  o[38] = __vhaddu2(x, y);
  o[39] = __vhaddu4(x, y);
  o[40] = __vmaxs2(x, y);
  o[41] = __vmaxs4(x, y);
  o[42] = __vmaxu2(x, y);
  o[43] = __vmaxu4(x, y);
  o[44] = __vmins2(x, y);
  o[45] = __vmins4(x, y);
  o[46] = __vminu2(x, y);
  o[47] = __vminu4(x, y);
  o[48] = __vneg2(x);
  o[49] = __vneg4(x);
  o[50] = __vnegss2(x);
  o[51] = __vnegss4(x);
  o[52] = __vsads2(x, y);
  o[53] = __vsads4(x, y);
  o[54] = __vsadu2(x, y);
  o[55] = __vsadu4(x, y);
  o[56] = __vseteq2(x, y);
  o[57] = __vseteq4(x, y);
  o[58] = __vsetges2(x, y);
  o[59] = __vsetges4(x, y);
  o[60] = __vsetgeu2(x, y);
  o[61] = __vsetgeu4(x, y);
  o[62] = __vsetgts2(x, y);
  o[63] = __vsetgts4(x, y);
  o[64] = __vsetgtu2(x, y);
  o[65] = __vsetgtu4(x, y);
  o[66] = __vsetles2(x, y);
  o[67] = __vsetles4(x, y);
  o[68] = __vsetleu2(x, y);
  o[69] = __vsetleu4(x, y);
  o[70] = __vsetlts2(x, y);
  o[71] = __vsetlts4(x, y);
  o[72] = __vsetltu2(x, y);
  o[73] = __vsetltu4(x, y);
  o[74] = __vsetne2(x, y);
  o[75] = __vsetne4(x, y);
  o[76] = __vsub2(x, y);
  o[77] = __vsub4(x, y);
  o[78] = __vsubss2(x, y);
  o[79] = __vsubss4(x, y);
  o[80] = __vsubus2(x, y);
  o[81] = __vsubus4(x, y);
  o[100] = __dp4a((int)x, (int)y, 1) + __dp4a(x, y, 2u) + __dp2a_lo((int)x, (int)y, 3)
      + __dp2a_hi(x, y, 4u);
  o[101] = __reduce_add_sync(0xffffffff, x) + __reduce_min_sync(0xffffffff, x) + __reduce_max_sync(0xffffffff, x);
  o[102] = __reduce_and_sync(0xffffffff, x) | __reduce_or_sync(0xffffffff, x) | __reduce_xor_sync(0xffffffff, x);
}

__global__ void pairs(unsigned* o, __half2* h, nv_bfloat162* b, nv_half2* nh, nv_half* n1) {
  h[2] = __hmax2(h[0], h[1]); b[2] = __hmax2(b[0], b[1]);
  h[3] = __hmin2(h[0], h[1]); b[3] = __hmin2(b[0], b[1]);
  h[4] = __hmax2_nan(h[0], h[1]); b[4] = __hmax2_nan(b[0], b[1]);
  h[5] = __hmin2_nan(h[0], h[1]); b[5] = __hmin2_nan(b[0], b[1]);
  o[4] = __heq2_mask(h[0], h[1]) ^ __heq2_mask(b[0], b[1]);
  o[5] = __hne2_mask(h[0], h[1]) ^ __hne2_mask(b[0], b[1]);
  o[6] = __hle2_mask(h[0], h[1]) ^ __hle2_mask(b[0], b[1]);
  o[7] = __hge2_mask(h[0], h[1]) ^ __hge2_mask(b[0], b[1]);
  o[8] = __hlt2_mask(h[0], h[1]) ^ __hlt2_mask(b[0], b[1]);
  o[9] = __hgt2_mask(h[0], h[1]) ^ __hgt2_mask(b[0], b[1]);
  o[10] = __hequ2_mask(h[0], h[1]) ^ __hequ2_mask(b[0], b[1]);
  o[11] = __hneu2_mask(h[0], h[1]) ^ __hneu2_mask(b[0], b[1]);
  o[12] = __hleu2_mask(h[0], h[1]) ^ __hleu2_mask(b[0], b[1]);
  o[13] = __hgeu2_mask(h[0], h[1]) ^ __hgeu2_mask(b[0], b[1]);
  o[14] = __hltu2_mask(h[0], h[1]) ^ __hltu2_mask(b[0], b[1]);
  o[15] = __hgtu2_mask(h[0], h[1]) ^ __hgtu2_mask(b[0], b[1]);
  nh[0] = make_half2(n1[0], n1[1]);
}

__global__ void floats(float* f, nv_bfloat162* b, __nv_bfloat16* s) {
  f[0] = __fadd_rd(f[40], f[41]);
  f[1] = __fadd_ru(f[40], f[41]);
  f[2] = __fadd_rz(f[40], f[41]);
  f[3] = __fsub_rd(f[40], f[41]);
  f[4] = __fsub_ru(f[40], f[41]);
  f[5] = __fsub_rz(f[40], f[41]);
  f[6] = __fmul_rd(f[40], f[41]);
  f[7] = __fmul_ru(f[40], f[41]);
  f[8] = __fmul_rz(f[40], f[41]);
  f[9] = __fdiv_rd(f[40], f[41]);
  f[10] = __fdiv_ru(f[40], f[41]);
  f[11] = __fdiv_rz(f[40], f[41]);
  f[12] = __frcp_rd(f[40]);
  f[13] = __frcp_ru(f[40]);
  f[14] = __frcp_rz(f[40]);
  f[15] = __fsqrt_rd(f[40]);
  f[16] = __fsqrt_ru(f[40]);
  f[17] = __fsqrt_rz(f[40]);
  f[18] = __fmaf_rd(f[40], f[41], f[42]);
  f[19] = __fmaf_ru(f[40], f[41], f[42]);
  f[20] = __fmaf_rz(f[40], f[41], f[42]);
  b[0] = __floats2bfloat162_rn(f[0], f[1]);
  b[1] = __float2bfloat162_rn(f[2]);
  b[2] = make_bfloat162(__float2bfloat16_rn(f[3]), s[0]);
  f[50] = __ldcg(f + 51) + __ldca(f + 52) + __ldcs(f + 53) + __ldlu(f + 54);
  float4 v = __ldcg(reinterpret_cast<const float4*>(f) + 20);
  __stcg(f + 55, v.x); __stcs(f + 56, v.y); __stwt(f + 57, v.z); __stwb(f + 58, v.w);
  __stcg(reinterpret_cast<float4*>(f) + 21, v);
  f[59] = __ldcv(f + 60) + __ldcv(reinterpret_cast<const float4*>(f) + 22).w;
  b[3] = __ldcv(b + 4);
  s[1] = __ldcv(s + 2);
}

__global__ void doubles(double* d, double2* d2, const char2* c2, char2* oc2, const __half* h, __half* oh) {
  d[0] = __dadd_rd(d[40], d[41]);
  d[1] = __dadd_ru(d[40], d[41]);
  d[2] = __dadd_rz(d[40], d[41]);
  d[3] = __dsub_rd(d[40], d[41]);
  d[4] = __dsub_ru(d[40], d[41]);
  d[5] = __dsub_rz(d[40], d[41]);
  d[6] = __dmul_rd(d[40], d[41]);
  d[7] = __dmul_ru(d[40], d[41]);
  d[8] = __dmul_rz(d[40], d[41]);
  d[9] = __ddiv_rd(d[40], d[41]);
  d[10] = __ddiv_ru(d[40], d[41]);
  d[11] = __ddiv_rz(d[40], d[41]);
  d[12] = __drcp_rd(d[40]);
  d[13] = __drcp_ru(d[40]);
  d[14] = __drcp_rz(d[40]);
  d[15] = __dsqrt_rd(d[40]);
  d[16] = __dsqrt_ru(d[40]);
  d[17] = __dsqrt_rz(d[40]);
  d[18] = __ldcv(d + 42);
  d[19] = __fma_rd(d[40], d[41], d[43]);
  d[20] = __fma_ru(d[40], d[41], d[43]);
  d[21] = __fma_rz(d[40], d[41], d[43]);
  d2[0] = __ldcv(d2 + 1);
  oc2[0] = __ldcv(c2);
  oh[0] = __ldcv(h);
  oh[1] = __double2half(d[40]);
}

__global__ void lowp(const float* f, unsigned char* e, unsigned short* q, __half2* h, nv_bfloat16* b, float* o) {
  b[0] = __nv_cvt_e8m0_to_bf16raw(e[0]);
  b[1] = __int2bfloat16_rn((int)q[0] << 16 | q[1]);
  o[20] = (float)(__bfloat162int_rn(b[0]) + __bfloat162uint_rz(b[0]) + __bfloat162ll_rd(b[0]) +
                  __bfloat162ull_ru(b[0]) + __bfloat162short_rn(b[0]) + __bfloat162ushort_rd(b[0]) +
                  __bfloat162char_rz(b[0]) + __bfloat162uchar_rz(b[0]));
  o[21] = __tanhf(f[0]);
  b[2] = __ull2bfloat16_rd((unsigned long long)q[2] << 40);
  b[3] = __short2bfloat16_ru((short)q[3]);
  const __nv_fp4x4_e2m1 four(make_float4(f[0], f[1], f[2], f[3]));
  const __nv_fp4x4_storage_t storage = four.__x;
  const __nv_fp4x2_storage_t lo = static_cast<__nv_fp4x2_storage_t>(storage);
  const __half2_raw raw = __nv_cvt_fp4x2_to_halfraw2(lo, __NV_E2M1);
  h[0] = raw;
  __nv_fp4_storage_t one = __nv_cvt_float_to_fp4(f[4], __NV_E2M1, cudaRoundZero);
  __nv_fp4x2_storage_t two = __nv_cvt_float2_to_fp4x2(make_float2(f[5], f[6]), __NV_E2M1, cudaRoundNearest);
  const __half_raw r1 = __nv_cvt_fp4_to_halfraw(one, __NV_E2M1);
  __nv_fp4_e2m1 v(f[7]);
  __nv_fp4x2_e2m1 w(make_float2(f[8], f[9]));
  q[0] = one | two << 4 | w.__x << 8 | r1.x;
  b[1] = __float2bfloat16(float(v));
  const __nv_fp8x2_storage_t p8 = __nv_cvt_float2_to_fp8x2(make_float2(f[10], f[11]), __NV_SATFINITE, __NV_E4M3);
  const __nv_fp8_storage_t s8 = __nv_cvt_float_to_fp8(f[12], __NV_NOSAT, __NV_E5M2);
  const __nv_fp8_storage_t d8 = __nv_cvt_double_to_fp8((double)f[13], __NV_SATFINITE, __NV_E5M2);
  const __nv_fp8x2_storage_t dd8 = __nv_cvt_double2_to_fp8x2(make_double2(f[14], f[15]), __NV_NOSAT, __NV_E4M3);
  const __nv_fp8x2_storage_t h8 = __nv_cvt_halfraw2_to_fp8x2(raw, __NV_SATFINITE, __NV_E4M3);
  const __nv_fp8_storage_t r8 = __nv_cvt_halfraw_to_fp8(r1, __NV_SATFINITE, __NV_E5M2);
  const __nv_fp8_storage_t b8 = __nv_cvt_bfloat16raw_to_fp8(b[2], __NV_SATFINITE, __NV_E4M3);
  __nv_bfloat162_raw pair;
  pair.x = 0x3F80;
  pair.y = 0xC000;
  const __nv_fp8x2_storage_t bb8 = __nv_cvt_bfloat16raw2_to_fp8x2(pair, __NV_NOSAT, __NV_E5M2);
  const __half2_raw back = __nv_cvt_fp8x2_to_halfraw2(p8, __NV_E4M3);
  const __half_raw one8 = __nv_cvt_fp8_to_halfraw(s8, __NV_E5M2);
  h[1] = back;
  q[1] = p8 ^ s8 ^ d8 ^ dd8 ^ h8 ^ r8 ^ b8 ^ bb8 ^ one8.x;
  const __nv_fp8_storage_t e1 = __nv_cvt_float_to_e8m0(f[16], __NV_SATFINITE, cudaRoundPosInf);
  const __nv_fp8_storage_t e2 = __nv_cvt_double_to_e8m0((double)f[17], __NV_NOSAT, cudaRoundZero);
  const __nv_fp8_storage_t e3 = __nv_cvt_bfloat16raw_to_e8m0(b[3], __NV_SATFINITE, cudaRoundZero);
  const __nv_fp8x2_storage_t e4 = __nv_cvt_float2_to_e8m0x2(make_float2(f[18], f[19]), __NV_NOSAT, cudaRoundPosInf);
  const __nv_fp8x2_storage_t e5 = __nv_cvt_double2_to_e8m0x2(make_double2(f[20], f[21]), __NV_SATFINITE, cudaRoundPosInf);
  const __nv_fp8x2_storage_t e6 = __nv_cvt_bfloat162raw_to_e8m0x2(pair, __NV_SATFINITE, cudaRoundPosInf);
  const __nv_bfloat162_raw scales = __nv_cvt_e8m0x2_to_bf162raw(e4);
  __nv_fp8_e8m0 scale(f[22]);
  scale.__x ^= e1 ^ e2 ^ e3 ^ e5 ^ e6 ^ scales.y;
  o[0] = static_cast<float>(scale) + static_cast<float>(__nv_fp8_e8m0(static_cast<double>(f[23])));
}

__global__ void dpx(int* o, unsigned* u, bool* p) {
  int a = o[0], b = o[1], c = o[2];
  unsigned x = u[0], y = u[1], z = u[2];
  u[3] = __vimax3_s32(a, b, c);
  u[4] = __vimin3_s32(a, b, c);
  u[5] = __viaddmax_s32(a, b, c);
  u[6] = __viaddmin_s32(a, b, c);
  u[7] = __vimax3_u32(x, y, z);
  u[8] = __vimin3_u32(x, y, z);
  u[9] = __viaddmax_u32(x, y, z);
  u[10] = __viaddmin_u32(x, y, z);
  u[11] = __vimax3_s16x2(x, y, z);
  u[12] = __vimin3_s16x2(x, y, z);
  u[13] = __viaddmax_s16x2(x, y, z);
  u[14] = __viaddmin_s16x2(x, y, z);
  u[15] = __vimax3_u16x2(x, y, z);
  u[16] = __vimin3_u16x2(x, y, z);
  u[17] = __viaddmax_u16x2(x, y, z);
  u[18] = __viaddmin_u16x2(x, y, z);
  u[19] = __vimax_s32_relu(a, b);
  u[20] = __vimin_s32_relu(a, b);
  u[21] = __vimax3_s32_relu(a, b, c);
  u[22] = __vimin3_s32_relu(a, b, c);
  u[23] = __viaddmax_s32_relu(a, b, c);
  u[24] = __viaddmin_s32_relu(a, b, c);
  u[25] = __vimax_s16x2_relu(x, y);
  u[26] = __vimin_s16x2_relu(x, y);
  u[27] = __vimax3_s16x2_relu(x, y, z);
  u[28] = __vimin3_s16x2_relu(x, y, z);
  u[29] = __viaddmax_s16x2_relu(x, y, z);
  u[30] = __viaddmin_s16x2_relu(x, y, z);
  u[31] = __vibmax_s32(a, b, p + 2);
  u[32] = __vibmax_u32(x, y, p + 2);
  u[33] = __vibmax_s16x2(x, y, p, p + 1);
  u[34] = __vibmax_u16x2(x, y, p, p + 1);
  u[35] = __vibmin_s32(a, b, p + 2);
  u[36] = __vibmin_u32(x, y, p + 2);
  u[37] = __vibmin_s16x2(x, y, p, p + 1);
  u[38] = __vibmin_u16x2(x, y, p, p + 1);
}

__global__ void sleepy(unsigned ns) { __nanosleep(ns); __nanosleep(100); }

__global__ void spaces(float* out, unsigned* o, float x) {
  __shared__ float s[64];
  float local[4] = {x, x, x, x};
  s[threadIdx.x] = x;
  __syncthreads();
  size_t a = __cvta_generic_to_shared(&s[threadIdx.x]);
  o[threadIdx.x] = (unsigned)a;
  size_t l = __cvta_generic_to_local(&local[threadIdx.x & 3]);
  out[threadIdx.x] = *(float*)__cvta_shared_to_generic(a) + *(float*)__cvta_local_to_generic(l)
      + *(float*)__cvta_global_to_generic(__cvta_generic_to_global(out));
  o[64] = __isnanf(x);
  out[65] = __fmaf_ieee_rn(x, x, x);
}
