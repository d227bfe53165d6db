"""Edits: one pass over the file emits them, the emitter resolves and splices them once.

No pass calls the translator again on a piece of the file: a launch rewrite or an argument
template emits edits at its boundaries, and the names inside keep their own renames."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cudaport import Options, translate_bytes
from cudaport.source.edits import Edit, OverlapError, apply, resolve
from conftest import ROOT, tr


def _splice(src: bytes, edits: list[tuple]) -> bytes:
    return apply(src, resolve(edits, src))


def test_parts_move_spans_with_their_own_edits_and_drop_the_rest():
    src = b"f(aa, bb, cc)"
    edits = [(2, 4, b"AA", "r"), (6, 8, b"BB", "r"), (10, 12, b"CC", "r"),
             (0, 13, (b"g(", (10, 12), b", ", (2, 4), b")"), "t")]
    assert _splice(src, edits) == b"g(CC, AA)"  # bb went with its edit


def test_parts_nest():
    src = b"f(x(aa, bb))"
    edits = [(2, 11, (b"y(", (8, 10), b")"), "inner"), (4, 6, b"A", "r"), (8, 10, b"B", "r"),
             (0, 12, (b"g(", (2, 11), b")"), "outer")]
    assert _splice(src, edits) == b"g(y(B))"


def test_resolved_edits_are_flat_bytes():
    src = b"f(aa)"
    kept = resolve([(2, 4, b"AA", "r"), (0, 5, (b"g(", (2, 4), b")"), "t")], src)
    assert kept == [Edit(0, 5, b"g(AA)", "t")]


def test_edit_crossing_a_moved_span_is_a_bug():
    src = b"f(aa, bb)"
    with pytest.raises(OverlapError):
        _splice(src, [(3, 7, b"X", "r"), (0, 9, (b"g(", (2, 4), b")"), "t")])


def test_partial_overlap_is_a_bug():
    with pytest.raises(OverlapError):
        _splice(b"abcdef", [(0, 3, b"x", "r"), (2, 5, b"y", "r")])


def test_no_pass_imports_the_translator():
    for path in sorted((ROOT / "cudaport" / "translate" / "passes").glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module not in ("translate", "cudaport.translate.pipeline") and not (
                    node.level and node.module == "translate"), f"{path.name} imports translate"
    assert not hasattr(__import__("cudaport.translate.pipeline").translate, "translate_fragment")


def _idempotent(src: str, **options) -> str:
    out = tr(src, **options)
    assert tr(out, **options) == out
    return out


def test_reordering_template_keeps_renames_inside_moved_arguments(tmp_path):
    rules = tmp_path / "acme.yaml"
    rules.write_text('calls:\n  cudaMemset: {template: "acmeMemset($1, $3, $2)"}\n')
    out = _idempotent("void f() { cudaMemset(p(a), cudaMalloc(&x, 1), cudaFree(z)); }\n",
                      rule_files=(str(rules),))
    assert "acmeMemset(p(a), hipFree(z), hipMalloc(&x, 1));" in out


def test_dropped_argument_takes_its_own_rewrite_with_it():
    # HIP 5.2 has no __shfl_down_sync: the fallback drops the mask, which is itself a call
    # with a fallback template (__activemask() -> __ballot(1)).
    out = _idempotent("__device__ int f(int v) { return __shfl_down_sync(__activemask(), v, 1); }\n",
                      target_version="5.2")
    assert "return __shfl_down(v, 1);" in out


def test_wrapping_template_keeps_the_call_layout_and_inner_renames():
    out = _idempotent("void f() {\n  cudaMemcpyToSymbol(sym /* cudaMalloc */,\n"
                      "      cudaStreamPerThread, n);\n}\n", rewrite_comments=True)
    assert ("  hipMemcpyToSymbol(HIP_SYMBOL(sym) /* hipMalloc */,\n"
            "      hipStreamPerThread, n);\n") in out


def test_launch_rewrite_is_boundary_edits():
    src = "void f() { k<<<g, b, 0, cudaStreamPerThread>>>(cudaMemcpyToSymbol(s, p, 4), x); }\n"
    result = translate_bytes(src.encode(), Options(launch="hip"))
    assert ("hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, hipStreamPerThread, "
            "hipMemcpyToSymbol(HIP_SYMBOL(s), p, 4), x);") in result.text
    launch = [e for e in result.edits if e.rule_id == "hip/launch"]
    # the head, three separators, the chevrons and ')' : none spans a name
    assert launch and all(b"cuda" not in src.encode()[e.start:e.end] for e in launch)
    assert tr(result.text, launch="hip") == result.text


def test_launches_nested_in_arguments_and_comments_in_the_configuration():
    out = _idempotent("void f() { k<float><<<dim3(1), 2 /* cudaMalloc */>>>(k2<<<1, 1>>>(y)); }\n",
                      launch="hip", rewrite_comments=True)
    assert ("hipLaunchKernelGGL(HIP_KERNEL_NAME(k<float>), dim3(1), dim3(2), 0, 0, "
            "hipLaunchKernelGGL(k2, dim3(1), dim3(1), 0, 0, y));") in out


def test_spaced_launch_with_hip_launch_uses_the_same_edits():
    out = _idempotent("void f() { k << < g, b >> > (cudaMemcpyToSymbol(s, p, 4)); }\n",
                      launch="hip")
    assert "hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, hipMemcpyToSymbol(HIP_SYMBOL(s), p, 4));" in out


def test_main_header_requested_by_a_later_pass():
    # only the launches pass (after the includes pass) sees device use here
    assert tr("void f() { k<<<1, 1>>>(); }\n").startswith("#include <hip/hip_runtime.h>\n")
