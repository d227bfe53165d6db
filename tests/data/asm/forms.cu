#include <cuda_runtime.h>
__global__ void k(unsigned a, unsigned b, const float* p, float* q, int* ctr, unsigned* u,
                  unsigned long long* w, const uint4* v4, float f, float g, unsigned short* hs) {
  __shared__ unsigned smem[64];
  unsigned lane, hi, r, x, smid, t32, c0, c1, c2, c3, old;
  unsigned long long gt, c64, wide;
  int shi;
  float v, e2, l2, rc, th;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c64));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t32));
  asm("mov.u32 %0, %%tid.x;" : "=r"(x));
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(hi) : "r"(a), "r"(b));
  asm("mul.hi.s32 %0, %1, %2;" : "=r"(shi) : "r"(a), "r"(b));
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(wide) : "r"(a), "r"(b));
  asm("prmt.b32 %0, %1, %2, 0x5410;" : "=r"(r) : "r"(a), "r"(b));
  asm("prmt.b32 %0, %1, %2, 0x8880;" : "=r"(r) : "r"(a), "r"(b));
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(x) : "r"(a), "r"(b), "r"(r));
  asm("lop3.b32 %0, %1, %2, %3, 0x4D;\n\t" : "=r"(x) : "r"(a), "r"(b), "r"(x));
  asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
  asm volatile("ld.global.cs.f32 %0, [%1+4];" : "=f"(v) : "l"(p));
  asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(c0), "=r"(c1), "=r"(c2), "=r"(c3) : "l"(v4));
  asm volatile("st.global.cs.f32 [%0], %1;" :: "l"(q), "f"(v) : "memory");
  asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(u), "r"(c0), "r"(c1), "r"(c2), "r"(c3) : "memory");
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(old) : "l"(u));
  asm volatile("ld.global.acquire.gpu.b32 %0, [%1];" : "=r"(old) : "l"(u));
  asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(old) : "l"(u));
  asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(old) : "l"(u));
  asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(u), "r"(a) : "memory");
  asm volatile("red.release.gpu.global.add.s32 [%0], %1;" ::"l"(ctr), "r"(1));
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"(q), "f"(v));
  asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(u), "r"(a));
  asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(u), "r"(a), "r"(b));
  asm volatile("atom.acq_rel.gpu.global.exch.b64 %0, [%1], %2;" : "=l"(wide) : "l"(w), "l"(wide));
  asm volatile("atom.global.max.s32 %0, [%1], %2;" : "=r"(shi) : "l"(ctr), "r"(shi));
  asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(old) : "r"((unsigned)(size_t)smem), "r"(a));
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  asm volatile("fence.sc.cta;" ::: "memory");
  asm volatile("membar.sys;");
  asm volatile("bar.sync 0;");
  asm volatile("barrier.sync 0;");
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(r), "r"(4));
  asm volatile("shfl.sync.up.b32 %0, %1, %2, 0x0, 0xffffffff;" : "=r"(r) : "r"(r), "r"(1));
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x101f, -1;" : "=r"(r) : "r"(r), "r"(0));
  asm volatile("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(f), "f"(g));
  asm volatile("cvt.rn.bf16x2.f32 %0, %1, %2;\n\t" : "=r"(r) : "r"(a), "r"(b));
  asm volatile("{cvt.rn.satfinite.e4m3x2.f32 %0, %2, %1;}\n" : "=h"(hs[8]) : "f"(f), "f"(g));
  asm volatile("cvt.rn.e5m2x2.f32.satfinite %0, %2, %1;" : "=h"(hs[9]) : "f"(f), "f"(g));
  asm volatile("cvt.satfinite.rn.e4m3x2.f16x2 %0, %1;" : "=h"(hs[10]) : "r"(a));
  asm volatile("cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;" : "=h"(hs[11]) : "r"(b));
  asm volatile("cvt.rn.satfinite.e4m3x2.bf16x2 %0, %1;" : "=h"(hs[16]) : "r"(a));
  asm volatile("cvt.rn.satfinite.e5m2x2.bf16x2 %0, %1;" : "=h"(hs[17]) : "r"(b));
  asm volatile("{\n.reg .b32 d0;\n.reg .b16 s0, s1;\nmov.b32 {s0, s1}, %1;\ncvt.rn.f16x2.e4m3x2 %0, s0;\n"
               "cvt.rn.f16x2.e5m2x2 d0, s1;\nxor.b32 %0, %0, d0;\n}" : "=r"(r) : "r"(a));
  asm volatile("{\n.reg .b8 byte0, byte1, byte2, byte3;\ncvt.rn.satfinite.e2m1x2.f32 byte0, %2, %1;\n"
               "cvt.rn.satfinite.e2m1x2.f32 byte1, %4, %3;\ncvt.rn.satfinite.e2m1x2.f32 byte2, %2, %3;\n"
               "cvt.rn.satfinite.e2m1x2.f32 byte3, %1, %4;\nmov.b32 %0, {byte0, byte1, byte2, byte3};\n}"
               : "=r"(u[40]) : "f"(f), "f"(g), "f"(p[8]), "f"(p[9]));
  asm volatile("{\ncvt.rp.satfinite.ue8m0x2.f32 %0, 0.0, %1;\n}" : "=h"(hs[12]) : "f"(f));
  asm volatile("cvt.rni.sat.s8.f32 %0, %1;" : "=h"(hs[15]) : "f"(f));
  asm volatile("fma.rn.f32x2 %0, %1, %2, %3;" : "=l"(w[4]) : "l"(w[5]), "l"(w[6]), "l"(w[7]));
  asm volatile("mul.f32x2 %0, %1, %2;" : "=l"(w[8]) : "l"(w[9]), "l"(w[10]));
  asm volatile("redux.sync.max.u32 %0, %1, 0xffffffff;\n" : "=r"(u[46]) : "r"(a));
  asm volatile("redux.sync.add.s32 %0, %1, -1;" : "=r"(u[47]) : "r"(b));
  asm volatile("redux.sync.xor.b32 %0, %1, 0xffffffff;" : "=r"(u[48]) : "r"(u[49]));
  asm volatile("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(q[5]) : "f"(g));
  asm volatile("{\n.reg .b64 la, lc;\nmov.b64 la, {%0, %1};\nmov.b64 lc, {%2, %2};\nadd.rn.ftz.f32x2 la, la, lc;\nsub.rn.f32x2 la, la, lc;\nmul.rn.f32x2 la, la, lc;\nfma.rn.ftz.f32x2 la, la, lc, la;\nmov.b64 {%0, %1}, la;\n}" : "+f"(f), "+f"(g) : "f"(p[3]));
  asm volatile("cvt.rni.sat.s8.f16 %0, %1;" : "=r"(u[44]) : "h"(hs[0]));
  asm volatile("{.reg .b32 t8;\ncvt.rni.sat.s8.f32 t8, %1;\nmov.b32 %0, t8;}" : "=r"(u[45]) : "f"(g));
  asm volatile("cvt.rz.ue8m0x2.bf16x2 %0, %1;" : "=h"(hs[13]) : "r"(a));
  asm volatile("cvt.rn.bf16x2.ue8m0x2 %0, %1;" : "=r"(u[43]) : "h"(hs[14]));
  asm volatile("{\n.reg .b8 byte0, byte2;\nmov.b32 {byte0, _, byte2, _}, %2;\ncvt.rn.f16x2.e2m1x2 %0, byte0;\n"
               "cvt.rn.bf16x2.e2m1x2 %1, byte2;\n}" : "=r"(u[41]), "=r"(u[42]) : "r"(a));
  asm volatile("ex2.approx.f32 %0, %1;" : "=f"(e2) : "f"(f));
  asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(e2) : "f"(e2));
  asm volatile("lg2.approx.f32 %0, %1;" : "=f"(l2) : "f"(f));
  asm volatile("rcp.approx.f32 %0, %1;" : "=f"(rc) : "f"(f));
  asm volatile("tanh.approx.f32 %0, %1;" : "=f"(th) : "f"(f));
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;");
  asm volatile("mov.b32 %0, {%1, %2};" : "=r"(r) : "h"(hs[0]), "h"(hs[1]));
  asm volatile("mov.b32 {%0, %1}, %2;" : "=h"(hs[2]), "=h"(hs[3]) : "r"(r));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((unsigned)(size_t)&smem[4]), "l"(v4));
  asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], 4;\n" ::"r"((unsigned)(size_t)&smem[8]), "l"(u));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"((unsigned)(size_t)&smem[12]), "l"(v4), "r"(a & 16));
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group %0;\n" ::"n"(0));
  asm volatile("cp.async.wait_all;");
  asm volatile("{\n\t.reg .b32 t1;\n\tmul.hi.u32 t1, %1, %2;\n\tmov.b32 %0, t1;\n\t}" : "=r"(hi) : "r"(a), "r"(b));
  asm volatile("{ .reg .b64 t; mul.wide.u32 t, %1, %2; mov.b64 {%0, %1}, t; }" : "=r"(c0), "+r"(c1) : "r"(a));
  asm volatile("max.xorsign.abs.bf16x2 %0, %1, %2;\n\t" : "=r"(c0) : "r"(c0), "r"(c1));
  asm volatile("min.NaN.f16x2 %0, %1, %2;" : "=r"(c1) : "r"(c0), "r"(c1));
  asm volatile("max.f32 %0, %1, %2;" : "=f"(v) : "f"(v), "f"(f));
  asm volatile("max.s32 %0, %1, %2;" : "=r"(shi) : "r"(shi), "r"(a));
  asm volatile("{\n\t.reg .pred p;\n\tsetp.eq.u32 p, %2, 1;\n\t@p atom.global.add.u32 %0, [%1], 1;\n\t}" : "=r"(old) : "l"(u), "r"(a));
  asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.f32 q, %1, %2;\n\tselp.b32 %0, 1, 0, q;\n}" : "=r"(c2) : "f"(f), "f"(g));
  asm volatile("{\n\t.reg .pred q;\n\tsetp.lt.s32 q, %1, 0;\n\t@!q add.u32 %0, %0, %1;\n}" : "+r"(c3) : "r"(a));
  asm("add.s32 %0, %1, %2;" : "=r"(shi) : "r"(shi), "r"(a));
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(c3) : "r"(a), "r"(b), "r"(c3));
  asm("xor.b32 %0, %1, %2;" : "=r"(c3) : "r"(a), "r"(c3));
  asm("cvt.u16.u32 %0, %1;" : "=h"(hs[4]) : "r"(a));
  asm("cvt.f32.bf16 %0, %1;" : "=f"(e2) : "h"(hs[4]));
  asm("cvt.f32.f16 %0, %1;" : "=f"(l2) : "h"(hs[5]));
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(hs[6]) : "f"(f));
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(hs[7]) : "f"(f));
  asm volatile("mov.b64 {%0,%1,%2,%3}, %4;" : "=h"(hs[0]), "=h"(hs[1]), "=h"(hs[2]), "=h"(hs[3]) : "l"(wide));
  asm volatile("mov.b64 %0, {%1,%2,%3,%4};" : "=l"(wide) : "h"(hs[0]), "h"(hs[1]), "h"(hs[2]), "h"(hs[3]));
  asm volatile("{\n.reg .bf16x2 m;\nmax.bf16x2 m, %1, %2;\nmov.b32 %0, m;\n}" : "=r"(c0) : "r"(c1), "r"(c2));
  asm volatile("mov.b32 %0, {%1,%2,%3,%4};" : "=r"(c3) : "h"(hs[0]), "h"(hs[1]), "h"(hs[2]), "h"(hs[3]));
  asm volatile("ld.shared.u32 {%0}, [%1];\n" : "=r"(c0) : "r"(c1));
  asm volatile("mov.u16 %0, 0;\n" : "=h"(hs[1]));
  asm volatile("ld.volatile.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(c0), "=r"(c1), "=r"(c2), "=r"(c3) : "l"(u));
  asm volatile("st.volatile.global.v4.u32 [%4], {%0,%1,%2,%3};" :: "r"(c0), "r"(c1), "r"(c2), "r"(c3), "l"(u));
  asm volatile("ld.acquire.global.sys.v4.b32 {%0,%1,%2,%3}, [%4];" : "=r"(c0), "=r"(c1), "=r"(c2), "=r"(c3) : "l"(u));
  asm volatile("st.release.global.sys.v4.b32 [%4], {%0,%1,%2,%3};" :: "r"(c0), "r"(c1), "r"(c2), "r"(c3), "l"(u));
  asm volatile("cvta.to.shared.u64 %0, %1;" : "=l"(wide) : "l"(&smem[2]));
  asm volatile("cvta.shared.u64 %0, %1;" : "=l"(wide) : "l"(wide));
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %0, 0;\n@p cp.async.ca.shared.global [%1], [%2], %3;\n}\n" :: "r"(c0), "r"(c1), "l"(u), "n"(sizeof(float4)));
  asm volatile("cp.async.cg.shared.global [%0], [%1], %2;" :: "r"(c1), "l"(u), "n"(8));
  if (c0 == 12345u) asm volatile("trap;");
  asm volatile("{.reg .u32 tmp, i0, i1;\ncvt.rni.s32.f32 i0, %1;\ncvt.rzi.s32.f32 i1, %2;\n"
               "cvt.pack.sat.u8.s32.b32 tmp, i0, i1, 0;\ncvt.pack.sat.s8.s32.b32 %0, i0, i1, tmp;}\n"
               : "=r"(c3) : "f"(f), "f"(f));
  asm("cvt.pack.sat.s16.s32 %0, %1, %2;" : "=r"(c2) : "r"(c0), "r"(c1));
  asm("add.cc.u32 %0, %2, %4;\n addc.u32 %1, %3, %5;" : "=r"(c0), "=r"(c1) : "r"(c2), "r"(c3), "r"(a), "r"(b));
  asm("sub.cc.u32 %0, %2, %4;\n subc.cc.u32 %1, %3, %5;" : "=r"(c2), "=r"(c3) : "r"(c0), "r"(c1), "r"(a), "r"(b));
  asm volatile("ex2.approx.f16x2 %0, %1;" : "=r"(c1) : "r"(c2));
  asm volatile("tanh.approx.f16 %0, %1;" : "=h"(hs[2]) : "h"(hs[3]));
  asm volatile("prmt.b32 %0, %1, %2, %3;\n" : "=r"(c2) : "r"(c0), "r"(c1), "r"(c3));
  // (flashinfer: %globaltimer_lo written with one %, brkpt on an error path)
  asm volatile("mov.u32 %0, %globaltimer_lo;" : "=r"(u[50]));
  asm volatile("mov.u32 %0, %%globaltimer_hi;" : "=r"(u[51]));
  asm volatile("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(*(double*)&w[2]) : "d"(*(double*)&w[3]));
  if (u[52] == 54321u) asm volatile("brkpt;\n" ::);
  asm volatile("mul.f32 %0, %0, %1;\n" : "+r"(u[53]) : "f"(f));
  asm("{\n\tshl.b32 %0, %2, 16;\n\tand.b32 %1, %2, 0xffff0000;\n\t}\n" : "=f"(q[1]), "=f"(q[2]) : "r"(u[54]));
  asm("shr.s32 %0, %1, %2;" : "=r"(u[55]) : "r"(u[56]), "r"(a));
  asm("shr.u32 %0, %1, 4;" : "=r"(u[57]) : "r"(u[58]));
  asm("neg.f32 %0, %1;" : "=f"(q[3]) : "f"(g));
  asm("{\n.reg .f32 t;\nmul.rn.f32 t, %1, %2;\nadd.rz.f32 t, t, %2;\nfma.rn.f32 %0, t, %1, %2;\nfma.rm.f32 %0, %0, t, %1;\n}"
      : "=f"(q[4]) : "f"(f), "f"(g));
  asm volatile("cp.async.cg.shared::cta.global [%0], [%1], 16, %2;" :: "r"(c1), "l"(v4), "r"(a & 16));
  asm volatile("{\n  lop3.b32 %0, %0, %1, %2, %3;\n}\n" : "+r"(u[59]) : "n"(0x01800180U), "r"(u[60]), "n"((0xf0 & 0xcc) | 0xaa));
  asm volatile("{\n\t.reg .b16 a_lo, a_hi, b_lo, b_hi;\n\tmov.b32 {a_lo, a_hi}, %1;\n\tmov.b32 {b_lo, b_hi}, %2;\n\t"
               "fma.rn.f32.bf16 %0, a_lo, b_lo, %3;\n\tfma.rn.f32.bf16 %0, a_hi, b_hi, %0;\n\t}\n" : "=f"(q[5]) : "r"(a), "r"(b), "f"(f));
  asm volatile("{\n\t.reg .b16 lo, hi;\n\tmov.b32 {lo, hi}, %2;\n\tadd.rn.f32.bf16 %0, lo, %3;\n\tsub.rn.f32.f16 %1, hi, %3;\n\t}\n"
               : "=f"(q[6]), "=f"(q[7]) : "r"(a), "f"(g));
  asm volatile("atom.acq_rel.gpu.global.inc.u32 %0, [%1], %2;\n" : "=r"(u[61]) : "l"(u + 62), "r"(a));
  asm volatile("atom.global.dec.u32 %0, [%1], %2;" : "=r"(u[63]) : "l"(u + 64), "r"(b));
  asm volatile("red.sys.global.inc.u32 [%0], %1;" :: "l"(u + 65), "r"(b));
  asm volatile("red.cta.global.dec.u32 [%0], %1;" :: "l"(u + 66), "r"(b));
  u[0] = lane + hi + r + x + smid + t32 + c0 + c1 + c2 + c3 + old + shi + (unsigned)(gt + c64 + wide) + smem[threadIdx.x % 64];
  q[0] = v + e2 + l2 + rc + th;
}
