"""Rule files are validated on load; every error names the file and line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cudaport.rules import RuleError, load_table
from conftest import ROOT

TARGET = """name: toy
title: Toy
main_header: toy/runtime.h
variants:
  blas: {libraries: [cublas], default: toyblas, choices: [toyblas, otherblas]}
"""


def make_target(tmp_path: Path, pack: str, name: str = "pack.yaml") -> Path:
    folder = tmp_path / "toy"
    folder.mkdir(exist_ok=True)
    (folder / "target.yaml").write_text(TARGET)
    (folder / name).write_text(pack)
    return tmp_path


def load(tmp_path: Path, pack: str):
    return load_table("toy", [make_target(tmp_path, pack)], use_cache=False)


def error(tmp_path: Path, pack: str) -> RuleError:
    with pytest.raises(RuleError) as info:
        load(tmp_path, pack)
    return info.value


def test_valid_pack_loads(tmp_path):
    table = load(tmp_path, "library: cublas\nidentifiers:\n"
                           "  cublasFoo: {kind: function, to: toyFoo, to_since: '1.0',"
                           " variants: {otherblas: other_foo}}\n"
                           "headers:\n  cublas_v2.h: {to: toy/blas.h, main: true}\n")
    entry = table.identifiers["cublasFoo"]
    assert entry.main.to == "toyFoo" and entry.main.since == "1.0"
    assert entry.variants["otherblas"].to == "other_foo"
    assert entry.source.endswith("pack.yaml:3")
    assert table.headers["cublas_v2.h"].is_main


def test_by_args_templates_load(tmp_path):
    table = load(tmp_path, "library: x\nidentifiers:\n  cudaA: hipA\ncalls:\n"
                           "  cudaA: {by_args: {2: 'hipAWithFlags($1, $2)'}}\n")
    entry = table.identifiers["cudaA"]
    assert entry.by_args == ((2, "hipAWithFlags($1, $2)"),) and entry.template is None


def test_variant_calls_template_only_the_chosen_variant(tmp_path):
    make_target(tmp_path, "library: cublas\nidentifiers:\n"
                          "  cublasFoo: {to: toyFoo, variants: {otherblas: other_foo}}\n"
                          "calls:\n  cublasFoo: {template: 'toyFoo($1)'}\n", "a.yaml")
    make_target(tmp_path, "library: cublas\nvariant: otherblas\ncalls:\n"
                          "  cublasFoo: {template: 'other_foo($1, $1, 0)', note: 'D = C'}\n",
                "b.yaml")
    entry = load_table("toy", [tmp_path], use_cache=False).identifiers["cublasFoo"]
    assert entry.template == "toyFoo($1)"
    other = entry.variants["otherblas"]
    assert other.template == "other_foo($1, $1, 0)" and other.note == "D = C"


def test_variant_calls_may_template_a_name_the_variant_has_no_column_for(tmp_path):
    """rocSOLVER has no bufferSize functions: the variant's template is the translation,
    and its callee the name the variant gives (where the name is not called)."""
    make_target(tmp_path, "library: cublas\nidentifiers:\n  cublasA: tA\n", "a.yaml")
    make_target(tmp_path, "library: cublas\nvariant: otherblas\ncalls:\n"
                          "  cublasA: {template: 'other_a($2, $1)'}\n", "b.yaml")
    entry = load_table("toy", [tmp_path], use_cache=False).identifiers["cublasA"]
    assert entry.main.to == "tA" and entry.template is None
    other = entry.variants["otherblas"]
    assert other.to == "other_a" and other.template == "other_a($2, $1)"


@pytest.mark.parametrize("pack,line,message", [
    ("library: x\nidentifiers:\n  a: {to: b\n", 4, "invalid YAML"),
    ("library: x\nidentifiers:\n  cudaA: hipA\n  cudaA: hipB\n", 4, "duplicate key 'cudaA'"),
    ("library: x\nidentifiers:\n  cudaA: {to: hipA, colour: red}\n", 3, "unknown key 'colour'"),
    ("library: x\nwhatever: 1\n", 2, "unknown key 'whatever'"),
    ("identifiers: {}\n", 1, "missing required key 'library'"),
    ("library: x\nidentifiers:\n  cudaA: {to: 'not an id!'}\n", 3, "is not a C/C++ name"),
    ("library: x\nidentifiers:\n  cudaA: {kind: gadget}\n", 3, "'gadget' is not one of"),
    ("library: x\nidentifiers:\n  cudaA: {cuda_since: twelve}\n", 3, "is not a version"),
    ("library: x\nidentifiers:\n  cudaA: {experimental: maybe}\n", 3, "must be true or false"),
    ("library: x\nidentifiers:\n  cudaA: {to: hipA, template: 'hipA($0)'}\n", 3, "numbered from $1"),
    ("library: x\nidentifiers:\n  cudaA: {to: hipA, template: 'hipA(($1)'}\n", 3, "unbalanced"),
    ("library: x\nidentifiers:\n  cudaA: {to: hipA, template: 'not a call'}\n", 3, "name(arguments)"),
    ("library: x\nidentifiers:\n  cudaA: {to: hipA, template: 'hipA($x)'}\n", 3, "followed by a number"),
    ("library: cublas\nidentifiers:\n  cublasA: {to: tA, variants: {rocblas: r}}\n", 3, "unknown variant 'rocblas'"),
    ("library: x\ncalls:\n  cudaNope: {template: 'f($1)'}\n", 3, "not an identifier of any rule pack"),
    ("library: x\nidentifiers:\n  cudaA: hipA\n  hipA: hipB\n", 3, "would not be idempotent"),
    ("library: x\nidentifiers:\n  cudaA: cudaB\n  cudaB: cudaA\n", 3, "would not be idempotent"),
    ("library: x\nidentifiers:\n  cudaA: {to: b, fallback: {note: n}}\n", 3, "needs 'to' or 'template'"),
    ("library: x\nidentifiers: [a, b]\n", 2, "must be a mapping"),
    ("library: x\nidentifiers:\n  cudaA: hipA\ncalls:\n  cudaA: {note: n}\n", 5,
     "needs 'template' or 'by_args'"),
    ("library: x\nidentifiers:\n  cudaA: hipA\ncalls:\n  cudaA: {by_args: {two: 'f($1)'}}\n", 5,
     "'two' is not an argument count"),
    ("library: x\nidentifiers:\n  cudaA: hipA\ncalls:\n  cudaA: {by_args: {1: 'f($1, $2)'}}\n", 5,
     "uses $2 but the call has 1 arguments"),
    ("library: cublas\nvariant: toyblas\n", 2, "'toyblas' is not a non-default variant"),
    ("library: x\nvariant: otherblas\n", 2, "none for this library"),
    ("library: cublas\nvariant: otherblas\ncalls:\n"
     "  cublasNowhere: {template: 'f($1)'}\n", 4, "is not an identifier of any rule pack"),
])
def test_errors_name_file_and_line(tmp_path, pack, line, message):
    err = error(tmp_path, pack)
    assert err.path.endswith("pack.yaml")
    assert err.line == line, str(err)
    assert message in str(err)


def test_duplicate_across_packs_names_both(tmp_path):
    make_target(tmp_path, "library: x\nidentifiers:\n  cudaA: hipA\n", "a.yaml")
    make_target(tmp_path, "library: y\nidentifiers:\n  cudaA: hipA\n", "b.yaml")
    with pytest.raises(RuleError) as info:
        load_table("toy", [tmp_path], use_cache=False)
    assert "b.yaml:3" in str(info.value) and "a.yaml:3" in str(info.value)


def test_target_name_must_match_folder(tmp_path):
    folder = tmp_path / "other"
    folder.mkdir()
    (folder / "target.yaml").write_text(TARGET)
    with pytest.raises(RuleError, match="differs from its folder"):
        load_table("other", [tmp_path], use_cache=False)


def test_yaml_tags_are_not_constructed(tmp_path):
    err = error(tmp_path, "library: x\nidentifiers:\n  cudaA: !!python/object/apply:os.system ['true']\n")
    assert "not a C/C++ name" in str(err) or "must be" in str(err)


def test_versions_stay_strings(tmp_path):
    table = load(tmp_path, "library: x\nidentifiers:\n  cudaA: {to: hipA, to_since: 5.10, cuda_since: 12.0}\n")
    assert table.identifiers["cudaA"].main.since == "5.10"
    assert table.identifiers["cudaA"].cuda_since == "12.0"


def test_cache_is_keyed_by_content(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDAPORT_CACHE_DIR", str(tmp_path / "cache"))
    root = make_target(tmp_path, "library: x\nidentifiers:\n  cudaA: hipA\n")
    assert load_table("toy", [root]).identifiers["cudaA"].main.to == "hipA"
    assert list((tmp_path / "cache").glob("table-*.pickle"))
    (root / "toy" / "pack.yaml").write_text("library: x\nidentifiers:\n  cudaA: hipB\n")
    assert load_table("toy", [root]).identifiers["cudaA"].main.to == "hipB"
    # A corrupt cache file is ignored, not fatal.
    for f in (tmp_path / "cache").glob("table-*.pickle"):
        f.write_bytes(b"garbage")
    assert load_table("toy", [root]).identifiers["cudaA"].main.to == "hipB"


def test_shipped_hip_rules_load():
    table = load_table("hip", [ROOT / "rules"], use_cache=False)
    assert len(table.identifiers) > 8000
    assert table.identifiers["cudaMalloc"].main.to == "hipMalloc"
    assert table.identifiers["cudaMemcpyToSymbol"].template.startswith("hipMemcpyToSymbol(HIP_SYMBOL($1)")
    assert table.headers["cuda_runtime.h"].main.to == "hip/hip_runtime.h"
    assert "dcu" in table.target.aliases
