"""Extensible launches: cudaLaunchKernelEx/ExC become the portable header's
cudaport_launch_kernel_ex/_ex_c, which launch through hipLaunchKernelExC without the
attributes that do not change what the launch computes; programmatic dependent launch is a
CP171 warning (the overlap is lost), an attribute HIP refuses a CP172 warning at the launch.
rules/hip/launch-ex.yaml, launch_ex in rules/hip/target.yaml, cudaport/translate/passes/launch_ex.py,
sections launch_attributes and launch_ex of rules/hip/ports/cudaport_portable.h."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import compile_object, run_portable_host_program
from cudaport import Options, translate_bytes
from cudaport.translate.portable import HEADER_NAME, block, closure, parse

HEADER = Path(__file__).parent.parent / "rules" / "hip" / "ports" / HEADER_NAME

# The shapes flashinfer writes (include/flashinfer/norm.cuh, csrc/xqa/hostUtils.h,
# csrc/fused_moe/trtllm_backend/trtllm_fused_moe_routing_common.cu), cut down.
PDL = b"""\
#include <cuda_runtime.h>
template <int V, typename T>
__global__ void norm_kernel(T* x, int n, float eps) {
  cudaGridDependencySynchronize();
  if (threadIdx.x < n) x[threadIdx.x] *= eps;
  cudaTriggerProgrammaticLaunchCompletion();
}
__global__ void routing(int* out, bool flag) { out[threadIdx.x] = flag; }
template <typename T>
cudaError_t norm(T* x, int n, float eps, bool enable_pdl, cudaStream_t stream) {
  cudaLaunchConfig_t config;
  config.gridDim = 1;
  config.blockDim = 128;
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  cudaLaunchAttribute attrs[1];
  attrs[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attrs[0].val.programmaticStreamSerializationAllowed = enable_pdl;
  config.numAttrs = 1;
  config.attrs = attrs;
  auto kernel = norm_kernel<4, T>;
  return cudaLaunchKernelEx(&config, kernel, x, n, eps);
}
template cudaError_t norm<float>(float*, int, float, bool, cudaStream_t);
inline cudaLaunchConfig_t make_config(dim3 g, dim3 b, cudaStream_t s, bool pdl) {
  static cudaLaunchAttribute pdlAttr;
  pdlAttr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  pdlAttr.val.programmaticStreamSerializationAllowed = (pdl ? 1 : 0);
  cudaLaunchConfig_t cfg{g, b, 0, s, &pdlAttr, 1};
  return cfg;
}
cudaError_t route(int* out, cudaStream_t s, bool pdl) {
  cudaLaunchAttribute attributes[2];
  attributes[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attributes[0].val.programmaticStreamSerializationAllowed = int(pdl);
  attributes[1].id = cudaLaunchAttributeCooperative;
  attributes[1].val.cooperative = 0;
  cudaLaunchConfig_t config = make_config(1, 64, s, pdl);
  config.attrs = attributes;
  config.numAttrs = 2;
  void* args[] = {&out, &pdl};
  return cudaLaunchKernelExC(&config, (const void*)routing, args);
}
"""


def _translate(src: bytes, version: str = "7.2"):
    return translate_bytes(src, Options(target_version=version), "k.cu")


def test_programmatic_launch_is_ported_with_a_caveat():
    result = _translate(PDL)
    out = result.output.decode()
    assert "attrs[0].id = cudaport_launch_attribute_programmatic_stream_serialization;" in out
    assert "attrs[0].val.priority = enable_pdl;" in out
    assert "pdlAttr.val.priority = (pdl ? 1 : 0);" in out
    assert "attributes[1].val.cooperative = 0;" in out
    assert "return cudaport_launch_kernel_ex(&config, kernel, x, n, eps);" in out
    assert "return cudaport_launch_kernel_ex_c(&config, (const void*)routing, args);" in out
    assert out.count("#ifndef CUDAPORT_PORTABLE_LAUNCH_EX") == 1
    assert "programmaticStreamSerializationAllowed" not in out
    assert not [f for f in result.findings if f.severity == "error"], result.findings
    caveats = [(f.code, f.severity, f.line) for f in result.findings if f.code == "CP171"]
    assert caveats == [("CP171", "warning", 17), ("CP171", "warning", 27),
                       ("CP171", "warning", 34)]
    assert all("overlap of the dependent launch is lost" in f.message for f in result.findings
               if f.code == "CP171")
    assert not [f for f in result.findings if f.code == "CP172"]
    assert _translate(result.output).output == result.output


def test_only_members_are_renamed():
    src = (b"#include <cuda_runtime.h>\n"
           b"void f(cudaLaunchAttribute* a, int programmaticStreamSerializationAllowed) {\n"
           b"  a->id = cudaLaunchAttributeProgrammaticStreamSerialization;\n"
           b"  a->val.programmaticStreamSerializationAllowed = programmaticStreamSerializationAllowed;\n"
           b"  // .programmaticStreamSerializationAllowed in a comment\n"
           b"}\n")
    out = _translate(src).output
    assert b"  a->val.priority = programmaticStreamSerializationAllowed;\n" in out
    assert b"int programmaticStreamSerializationAllowed)" in out
    assert b"// .programmaticStreamSerializationAllowed in a comment" in out


def test_before_7_2_nothing_is_renamed():
    """ROCm 6.4 has no hipLaunchConfig_t: the launch stays reported (CP107) as written."""
    result = _translate(PDL, "6.4")
    assert b"programmaticStreamSerializationAllowed = enable_pdl" in result.output
    assert b"cudaport_launch" not in result.output
    assert {f.identifier for f in result.findings if f.code == "CP107"} >= {
        "cudaLaunchKernelEx", "cudaLaunchKernelExC"}


def test_an_attribute_hip_refuses_is_named_at_the_launch():
    src = PDL.replace(b"  attributes[1].id = cudaLaunchAttributeCooperative;\n",
                      b"  attributes[1].id = cudaLaunchAttributePriority;\n")
    result = _translate(src)
    refused = [f for f in result.findings if f.code == "CP172"]
    assert [(f.severity, f.line, f.identifier) for f in refused] == [
        ("warning", 22, "cudaLaunchKernelEx"), ("warning", 42, "cudaLaunchKernelExC")]
    assert "cudaLaunchAttributePriority" in refused[0].message
    assert "Cooperative" not in refused[0].message
    assert "ProgrammaticStreamSerialization" not in refused[0].message


KEEP = b"""
#include <cstdio>
struct Attribute { int id; union { int cooperative; int other; } val; };
int main() {
  // (id, value) lists: 0 ignore, 2 cooperative, 6 programmatic, 8 priority
  const int cases[][3][2] = {{{6, 1}, {-1, 0}, {-1, 0}}, {{6, 0}, {2, 0}, {-1, 0}},
                             {{2, 1}, {6, 1}, {-1, 0}}, {{8, 3}, {0, 0}, {6, 1}},
                             {{2, 0}, {8, 5}, {1, 7}}, {{8, 1}, {8, 2}, {8, 3}}};
  for (const auto& c : cases) {
    Attribute in[3], out[2];
    unsigned n = 0;
    for (const auto& a : c)
      if (a[0] >= 0) { in[n].id = a[0]; in[n].val.cooperative = a[1]; ++n; }
    unsigned kept = cudaport_detail::keep_launch_attributes(in, n, out, 2);
    std::printf("%u", kept);
    for (unsigned i = 0; i < kept && i < 2; ++i) std::printf(" %d:%d", out[i].id, out[i].val.other);
    std::printf("\\n");
  }
}
"""


def test_the_launch_keeps_the_attributes_that_change_the_launch(tmp_path):
    """CUDA's meaning (cudaLaunchAttributeID): an ignored entry, programmatic stream
    serialization (the same result without the overlap) and cooperative 0 (an ordinary
    launch) are left out; every other attribute is kept, in order."""
    header = parse(HEADER.read_bytes())
    program = tmp_path / "keep.cpp"
    program.write_bytes(block(header, closure(header, {b"cudaport_launch_kernel_ex"})) + KEEP)
    subprocess.run(["g++", "-std=c++11", "-Wall", "-Werror", str(program), "-o",
                    str(tmp_path / "keep")], check=True)
    lines = subprocess.run([str(tmp_path / "keep")], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    assert lines == ["0", "0", "1 2:1", "1 8:3", "2 8:5 1:7", "3 8:1 8:2"]


LAUNCH = b"""
#include <cstdio>
static hipLaunchConfig_t seen;
static hipLaunchAttribute seen_attrs[4];
static void* seen_args[4];
hipError_t hipLaunchKernelExC(const hipLaunchConfig_t* c, const void*, void** args) {
  seen = *c;
  for (unsigned i = 0; i < c->numAttrs && i < 4; ++i) seen_attrs[i] = c->attrs[i];
  for (int i = 0; i < 2; ++i) seen_args[i] = args[i];
  return hipSuccess;
}
void kernel(int a, float b) {}
int main() {
  hipLaunchAttribute attrs[3];
  attrs[0].id = cudaport_launch_attribute_programmatic_stream_serialization;
  attrs[0].val.priority = 1;
  attrs[1].id = hipLaunchAttributeCooperative;
  attrs[1].val.cooperative = 0;
  attrs[2].id = hipLaunchAttributePriority;
  attrs[2].val.priority = 2;
  hipLaunchConfig_t config = {dim3(3), dim3(64), 128, nullptr, attrs, 2};
  cudaport_launch_kernel_ex(&config, kernel, 7, 2.5);
  std::printf("%u %u %u %zu %p %d %g\\n", seen.numAttrs, seen.gridDim.x, seen.blockDim.x,
              seen.dynamicSmemBytes, (void*)seen.attrs, *(int*)seen_args[0],
              (double)*(float*)seen_args[1]);
  config.numAttrs = 3;
  cudaport_launch_kernel_ex_c(&config, (const void*)kernel, seen_args);
  std::printf("%u %d %d %d\\n", seen.numAttrs, (int)seen_attrs[0].id, seen_attrs[0].val.priority,
              seen.attrs == attrs);
}
"""


@pytest.mark.slow
def test_the_launch_passes_hip_the_config_without_those_attributes(tmp_path):
    """With ROCm 7.2's own hip_runtime_api.h (g++, a stand-in hipLaunchKernelExC that
    records what it is given): the grid, block, shared memory and arguments arrive as
    given; numAttrs 0 when only dropped attributes were set."""
    lines = run_portable_host_program(tmp_path, {b"cudaport_launch_kernel_ex"}, LAUNCH)
    assert lines == ["0 3 64 128 (nil) 7 2.5", "1 8 2 0"]


@pytest.mark.slow
@pytest.mark.parametrize("arch", ["gfx942", "gfx90a"])
def test_the_translation_compiles_with_rocm_7_2(tmp_path, arch):
    path = tmp_path / "pdl.hip"
    path.write_bytes(_translate(PDL).output)
    compile_object(path, arch)
