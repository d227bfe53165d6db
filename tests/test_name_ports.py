"""Names that are not calls, ported as the generated name programs found (issue 41):
the driver's JIT linker, elaborated tags, struct members the target lacks, names HIPIFY
maps to something ROCm does not declare. (tests/test_lib_names.py compiles every mapped
name; these pin the translations.)"""

from __future__ import annotations

from cudaport import Options, translate_bytes


def _out(src: bytes, **options) -> str:
    return translate_bytes(src, Options(**options), "t.cu").output.decode()


def _findings(src: bytes, **options) -> list[tuple[int, str, str]]:
    result = translate_bytes(src, Options(**options), "t.cu")
    return sorted((f.line, f.code, f.message) for f in result.findings)


def test_driver_jit_linker_becomes_the_runtime_linker():
    """cuLinkCreate & co. have the HIP runtime's hipLink* forms, with the driver's shape
    (a hipError_t, hipJitOption options); hiprtcLinkCreate returned a hiprtcResult."""
    src = (b"#include <cuda.h>\nint f(void *d, size_t n) {\n  CUlinkState s;\n"
           b"  CUjit_option o[1] = {CU_JIT_MAX_REGISTERS};\n  void *v[1] = {(void *)32};\n"
           b"  CUresult r = cuLinkCreate(1, o, v, &s);\n"
           b"  r = cuLinkAddData(s, CU_JIT_INPUT_PTX, d, n, \"k\", 0, 0, 0);\n"
           b"  void *bin; size_t size; r = cuLinkComplete(s, &bin, &size);\n"
           b"  return cuLinkDestroy(s);\n}\n")
    out = _out(src)
    assert "hipLinkState_t s;" in out and "hipJitOption o[1] = {hipJitOptionMaxRegisters};" in out
    assert "hipError_t r = hipLinkCreate(1, o, v, &s);" in out
    assert "hipLinkAddData(s, hipJitInputPtx, d, n," in out and "hiprtc" not in out
    notes = [m for line, code, m in _findings(src) if code == "CP108" and line == 7]
    assert notes and "LLVM bitcode" in notes[0]  # (HIP marks its PTX input "Cuda only")
    # HIP 5.2 has the options but no linker: the calls are too new there.
    codes = {code for _line, code, _m in _findings(src, target_version="5.2")}
    assert "CP107" in codes
    assert "hipJitOptionMaxRegisters" in _out(src, target_version="5.2")


def test_elaborated_names_get_the_target_tag():
    """`struct`/`enum` before a CUDA name whose HIP form is a typedef of another tag."""
    src = (b"#include <cuda_runtime.h>\nvoid f(struct cudaExternalSemaphoreSignalParams *p,\n"
           b"       enum cudaExternalMemoryHandleType t, cudaExternalMemoryHandleType u) {}\n")
    out = _out(src)
    assert "struct hipExternalSemaphoreSignalParams_st *p" in out
    assert "enum hipExternalMemoryHandleType_enum t, hipExternalMemoryHandleType u" in out


def test_struct_members_the_target_lacks_are_reported():
    src = (b"#include <cuda_runtime.h>\n#include <curand_kernel.h>\n"
           b"int f(cudaFuncAttributes *a, const cudaLaunchAttributeValue &v) {\n"
           b"  return a->requiredClusterWidth + a->numRegs + v.clusterDim.x;\n}\n"
           b"__global__ void k(curandState *s) { curandState t = s[0]; float4 q; q.x = t.d; }\n")
    found = [(line, m) for line, code, m in _findings(src) if code == "CP214"]
    assert found == [
        (4, "cudaFuncAttributes::requiredClusterWidth has no counterpart in hipFuncAttributes "
            "(HIP 7.2)"),
        (4, "cudaLaunchAttributeValue::clusterDim has no counterpart in hipLaunchAttributeValue "
            "(HIP 7.2)"),
        (6, "curandState::d has no counterpart in hiprandState (HIP 7.2)")]
    # (q.x is a float4's: only objects declared with the struct are looked at)
    assert [m for _l, code, m in _findings(src, variants=(("rand", "rocrand"),))
            if code == "CP214" and "curandState" in m] == [
        "curandState::d has no counterpart in rocrand_state_xorwow (HIP 7.2)"]


def test_struct_members_of_another_type_say_what_the_target_has():
    src = (b"#include <cuda_fp16.h>\nunsigned short f(__half2_raw r) { return r.x; }\n"
           b"#include <cuda.h>\nvoid g(CUDA_KERNEL_NODE_PARAMS *p) { p->gridDimX = 1; p->sharedMemBytes = 0; }\n")
    found = [(line, m) for line, code, m in _findings(src) if code == "CP214"]
    assert found == [
        (2, "__half2_raw::x is a __half_raw, not an unsigned short (its bits are .x.x) in "
            "__half2_raw (HIP 7.2)"),
        (4, "CUDA_KERNEL_NODE_PARAMS::gridDimX has no counterpart in hipKernelNodeParams "
            "(HIP 7.2)")]


def test_members_a_later_version_has_are_reported_before_it_only():
    src = (b"#include <cuda_runtime.h>\n"
           b"void f(cudaLaunchAttributeValue *v) { v->programmaticStreamSerializationAllowed = 1; }\n")
    assert [code for _l, code, _m in _findings(src, target_version="6.4")] == ["CP214"]
    assert "CP214" not in [code for _l, code, _m in _findings(src, target_version="7.2")]


def test_names_rocm_lacks_are_reported_not_renamed():
    src = (b"#include <cuda_runtime.h>\n#include <cudnn.h>\n"
           b"bool f(cudaError_t e, cudnnDataType_t t) {\n"
           b"  return e == cudaErrorLossyQuery || t == CUDNN_DATA_INT8x4;\n}\n")
    out = _out(src)
    assert "e == cudaErrorLossyQuery || t == CUDNN_DATA_INT8x4;" in out
    found = {m.split(" ")[0]: code for _l, code, m in _findings(src) if code == "CP101"}
    assert found == {"cudaErrorLossyQuery": "CP101", "CUDNN_DATA_INT8x4": "CP101"}
    # hipCUB 7.2's HIPCUB_WARP_THREADS no longer compiles; 6.4's does.
    src = b"#include <cub/cub.cuh>\nconstexpr int w = CUB_PTX_WARP_THREADS;\n"
    assert "HIPCUB_WARP_THREADS" in _out(src, target_version="6.4")
    assert "CUB_PTX_WARP_THREADS" in _out(src, target_version="7.2")


def test_cooperative_groups_gaps_follow_the_version():
    """num_threads() is in ROCm 7.2's cooperative groups (not 6.4's); grid_group's
    num_blocks(), dim_blocks() and block_index() are in neither."""
    src = (b"#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
           b"__global__ void k(int *o) {\n  cg::grid_group g = cg::this_grid();\n"
           b"  auto b = cg::this_thread_block();\n"
           b"  o[0] = b.num_threads() + g.num_blocks() + g.block_index().x;\n}\n")
    found = lambda version: sorted(m.split(" has ")[0] for _l, code, m in
                                   _findings(src, target_version=version) if code == "CP213")
    assert found("7.2") == ["cooperative groups: block_index", "cooperative groups: num_blocks"]
    assert found("6.4") == ["cooperative groups: block_index", "cooperative groups: num_blocks",
                            "cooperative groups: num_threads"]


def test_a_unit_includes_the_runtime_before_a_project_header(tmp_path):
    """nvcc includes cuda_runtime.h before anything in a .cu unit, so a project header
    included first may use __device__ & co.; the translation puts the main header first
    (and leaves the include it translated where it was). Not in headers, nor where the
    runtime comes first already; translating again changes nothing."""
    src = (b'#include "common.h"\n#include <cuda_runtime.h>\n'
           b"__global__ void k(float *x) { x[0] = sq(x[0]); }\n")
    out = translate_bytes(src, Options(), "a.cu").output
    assert out.startswith(b'#include <hip/hip_runtime.h>\n#include "common.h"\n'
                          b"#include <hip/hip_runtime.h>\n")
    assert translate_bytes(out, Options(), "a.cu").output == out
    assert not translate_bytes(src, Options(), "a.cuh").output.startswith(b"#include <hip/")
    first = b'#include <cuda_runtime.h>\n#include "common.h"\n__global__ void k() {}\n'
    assert translate_bytes(first, Options(), "b.cu").output.count(b"hip_runtime.h") == 1
    plain = b'#include "common.h"\nint main() { return 0; }\n'  # (no CUDA: unchanged)
    assert translate_bytes(plain, Options(), "c.cu").output == plain
