"""A newcomer's first hour: what a clean machine needs is declared, and the README's
commands are the ones CI runs.

CI (``.ci/run``) installs ``.[test]`` into a fresh virtual environment made with Debian's
own ``python3``; these tests keep that honest without a network: every module the code and
the tests import is the standard library's, the project's own, or declared in
``pyproject.toml``.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
# Import name -> distribution, where they differ.
DISTRIBUTIONS = {"yaml": "pyyaml", "clang": "libclang", "pre_commit": "pre-commit"}


def _imports(path: Path) -> set[str]:
    """Top-level names of the absolute imports in a Python file (strings are not code)."""
    tree = ast.parse(path.read_bytes(), str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    return names


def _local_modules() -> set[str]:
    """Modules the tests import from the checkout itself (tests/, bench/, tools/, examples/)."""
    names = {"cudaport", "tests"}
    for folder in ("tests", "bench", "tools", "examples"):
        names.update(p.stem for p in (ROOT / folder).glob("*.py"))
    return names


def _declared(extra: str) -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    specs = list(project["dependencies"]) + list(project["optional-dependencies"][extra])
    return {re.split(r"[<>=!~;\[ ]", s, maxsplit=1)[0].strip().lower() for s in specs}


def _undeclared(files, extra: str) -> dict[str, list[str]]:
    declared = _declared(extra)
    local = _local_modules()
    missing: dict[str, list[str]] = {}
    for path in files:
        for name in _imports(path):
            if name in sys.stdlib_module_names or name in local or name == "__future__":
                continue
            if name == "tomli":  # (declared for Python < 3.11 only)
                continue
            if DISTRIBUTIONS.get(name, name).lower() not in declared:
                missing.setdefault(name, []).append(path.relative_to(ROOT).as_posix())
    return missing


def test_every_module_the_tests_import_is_declared_for_the_test_extra():
    files = sorted((ROOT / "tests").glob("*.py"))
    assert files
    assert _undeclared(files, "test") == {}


def test_every_module_cudaport_imports_is_a_dependency():
    files = sorted((ROOT / "cudaport").rglob("*.py"))
    missing = _undeclared(files, "cuda-headers")  # (that extra only adds header wheels)
    assert missing == {}


def test_ci_runs_the_readme_commands_in_a_fresh_virtual_environment():
    ci = (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("## Using it", 1)[0]
    install = re.search(r"```sh\n(bash tools/setup-system.sh .+)\n```", quick).group(1)
    steps = [s.strip() for s in install.split("&&")]
    assert steps[1].startswith("python3 -m venv ") and steps[2].startswith(". ")
    assert "python3 -m pip install -e '.[test]'" in steps
    # CI makes a new environment from Debian's python3 and runs the same commands in it.
    assert re.search(r'"\$PYTHON" -m venv "\$VENV"', ci) and "PYTHON=/usr/bin/python3" in ci
    assert ". \"$VENV/bin/activate\"" in ci
    assert "python3 -m pip install -q --disable-pip-version-check -e '.[test]'" in ci
    assert steps[-1] in ci  # the example
    tests = re.search(r"Run the tests[^\n]*:\n\n```sh\n(.+)\n```", quick).group(1)
    assert ci.rstrip().splitlines()[-1] == tests
    assert "python3-venv" in (ROOT / "tools" / "setup-system.sh").read_text()


def test_scanner_finds_includes_without_a_possessive_group_repeat():
    """Debian 12's python3 (3.11.2) mis-matches ``(?:...)*+`` around a negative lookahead
    (python/cpython#100061): the scanner then saw no ``#include`` at all. Its skip is an
    atomic group instead; the scan must find the includes whatever Python runs it."""
    from cudaport.lexer import scanner
    from cudaport.options import Options
    from cudaport.rules import get_compiled
    from cudaport.scan import scan

    assert b")*+" not in scanner([b"cuda"]).pattern
    src = b"// x\n#include <cstdio>\nint a;\n#include <cuda_runtime.h>\n"
    found = scan(src, get_compiled(Options()))
    assert [i.name for i in found.includes] == [b"cstdio", b"cuda_runtime.h"]
    assert not found.unknown


# --- one story: check, translate and report give one ported share --------------------

PTX_AND_UNMAPPED = (b"#include <cuda.h>\n"
                    b"__global__ void k(int* p) { asm volatile(\"bar.arrive 1, 64;\"); }\n"
                    b"void f(CUfunction fn) { cuFuncSetBlockShape(fn, 1, 1, 1); }\n"
                    b"void g(float* d) { cudaMalloc(&d, 4); cudaFree(d); }\n")


def _share(text: str) -> str:
    return re.search(r"\((\d+\.\d)%\)", text).group(1)


def test_check_translate_and_report_print_one_ported_share(tmp_path, monkeypatch):
    """gpu-burn read 90.3 % in check and 83.6 % in translate: translate, which keeps no
    references without --report, counted every error as a blocking construct."""
    from click.testing import CliRunner

    from cudaport.cli import main

    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "k.cu").write_bytes(PTX_AND_UNMAPPED)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    check = runner.invoke(main, ["check", "p"])
    translate = runner.invoke(main, ["translate", "p", "--out-dir", "out"])
    report = runner.invoke(main, ["translate", "p", "--out-dir", "out2", "--report", "r.json"])
    markdown = runner.invoke(main, ["report", "p", "--markdown", "r.md"])
    assert markdown.exit_code in (0, 1), markdown.output
    shares = {_share(check.stdout), _share(translate.stderr), _share(report.stderr),
              _share((tmp_path / "r.md").read_text().replace("**", ""))}
    data = __import__("json").loads((tmp_path / "r.json").read_text())["summary"]
    assert len(shares) == 1, (check.stdout, translate.stderr)
    assert f"{data['percent_ported']:.1f}" in shares
    assert "1 blocking construct(s)" in check.stdout  # (the PTX; CP101 has its reference)
    assert "1 blocking construct(s)" in translate.stderr


def test_fix_counts_say_how_many_findings_each_flag_fixes():
    """"3 more with --unsafe-fixes" read as 3 more findings: each flag's count is the
    findings it fixes (--unsafe-fixes applies the safe fixes too)."""
    from cudaport.report.text import fixes_sentence
    from cudaport.report.totals import Totals

    t = Totals("HIP")
    t.fixable.update(safe=1, unsafe=3)
    assert fixes_sentence(t) == "; 1 fixable with --fix (4 with --unsafe-fixes)"
    t.fixable["safe"] = 0
    assert fixes_sentence(t) == "; 3 fixable with --unsafe-fixes"
    t.fixable.update(safe=2, unsafe=-3)
    assert fixes_sentence(t) == "; 2 fixable with --fix"
