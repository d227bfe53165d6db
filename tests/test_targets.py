"""Targets are data: a folder with target.yaml and packs, found through --rules-dir,
selected by name or alias, with no Python change."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from cudaport import Options, translate_bytes
from cudaport.cli.main import main
from cudaport.rules import RuleError, get_compiled, load_table, target_names
from cudaport.rules.loader import default_rules_root


def make_toy_target(root: Path) -> Path:
    folder = root / "toy"
    folder.mkdir(parents=True)
    (folder / "target.yaml").write_text(textwrap.dedent("""
        name: toy
        title: ToyGPU
        aliases: [toygpu]
        warp_size: 16
        main_header: toy_runtime.h
        launch: {function: toyLaunch}
        extensions: {".cu": ".toy"}
        unknown_patterns: ['cuda[A-Z]\\w*']
    """))
    (folder / "runtime.yaml").write_text(textwrap.dedent("""
        library: runtime
        headers:
          cuda_runtime.h: {to: toy_runtime.h, main: true}
        identifiers:
          cudaMalloc: toyMalloc
          cudaFree: {kind: function, to: toyFree}
          cudaHostAlloc: {kind: function, cuda_since: "2.2"}
    """))
    return root


def test_toy_target_from_rules_dir_needs_no_python(tmp_path):
    root = make_toy_target(tmp_path / "targets")
    options = Options(target="toygpu", rules_dirs=(str(root),))
    src = b"#include <cuda_runtime.h>\nvoid f(){ cudaMalloc(&p, 4); cudaHostAlloc(&h, 4, 0);" \
          b" cudaMemset(p, 0, 4); k<<<1, 2>>>(p); cudaFree(p); }\n"
    result = translate_bytes(src, options)
    assert result.output == (b"#include <toy_runtime.h>\nvoid f(){ toyMalloc(&p, 4);"
                             b" cudaHostAlloc(&h, 4, 0); cudaMemset(p, 0, 4); k<<<1, 2>>>(p);"
                             b" toyFree(p); }\n")
    codes = {(f.code, f.identifier) for f in result.findings}
    assert ("CP101", "cudaHostAlloc") in codes and ("CP105", "cudaMemset") in codes
    info = get_compiled(options).target
    assert (info.name, info.warp_size, info.extensions) == ("toy", 16, {".cu": ".toy"})
    launched = translate_bytes(src, Options(target="toy", launch="hip",
                                            rules_dirs=(str(root),))).output
    assert b"toyLaunch(k, dim3(1), dim3(2), 0, 0, p)" in launched


def test_toy_target_through_the_cli(tmp_path):
    root = make_toy_target(tmp_path / "targets")
    src = tmp_path / "a.cu"
    src.write_text("void f(){ cudaFree(p); }\n")
    result = CliRunner().invoke(main, ["translate", str(src), "--rules-dir", str(root),
                                       "--target", "toy", "-q"])
    assert result.exit_code == 0, result.output
    assert "toyFree(p)" in result.output


def test_builtin_targets_and_aliases():
    names = target_names([default_rules_root()])
    for alias, folder in [("hip", "hip"), ("dcu", "hip"), ("musa", "musa"),
                          ("mthreads", "musa"), ("maca", "maca"), ("metax", "maca")]:
        assert names[alias].name == folder


def test_unknown_target_is_a_usage_error(tmp_path):
    src = tmp_path / "a.cu"
    src.write_text("int x;\n")
    result = CliRunner().invoke(main, ["translate", str(src), "--target", "nosuch"])
    assert result.exit_code == 2
    assert "unknown target 'nosuch'" in result.output and "musa" in result.output


def test_variant_option_the_target_does_not_have(tmp_path):
    src = tmp_path / "a.cu"
    src.write_text("int x;\n")
    result = CliRunner().invoke(main, ["translate", str(src), "--target", "musa",
                                       "--blas", "rocblas"])
    assert result.exit_code == 2 and "target musa has no blas library variants" in result.output


def test_target_yaml_errors_name_file_and_line(tmp_path):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "target.yaml").write_text("name: bad\nmain_header: b.h\nwarp_size: wide\n")
    with pytest.raises(RuleError) as info:
        load_table("bad", [tmp_path], use_cache=False)
    assert info.value.path.endswith("target.yaml") and info.value.line == 3


def test_maca_is_experimental_and_says_so():
    result = translate_bytes(b"#include <cuda_runtime.h>\nvoid f(){ cudaFree(p); }\n",
                             Options(target="maca"))
    assert result.output == b"#include <mc_runtime.h>\nvoid f(){ mcFree(p); }\n"
    assert [f.code for f in result.findings] == ["CP150"]
    info = get_compiled(Options(target="maca")).target
    assert info.extra["experimental"] is True and info.warp_size == 64


def test_maca_names_come_from_the_cited_samples():
    """Every MACA name in verified.yaml carries the sample file it was seen in."""
    text = (default_rules_root() / "maca" / "verified.yaml").read_text(encoding="utf-8")
    body = text[text.index("identifiers:"):]
    entries = [line for line in body.splitlines() if line.startswith("  ") and "to:" in line]
    assert len(entries) > 100
    for line in entries:
        assert "# " in line or "library: nccl" in line, line
    table = load_table("maca")
    unmapped = [e for e in table.identifiers.values() if e.main.to is None]
    assert len(unmapped) > 3000  # every other CUDA name is reported, not guessed


def test_launch_rewrite_on_a_target_without_launch_function(tmp_path):
    src = tmp_path / "a.cu"
    src.write_text("k<<<1, 1>>>();\n")
    result = CliRunner().invoke(main, ["translate", str(src), "--target", "musa",
                                       "--launch", "hip"])
    assert result.exit_code == 2 and "target musa has no launch function" in result.output


# Target facts live in rules/<target>/: no message for another target speaks of HIP.
HAZARDS = Path(__file__).parent / "data" / "hazards"
EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.mark.parametrize("target", ["musa", "maca"])
@pytest.mark.parametrize("framework", [(), ("--framework", "pytorch")])
def test_no_message_mentions_hip_for_another_target(target, framework):
    if framework and target == "maca":
        pytest.skip("maca has no PyTorch rules")
    runner = CliRunner()
    for folder in (HAZARDS, EXAMPLES):
        checked = runner.invoke(main, ["check", str(folder), "--no-config", "-t", target,
                                       "--fail-on", "never", "-q", *framework])
        translated = runner.invoke(main, ["translate", str(folder), "--check", "--no-cache",
                                          "-t", target, *framework])
        assert checked.exit_code == 0 and "CP" in checked.stdout
        lines = checked.stdout.splitlines() + translated.stderr.splitlines()
        # messages and summaries, not the paths (examples/*/expected/hip/...)
        said = [re.sub(r"^\S+:\d+:\d+: |^would translate .*", "", line) for line in lines]
        assert [text for text in said if "hip" in text.lower()] == []


def test_hazard_facts_come_from_the_target(tmp_path):
    """The HIP hazards (cooperative groups, device properties, GEMM compute types) fire for
    HIP from rules/hip/target.yaml and for no target that gives no such facts."""
    src = (HAZARDS / "hazards.cu").read_bytes()
    hip = {f.code for f in translate_bytes(src, Options()).findings}
    musa = {f.code for f in translate_bytes(src, Options(target="musa")).findings}
    assert {"CP211", "CP213", "CP214", "CP216"} <= hip
    assert not {"CP213", "CP214", "CP216"} & musa and "CP211" in musa


def declared_variants(root: Path) -> dict[str, set[str]]:
    import yaml

    declared: dict[str, set[str]] = {}
    for path in sorted(root.glob("*/target.yaml")):
        for group, spec in (yaml.safe_load(path.read_text()).get("variants") or {}).items():
            declared.setdefault(group, set()).update(spec["choices"])
    return declared


def test_variant_options_are_derived_from_the_targets_variants():
    from cudaport.rules.roots import variant_options

    params = [p for p in main.commands["translate"].params if p.name.startswith("variant_")]
    options = {p.opts[0][2:]: tuple(p.type.choices) for p in params}
    assert options == variant_options() and options["blas"][0] == "hipblas"
    assert {g: set(c) for g, c in options.items()} == declared_variants(default_rules_root())


def test_a_new_variant_group_needs_only_target_yaml(tmp_path):
    from cudaport.rules.roots import variant_options

    root = make_toy_target(tmp_path / "targets")
    text = (root / "toy" / "target.yaml").read_text()
    (root / "toy" / "target.yaml").write_text(
        text + "variants:\n  fft: {libraries: [cufft], default: toyfft, choices: [vkfft, toyfft]}\n")
    assert variant_options((root,)) == {"fft": ("toyfft", "vkfft")}


def test_target_names_read_a_changed_target_yaml(tmp_path):
    """The targets' names and variants are kept in the user cache by the files' bytes: an
    edited target.yaml is read again, and a broken one is still an error."""
    root = make_toy_target(tmp_path / "targets")
    assert target_names([root])["toygpu"] == root / "toy"
    path = root / "toy" / "target.yaml"
    path.write_text(path.read_text().replace("aliases: [toygpu]", "aliases: [toycard]"))
    names = target_names([root])
    assert names["toycard"] == root / "toy" and "toygpu" not in names
    path.write_text(path.read_text() + "aliases: [\n")
    with pytest.raises(RuleError):
        target_names([root])
