"""Configuration: discovery by walking up, precedence, validation, and CLI overrides."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from check_fixtures import run
from cudaport.project.config import Config, ConfigError, find_config, glob_match, load_config


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_found_by_walking_up_from_the_first_path(tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.cudaport]\ntarget = "hip"\nlaunch = "hip"\n')
    src = write(tmp_path / "a" / "b" / "k.cu", "")
    config = load_config([str(src)])
    assert config.path == tmp_path / "pyproject.toml"
    assert config.launch == "hip" and config.root == tmp_path.resolve()


def test_pyproject_without_a_cudaport_table_is_skipped(tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.cudaport]\nlaunch = "hip"\n')
    write(tmp_path / "sub" / "pyproject.toml", '[project]\nname = "x"\n')
    assert find_config(tmp_path / "sub") == tmp_path / "pyproject.toml"


def test_dot_cudaport_toml_wins_in_the_same_folder(tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.cudaport]\nlaunch = "cuda"\n')
    write(tmp_path / ".cudaport.toml", 'launch = "hip"\nfail-on = "warning"\n')
    config = load_config([str(tmp_path)])
    assert config.path.name == ".cudaport.toml"
    assert (config.launch, config.fail_on) == ("hip", "warning")


def test_no_config_gives_empty_settings(tmp_path):
    assert load_config([str(tmp_path)]) == Config(root=load_config([str(tmp_path)]).root)


@pytest.mark.parametrize("text, message", [
    ('[tool.cudaport]\ntarget = "hip"\nlanch = "hip"\n', ":3: [tool.cudaport] lanch: unknown key"),
    ('[tool.cudaport]\nfail_on = "error"\n', "unknown key (did you mean 'fail-on'?)"),
    ('[tool.cudaport]\nlaunch = "ptx"\n', ":2: [tool.cudaport] launch: 'ptx' is not one of cuda, hip"),
    ('[tool.cudaport]\nselect = "CP1"\n', "select: expected a list, got str"),
    ('[tool.cudaport]\nignore = ["cp101"]\n', "ignore: 'cp101' is not a code or code prefix"),
    ('[tool.cudaport]\nhip-version = "six"\n', "hip-version: 'six': expected a version"),
    ('[tool.cudaport.variants]\nblas = "openblas"\n', "variants: blas = 'openblas' is not one of"),
    ('[tool.cudaport]\nselect = [\n', "invalid TOML"),
])
def test_bad_config_names_file_line_and_key(tmp_path, text, message):
    config = write(tmp_path / "pyproject.toml", text)
    with pytest.raises(ConfigError) as info:
        load_config([str(tmp_path)])
    assert str(info.value).startswith(str(config))
    assert message in str(info.value)


def test_bad_config_exits_two_from_every_command(tmp_path, monkeypatch):
    write(tmp_path / ".cudaport.toml", 'colour = true\n')
    src = write(tmp_path / "k.cu", "cudaFree(p);\n")
    monkeypatch.chdir(tmp_path)
    for args in (("check", "k.cu"), ("report", "k.cu"), ("translate", "k.cu")):
        result = run(*args)
        assert result.exit_code == 2, args
        assert ".cudaport.toml:1: colour: unknown key" in result.stderr
        assert "Traceback" not in result.stderr
    assert src.read_text() == "cudaFree(p);\n"


def test_config_feeds_translate_and_the_command_line_overrides_it(tmp_path, monkeypatch):
    write(tmp_path / ".cudaport.toml", 'launch = "hip"\n[variants]\nblas = "rocblas"\n')
    write(tmp_path / "k.cu", "__global__ void k();\nvoid f(cublasHandle_t h) { k<<<1, 2>>>(); }\n")
    monkeypatch.chdir(tmp_path)
    out = run("translate", "k.cu").stdout
    assert "hipLaunchKernelGGL(k, dim3(1), dim3(2), 0, 0)" in out
    assert "rocblas_handle" in out
    out = run("translate", "k.cu", "--launch", "cuda", "--blas", "hipblas").stdout
    assert "k<<<1, 2>>>()" in out and "hipblasHandle_t" in out


def test_check_takes_select_ignore_fail_on_and_per_path_ignores(tmp_path, monkeypatch):
    write(tmp_path / ".cudaport.toml", 'fail-on = "warning"\nignore = ["CP101"]\n'
          '[per-path-ignores]\n"legacy/**" = ["CP103"]\n')
    write(tmp_path / "new" / "a.cu", "cudaArrayGetPlane(0,0,0); cudaThreadSynchronize();\n")
    write(tmp_path / "legacy" / "deep" / "b.cu", "cudaThreadSynchronize();\n")
    monkeypatch.chdir(tmp_path)
    result = run("check", ".")
    assert result.exit_code == 1  # fail-on = warning from the file
    assert result.stdout.splitlines()[0] == "new/a.cu:1:27: CP103 cudaThreadSynchronize was removed in CUDA 13.0"
    assert "legacy" not in result.stdout and "CP101" not in result.stdout
    assert run("check", ".", "--fail-on", "error").exit_code == 0  # flag beats the file
    assert "CP101" in run("check", ".", "--select", "CP101").stdout  # more specific wins


def test_explicit_config_file_and_relative_rule_paths(tmp_path, monkeypatch):
    write(tmp_path / "conf" / "my.toml", 'rules = ["extra.yaml"]\n')
    write(tmp_path / "conf" / "extra.yaml", "library: runtime\nidentifiers:\n"
          "  cudaFancyNewThing: {kind: function, to: hipFancyNewThing}\n")
    write(tmp_path / "k.cu", "cudaFancyNewThing(0);\n")
    monkeypatch.chdir(tmp_path)
    assert "CP105 cudaFancyNewThing" in run("check", "k.cu").stdout
    assert run("check", "k.cu", "--fail-on", "warning").exit_code == 1
    assert run("check", "k.cu", "--fail-on", "warning", "--config", "conf/my.toml").exit_code == 0
    missing = run("check", "k.cu", "--config", "conf/none.toml")
    assert missing.exit_code == 2 and "conf/none.toml: no such configuration file" in missing.stderr


@pytest.mark.parametrize("pattern, path, hit", [
    ("third_party", "third_party/x/y.cu", True),
    ("third_party", "src/third_party/y.cu", True),   # no slash: any component
    ("build/", "build/a.cu", True),
    ("*.cuh", "src/a.cuh", True),
    ("src/*.cu", "src/a.cu", True),
    ("src/*.cu", "src/sub/a.cu", False),
    ("src/**/*.cu", "src/sub/deep/a.cu", True),
    ("src/**/*.cu", "src/a.cu", True),
    ("legacy/**", "legacy/x/a.cu", True),
    ("legacy/**", "src/legacy/a.cu", False),
    ("vendor?", "vendor1/a.cu", True),
    ("./src/*.cu", "src/a.cu", True),
])
def test_glob_match(pattern, path, hit):
    assert glob_match(pattern, path) is hit


def test_the_readme_example_is_a_valid_config(tmp_path):
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    block = re.search(r"```toml\n(\[tool\.cudaport\].*?)```", readme, re.S).group(1)
    config = load_config(config_file=write(tmp_path / "pyproject.toml", block))
    assert config.launch == "hip" and config.variants == (("blas", "rocblas"),)
    assert config.per_path_ignores == (("legacy/**", ("CP102", "CP103")),)
    assert config.is_excluded(tmp_path / "third_party" / "x.cu")


def test_dot_cudaport_toml_may_use_the_pyproject_header(tmp_path):
    write(tmp_path / ".cudaport.toml", '[tool.cudaport]\nignore = ["CP105"]\n'
          '[tool.cudaport.per-path-ignores]\n"a/*" = ["CP101"]\n')
    config = load_config([str(tmp_path)])
    assert config.ignore == ("CP105",) and config.per_path_ignores == (("a/*", ("CP101",)),)


def test_errors_in_tables_point_at_the_table_header(tmp_path):
    write(tmp_path / ".cudaport.toml", 'target = "hip"\n\n[per-path-ignores]\n"x" = "CP1"\n'
          '[colours]\nred = 1\n')
    with pytest.raises(ConfigError) as info:
        load_config([str(tmp_path)])
    assert str(info.value).startswith(f"{tmp_path / '.cudaport.toml'}:5: colours: unknown key")
