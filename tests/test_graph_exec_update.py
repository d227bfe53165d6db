"""CUDA 12's cudaGraphExecUpdate(exec, graph, cudaGraphExecUpdateResultInfo*) and the
driver's cuGraphExecUpdate of the same form, which ROCm (5.0 to 7.2) declares only in CUDA
11's form: the portable header's struct and cudaport_graph_exec_update fill CUDA's members
from hipGraphExecUpdate's two outputs; errorFromNode, which HIP does not report, is NULL
(a warning says so). rules/hip/ports/runtime.yaml and driver.yaml, calls.yaml (by_args),
section graph_exec_update of rules/hip/ports/cudaport_portable.h."""

from __future__ import annotations


import pytest

from conftest import compile_object, run_portable_host_program
from cudaport import Options, translate_bytes


# tiny-cuda-nn's cuda_graph.h (its CUDA 12 branch and its CUDA 11 one), cut down, and the
# driver API form.
SRC = b"""\
#include <cuda.h>
#include <cuda_runtime.h>
bool update(cudaGraphExec_t& exec, cudaGraph_t graph) {
  cudaGraphExecUpdateResultInfo info;
  if (cudaGraphExecUpdate(exec, graph, &info) != cudaSuccess) return false;
  return info.result == cudaGraphExecUpdateSuccess && info.errorFromNode == nullptr;
}
bool update_old(cudaGraphExec_t exec, cudaGraph_t graph) {
  cudaGraphExecUpdateResult result;
  cudaGraphNode_t error_node;
  cudaGraphExecUpdate(exec, graph, &error_node, &result);
  return result == cudaGraphExecUpdateSuccess;
}
CUresult update_driver(CUgraphExec exec, CUgraph graph, CUgraphNode* at_fault) {
  struct CUgraphExecUpdateResultInfo_st info;
  const CUresult status = cuGraphExecUpdate(exec, graph, &info);
  *at_fault = info.errorNode;
  return status;
}
"""


def test_the_three_argument_form_becomes_the_portable_function():
    result = translate_bytes(SRC, Options(target_version="7.2"), "g.cu")
    out = result.output.decode()
    assert "cudaport_graph_exec_update_result_info info;" in out
    assert "if (cudaport_graph_exec_update(exec, graph, &info) != hipSuccess)" in out
    assert "hipGraphExecUpdate(exec, graph, &error_node, &result);" in out  # (CUDA 11's form)
    assert "struct cudaport_graph_exec_update_result_info info;" in out
    assert "const hipError_t status = cudaport_graph_exec_update(exec, graph, &info);" in out
    assert out.count("#ifndef CUDAPORT_PORTABLE_GRAPH_EXEC_UPDATE") == 1
    bad = [f for f in result.findings if f.severity == "error"]
    assert not bad, bad
    caveats = [f for f in result.findings if f.severity == "warning"]
    assert {f.identifier for f in caveats} == {"cudaGraphExecUpdateResultInfo",
                                               "CUgraphExecUpdateResultInfo_st"}
    assert all("errorFromNode is always NULL" in f.message for f in caveats)
    assert translate_bytes(result.output, Options(target_version="7.2"), "g.hip").output \
        == result.output  # (a second run changes nothing)


PROGRAM = b"""
#include <cstdio>
static hipGraphExecUpdateResult next_result;
hipError_t hipGraphExecUpdate(hipGraphExec_t, hipGraph_t, hipGraphNode_t* node,
                              hipGraphExecUpdateResult* result) {
  *node = (hipGraphNode_t)(size_t)7;
  *result = next_result;
  return next_result == hipGraphExecUpdateSuccess ? hipSuccess : hipErrorGraphExecUpdateFailure;
}
int main() {
  const hipGraphExecUpdateResult results[2] = {hipGraphExecUpdateSuccess,
                                               hipGraphExecUpdateErrorTopologyChanged};
  for (hipGraphExecUpdateResult r : results) {
    next_result = r;
    cudaport_graph_exec_update_result_info info;
    info.errorFromNode = (hipGraphNode_t)(size_t)5;
    const hipError_t status = cudaport_graph_exec_update(nullptr, nullptr, &info);
    std::printf("%d %d %d %d\\n", (int)status, (int)info.result, (int)(size_t)info.errorNode,
                (int)(size_t)info.errorFromNode);
  }
}
"""


@pytest.mark.slow
def test_the_members_get_hips_outputs(tmp_path):
    """With ROCm 7.2's hip_runtime_api.h (g++, a stand-in hipGraphExecUpdate): the status
    is HIP's, result and errorNode its two outputs, errorFromNode NULL."""
    lines = run_portable_host_program(tmp_path, {b"cudaport_graph_exec_update"}, PROGRAM)
    # (hip_runtime_api.h: hipErrorGraphExecUpdateFailure = 910, ...ErrorTopologyChanged = 0x2)
    assert lines == ["0 0 7 0", "910 2 7 0"]


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_the_translation_compiles(tmp_path, version):
    path = tmp_path / "g.hip"
    path.write_bytes(translate_bytes(SRC, Options(target_version=version), "g.cu").output)
    compile_object(path, "gfx942", version=version)
