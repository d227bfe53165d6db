"""Inline assembly is told apart by its instructions (cudaport/translate/ptx.py): PTX is reported
(CP210), a HIP project's own AMD GPU assembly, LLVM AMDGPU intrinsic labels and empty
barriers are not (ROCm/aiter had 393 of 394 blocked files blocked by those alone)."""

from __future__ import annotations

import subprocess

import pytest

from conftest import rocm_wrapper
from cudaport.translate import ptx
from cudaport.translate.pipeline import translate_source


def _dialect(statement: str) -> str:
    src = statement.encode()
    (asm,) = ptx.asm_statements(src)
    return ptx.dialect(asm)


@pytest.mark.parametrize("statement, expected", [
    # AMD GCN/CDNA instructions (aiter's kernels)
    ('asm volatile("s_waitcnt vmcnt(0)" ::: "memory");', "amdgcn"),
    ('asm volatile("s_waitcnt lgkmcnt(0)\\n\\ts_nop 0\\n" ::: "memory");', "amdgcn"),
    ('asm volatile("v_pk_mul_f32 %0, %1, %2" : "=v"(c) : "v"(a), "v"(b));', "amdgcn"),
    ('asm volatile("v_dot2c_f32_f16 %0, %1, %2" : "+v"(c) : "v"(a), "v"(b));', "amdgcn"),
    ('asm volatile("ds_bpermute_b32 %0, %1, %2" : "=v"(r) : "v"(i), "v"(x));', "amdgcn"),
    ('asm volatile("buffer_load_dword %0, %1, %2, 0 offen" : "=v"(r) : "v"(o), "s"(d));',
     "amdgcn"),
    ('asm volatile("global_load_dwordx4 %0, %1, off" : "=v"(r) : "v"(p));', "amdgcn"),
    ('asm volatile("v_mfma_f32_32x32x8f16 %0, %1, %2, %0" : "+a"(c) : "v"(a), "v"(b));',
     "amdgcn"),
    # a mnemonic supplied by a macro between AMD pieces
    ('asm volatile("s_mov_b32 m0, %0\\n\\t" OP " %1, off" :: "s"(m), "v"(p));', "amdgcn"),
    ('asm volatile("v_max_f32 %0, %1, %1 " DPP " bound_ctrl:1" : "=&v"(r) : "v"(v));',
     "amdgcn"),
    # a declaration whose symbol is an LLVM AMDGPU intrinsic; another symbol label
    ('__device__ float rcp(float) __asm("llvm.amdgcn.rcp.f32");', "amdgcn"),
    ('int counter asm("my_counter");', "label"),
    # empty compiler barriers
    ('asm volatile("" : "+v"(x));', "barrier"),
    ('asm volatile("" ::: "memory");', "barrier"),
    # PTX
    ('asm("mov.u32 %0, %%laneid;" : "=r"(r));', "ptx"),
    ('asm volatile("membar.gl;");', "ptx"),
    ('asm volatile("{\\n .reg .pred p;\\n setp.ne.b32 p, %1, 0;\\n}" : "=r"(r) : "r"(x));',
     "ptx"),
    ('asm volatile("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));', "ptx"),
    ('asm volatile("trap;");', "ptx"),
    # PTX's `::` qualifiers are no label (NVIDIA/TransformerEngine ptx_arch_spec.cuh)
    ('asm volatile("clusterlaunchcontrol.try_cancel.async.mbarrier::complete_tx::bytes.b128'
     ' [%0], [%1];" :: "r"(a), "r"(b));', "ptx"),
    # neither: reported as before
    ('asm volatile("nop");', "unknown"),
    # RISC-V (ggml's ET backend): mov.m.x is no PTX mov, which takes only a type
    ('asm volatile("mov.m.x m" #msk ", zero, %0" ::"n"(val));', "unknown"),
    ('asm volatile(" %0 = dmpoll" : "=r"(x));', "unknown"),  # Hexagon (ggml): no barrier
    ('asm volatile(" \\n\\t" ::: "memory");', "barrier"),
    ('asm volatile(TEMPLATE : "=r"(r));', "unknown"),
    ('if (c) asm("nop");', "unknown"),  # a statement after a condition, not a label
])
def test_dialect_from_the_instructions(statement, expected):
    assert _dialect(statement) == expected


AMD_KERNEL = """\
#include <hip/hip_runtime.h>
__device__ float amd_rcp(float) __asm("llvm.amdgcn.rcp.f32");
__global__ void k(float *p) {
  float x = p[threadIdx.x], y;
  asm volatile("" : "+v"(x));
  asm volatile("" ::: "memory");
  asm volatile("v_mul_f32 %0, %1, %2" : "=v"(y) : "v"(x), "v"(x));
  asm volatile("s_waitcnt vmcnt(0)\\n\\ts_nop 0" ::: "memory");
  p[threadIdx.x] = amd_rcp(y);
}
"""


def _cp210(src: str, **kw) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in translate_source(src, **kw).findings
            if f.code == "CP210"]


def test_amd_assembly_is_not_reported_for_hip():
    assert _cp210(AMD_KERNEL) == []


def test_ptx_and_unrecognised_assembly_still_are():
    src = AMD_KERNEL.replace(
        '  p[threadIdx.x] = amd_rcp(y);',
        '  unsigned r; asm("mov.u32 %0, %%warpid;" : "=r"(r));\n'
        '  asm volatile("nop");\n'
        '  unsigned short h = 0; asm volatile("" : "+h"(h));\n'
        '  p[threadIdx.x] = amd_rcp(y) + r + h;')
    found = _cp210(src)
    assert [line for line, _ in found] == [9, 10, 11]
    assert "PTX" in found[0][1]
    assert "neither recognisably AMD GPU assembly nor PTX" in found[1][1]
    assert "NVPTX-only operand constraints ('h')" in found[2][1]


def test_a_target_without_assembly_facts_reports_amd_assembly():
    # MUSA assembles neither PTX nor AMD's ISA: every statement stays reported there
    lines = [line for line, _ in _cp210(AMD_KERNEL, target="musa")]
    assert 7 in lines and 8 in lines


def test_verify_counts_only_ptx_as_ptx():
    src = (AMD_KERNEL + '__device__ unsigned lane() { unsigned r;'
           ' asm("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }\n').encode()
    offsets = ptx.inline_ptx(src)
    assert [src.count(b"\n", 0, o) + 1 for o in offsets] == [11]


@pytest.mark.slow
@pytest.mark.parametrize("rocm", ["7.2", "6.4"])
def test_the_unreported_forms_compile(tmp_path, rocm):
    """What is no longer reported assembles to an object for gfx942 (ROCm 7.2 and 6.4)."""
    wrapper = rocm_wrapper(rocm)
    unit = tmp_path / "amd.hip"
    unit.write_bytes(translate_source(AMD_KERNEL, target_version=rocm).output)
    proc = subprocess.run([str(wrapper), "--offload-arch=gfx942", "-std=c++17", "-c",
                           str(unit), "-o", str(tmp_path / "amd.o")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
