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
    from cudaport.source.lexer import scanner
    from cudaport.options import Options
    from cudaport.rules import get_compiled
    from cudaport.source.scan import scan

    assert b")*+" not in scanner([b"cuda"]).pattern
    src = b"// x\n#include <cstdio>\nint a;\n#include <cuda_runtime.h>\n"
    found = scan(src, get_compiled(Options()))
    assert [i.name for i in found.includes] == [b"cstdio", b"cuda_runtime.h"]
    assert not found.unknown


def test_no_module_repeats_a_group_possessively():
    """The same CPython bug matched nothing where the skeleton's word-before-'(' regex
    repeated its ``name ::`` group possessively: every function head lost its name on
    3.11.2. No pattern in the package may write a group repeat that way."""
    pattern = re.compile(r"\)[*+?}]\+")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "cudaport").rglob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if pattern.search(line) and not line.lstrip().startswith("#")]
    assert not found


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

    from cudaport.cli.main import main

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


# --- translate DIR --out-dir OUT: the whole project, one mirroring rule ----------------

KERNEL = (b"#include <cuda_runtime.h>\n__global__ void k(float* x) { x[0] = 1; }\n"
          b"void run(float* p) { cudaMalloc(&p, 4); k<<<1, 1>>>(p); cudaFree(p); }\n")


def _cli(*args: str):
    from click.testing import CliRunner

    from cudaport.cli.main import main

    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _tree(root: Path, files: dict[str, bytes]) -> Path:
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    return root


def _below(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


PROJECT = {"src/a.cu": KERNEL, "src/Makefile": b"all:\n\tnvcc -c a.cu\n",
           "src/data/table.bin": b"\x00\x01\x02", "src/LICENSE": b"MIT\n",
           "include/x.h": b"int x();\n", "README.md": b"# p\n"}


def test_one_folder_lands_as_the_output_folder_itself(tmp_path, monkeypatch):
    _tree(tmp_path / "p", PROJECT)
    monkeypatch.chdir(tmp_path)
    assert _cli("translate", "p/src", "--out-dir", "out", "-q").exit_code == 0
    assert _below(tmp_path / "out") == {"a.cu", "Makefile", "data/table.bin", "LICENSE"}
    assert (tmp_path / "out" / "data" / "table.bin").read_bytes() == b"\x00\x01\x02"
    assert b"hipMalloc" in (tmp_path / "out" / "a.cu").read_bytes()
    assert b"hipcc" in (tmp_path / "out" / "Makefile").read_bytes()


def test_several_inputs_keep_their_places_below_their_common_folder(tmp_path, monkeypatch):
    """One rule for one or several inputs: OUT stands for the deepest folder holding them
    all (issue 37: one folder mirrored its contents, several kept the folder names
    relative to the current folder)."""
    _tree(tmp_path / "p", PROJECT)
    monkeypatch.chdir(tmp_path)
    assert _cli("translate", "p/src", "p/include", "--out-dir", "o1", "-q").exit_code == 0
    assert _below(tmp_path / "o1") == {"src/a.cu", "src/Makefile", "src/data/table.bin",
                                       "src/LICENSE", "include/x.h"}
    # the same from elsewhere, with absolute paths: the current folder plays no part
    monkeypatch.chdir(tmp_path / "p" / "src" / "data")
    assert _cli("translate", str(tmp_path / "p" / "src"), str(tmp_path / "p" / "include"),
                "--out-dir", str(tmp_path / "o2"), "-q").exit_code == 0
    assert _below(tmp_path / "o2") == _below(tmp_path / "o1")
    # files named one by one: below their common folder too; one file lands as OUT/NAME
    monkeypatch.chdir(tmp_path)
    assert _cli("translate", "p/src/a.cu", "p/include/x.h", "--out-dir", "o3",
                "-q").exit_code == 0
    assert _below(tmp_path / "o3") == {"src/a.cu", "include/x.h"}
    assert _cli("translate", "p/src/a.cu", "--out-dir", "o4", "-q").exit_code == 0
    assert _below(tmp_path / "o4") == {"a.cu"}
    # a folder and a file inside it: the file once
    assert _cli("translate", "p/src", "p/src/a.cu", "--out-dir", "o5", "-q").exit_code == 0
    assert "a.cu" in _below(tmp_path / "o5")


def test_the_readme_states_the_mirroring_rule():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Translating a repository", 1)[1]
    assert "deepest folder that holds every input" in section
    assert "--no-copy-all" in section


def test_the_whole_tree_is_copied_safely(tmp_path, monkeypatch):
    """Every file copied, and nothing else: a FIFO is never read (it would hang), a link
    out of the tree is not followed, nothing is written outside OUT."""
    import os

    _tree(tmp_path / "p", PROJECT)
    os.mkfifo(tmp_path / "p" / "src" / "pipe")
    (tmp_path / "secret").write_bytes(b"outside\n")
    os.symlink(tmp_path / "secret", tmp_path / "p" / "src" / "leak")
    os.symlink("LICENSE", tmp_path / "p" / "src" / "COPYING")
    monkeypatch.chdir(tmp_path)
    result = _cli("translate", "p/src", "--out-dir", "out")
    assert result.exit_code == 0, result.output
    assert _below(tmp_path / "out") == {"a.cu", "Makefile", "data/table.bin", "LICENSE",
                                        "COPYING"}
    assert (tmp_path / "out" / "COPYING").read_bytes() == b"MIT\n"
    assert "CP931" in result.output  # (the link out of the tree, named)


def test_links_to_folders_of_the_tree_are_made_again_in_the_output(tmp_path, monkeypatch):
    """``include -> src/include`` (relative or absolute, inside the tree) is the same
    relative link in OUT, so ``-Iinclude`` still finds the translated headers; a second
    run leaves it; anything else already at its place is kept and the run says so."""
    import os

    _tree(tmp_path / "p", {"src/include/k.cuh": KERNEL, "src/a.cu": b'#include "k.cuh"\n'})
    os.symlink("src/include", tmp_path / "p" / "include")
    (tmp_path / "p" / "deep").mkdir()
    os.symlink(tmp_path / "p" / "src", tmp_path / "p" / "deep" / "src")  # absolute
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        result = _cli("translate", "p", "--out-dir", "out")
        assert result.exit_code == 0, result.output
        assert os.readlink(tmp_path / "out" / "include") == "src/include"
        assert os.readlink(tmp_path / "out" / "deep" / "src") == "../src"
        assert b"hipMalloc" in (tmp_path / "out" / "include" / "k.cuh").read_bytes()
    (tmp_path / "out" / "include").unlink()
    (tmp_path / "out" / "include").write_bytes(b"mine\n")
    result = _cli("translate", "p", "--out-dir", "out")
    assert result.exit_code != 0 and "not a link to src/include" in result.output
    assert (tmp_path / "out" / "include").read_bytes() == b"mine\n"


def test_git_submodules_are_part_of_the_tree(tmp_path, monkeypatch):
    """git lists a submodule as one path, not its files: they are listed from it."""
    import subprocess

    def git(cwd, *args):
        subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t",
                        "-c", "protocol.file.allow=always", *args], cwd=cwd, check=True,
                       capture_output=True)

    lib = _tree(tmp_path / "lib", {"vec.cuh": KERNEL, "LICENSE": b"BSD\n"})
    git(lib, "init", "-q")
    git(lib, "add", ".")
    git(lib, "commit", "-qm", "lib")
    app = _tree(tmp_path / "app", {"main.cu": b'#include "third_party/lib/vec.cuh"\n'})
    git(app, "init", "-q")
    git(app, "submodule", "add", "-q", str(lib), "third_party/lib")
    git(app, "commit", "-qm", "app")
    result = _cli("translate", str(app), "--out-dir", str(tmp_path / "out"), "-q")
    assert result.exit_code == 0, result.output
    files = _below(tmp_path / "out")
    assert {"main.cu", "third_party/lib/vec.cuh", "third_party/lib/LICENSE"} <= files
    assert b"hipMalloc" in (tmp_path / "out" / "third_party/lib/vec.cuh").read_bytes()


def test_headers_without_an_extension_are_read_when_a_source_includes_them(tmp_path,
                                                                          monkeypatch):
    """libcu++-style ``detail/__config`` (holding ``<nv/target>``) was never checked or
    translated; a bare name nobody includes (LICENSE) stays a copy."""
    _tree(tmp_path / "p", {
        "include/lib/api.cuh": b'#pragma once\n#include "detail/__config"\n',
        "include/lib/detail/__config": b"#pragma once\n#include <nv/target>\n"
                                       b"#include <lib/detail/__prelude>\n",
        "include/lib/detail/__prelude": b"#define LIB_ALLOC cudaMalloc\n",
        "main.cu": b"#include <lib/api.cuh>\nint main() {}\n", "LICENSE": b"cudaMalloc\n"})
    monkeypatch.chdir(tmp_path)
    check = _cli("check", "p", "--statistics")
    assert "p/include/lib/detail/__config:2:11: CP111" in check.output
    assert "blocked: p/main.cu: includes p/include/lib/api.cuh, which is blocked: p/main.cu:1"\
        " -> p/include/lib/api.cuh:2 -> p/include/lib/detail/__config:2:11 CP111" in check.output
    assert check.exit_code == 1
    assert _cli("translate", "p", "--out-dir", "out", "-q").exit_code == 1
    assert b"hipMalloc" in (tmp_path / "out/include/lib/detail/__prelude").read_bytes()
    assert (tmp_path / "out/LICENSE").read_bytes() == b"cudaMalloc\n"  # (not a header)


# --- one exit-code contract, one GPU architecture ------------------------------------

def test_one_default_gpu_architecture_everywhere_settable_once(tmp_path, monkeypatch):
    """verify compiled for gfx90a, translated Makefiles and CMake files for gfx942."""
    from cudaport.builds.cmake import translate_cmake
    from cudaport.builds.makefile import translate_makefile
    from cudaport.options import Options
    from cudaport.rules import offload_arch
    from cudaport.run.verify import find_compiler, rocm_compiler

    default = offload_arch(Options())
    assert default == "gfx90a"
    make = translate_makefile(b"all:\n\tnvcc -arch=sm_80 -c k.cu\n").output
    assert f"HIP_ARCH ?= {default}".encode() in make
    cmake = translate_cmake(b"set(CMAKE_CUDA_ARCHITECTURES 80)\n", Options(), "CMakeLists.txt")
    assert f"set(CMAKE_HIP_ARCHITECTURES {default})".encode() in cmake.output
    wrapper = tmp_path / "cudaport-hipcc"
    wrapper.write_text("#!/bin/sh\n")
    wrapper.chmod(0o755)
    assert f"--offload-arch={default}" in rocm_compiler(tmp_path).argv
    assert f"--offload-arch={default}" in find_compiler(str(wrapper)).argv
    # set once, for every command, on the command line or in the configuration
    chosen = Options(offload_arch="gfx942")
    assert b"HIP_ARCH ?= gfx942" in translate_makefile(
        b"all:\n\tnvcc -arch=sm_80 -c k.cu\n", chosen).output
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "Makefile").write_bytes(b"all:\n\tnvcc -arch=sm_80 -c k.cu\n")
    (tmp_path / "p" / "pyproject.toml").write_text('[tool.cudaport]\noffload-arch = "gfx1100"\n')
    monkeypatch.chdir(tmp_path)
    assert _cli("translate", "p", "--out-dir", "o1", "-q").exit_code == 0
    assert b"HIP_ARCH ?= gfx1100" in (tmp_path / "o1" / "Makefile").read_bytes()
    assert _cli("translate", "p", "--out-dir", "o2", "-q", "--offload-arch",
                "gfx942").exit_code == 0
    assert b"HIP_ARCH ?= gfx942" in (tmp_path / "o2" / "Makefile").read_bytes()
    for command in ("translate", "check", "verify"):
        assert "--offload-arch" in _cli(command, "--help").output


def test_verify_exit_code_counts_check_findings_and_compile_failures():
    """verify exited 0 for a unit check calls blocked, and 0 with --fail-on never when a
    unit failed to compile."""
    from types import SimpleNamespace

    from cudaport.cli.commands.verify import verify_exit_code
    from cudaport.findings import Finding

    blocked = SimpleNamespace(findings=[Finding("CP210", "inline PTX", "k.cu", 3, 3)])
    ok = [SimpleNamespace(ok=True, findings=[])]
    failed = [SimpleNamespace(ok=False, findings=[Finding("CP501", "no", "k.cu", 3, 3)])]
    assert verify_exit_code(ok, blocked, "error") == 1
    assert verify_exit_code(ok, blocked, "never") == 0
    assert verify_exit_code(ok, None, "error") == 0
    assert verify_exit_code(failed, None, "never") == 1
    assert verify_exit_code(failed, None, "error") == 1


def test_unseen_projects_build_files_name_why_host_files_need_the_platform():
    """gpu-burn's Makefile names its toolkit CUDAPATH (its g++ compiles of HIP headers need
    the platform macro); mixbench-cuda's CMakeLists lets C++ files include the runtime
    through CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES, which HIP's language has no form of."""
    from cudaport.builds.cmake import translate_cmake
    from cudaport.builds.makefile import translate_makefile
    from cudaport.options import Options

    make = translate_makefile(b"CUDAPATH ?= /usr/local/cuda\nCFLAGS += -I${CUDAPATH}/include\n"
                              b"k.o: k.cpp\n\tg++ $(CFLAGS) -c $<\n").output
    assert b"CFLAGS += -I${ROCM_PATH}/include -D__HIP_PLATFORM_AMD__" in make
    cmake = translate_cmake(b"include_directories(${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})\n",
                            Options(), "CMakeLists.txt")
    (finding,) = [f for f in cmake.findings if "TOOLKIT_INCLUDE" in f.message]
    assert finding.code == "CP302" and "hip::host" in finding.message


def test_a_cu_mark_that_names_no_file_is_said_where_it_can_be_fixed(tmp_path, monkeypatch):
    """BabelStream's register_model(cuda CUDA CUDAStream.cu) adds src/cuda/CUDAStream.cu:
    the LANGUAGE HIP mark by the bare name reached nothing, CMake's HIP language left the
    source out and the link failed with no finding; a mark whose file is there says
    nothing."""
    _tree(tmp_path / "p", {
        "CMakeLists.txt": b"project(p LANGUAGES CXX CUDA)\nregister_model(cuda CUDA Stream.cu)\n"
                          b"add_sample(gemm.cu)\n",
        "src/cuda/Stream.cu": KERNEL, "gemm.cu": KERNEL})
    monkeypatch.chdir(tmp_path)
    text = _cli("check", "p").output
    assert ("p/CMakeLists.txt:2:26: CP302 Stream.cu given to register_model() is marked "
            "LANGUAGE HIP by this name, but no Stream.cu is next to this file") in text
    assert "gemm.cu given" not in text
