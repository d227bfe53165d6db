"""Build files keep their syntax: a translated Makefile or CMake file parses wherever the
original does, by the real tools (GNU make, CMake), over the examples' build files and
generated ones with line continuations, recipe tabs, conditionals, ``define``/``endef``,
``$(foreach)``, make functions, shell loops, quoted strings, generator expressions and
comments. For Makefiles the translation also keeps every variable and target the original
defines (a continuation lost between two lines can still parse, and then defines a
variable less); for CMake files it keeps every command. ``bench/build_parse.py`` runs the
same checks over real projects' build files.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES
from cudaport.builds.cmake import CMakeSyntaxError, parse, translate_cmake
from cudaport.run.kinds import kind_of
from cudaport.builds.makefile import translate_makefile

MAKE = shutil.which("make")
CMAKE = shutil.which("cmake")
needs_make = pytest.mark.skipif(MAKE is None, reason="needs GNU make")
needs_cmake = pytest.mark.skipif(CMAKE is None, reason="needs cmake")
SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])
GOAL = "__cudaport_parse_check__"


def _renamed() -> frozenset[str]:
    """Variables a translation adds, renames or removes by design: the architecture
    variable and the toolkit folder's variables (rules/hip/build/make.yaml)."""
    from cudaport.builds.makefile import load_rules
    from cudaport.options import Options

    rules = load_rules(Options())
    return frozenset((rules.arch_variable, rules.root_variable, *rules.root_variables))


# The CUDA toolkit's folder and the target's (make.yaml's root: a toolkit variable becomes
# ROCM_PATH, /usr/local/cuda /opt/rocm, and lib64 after it lib), empty where a rule names
# the variable before it is set: one name in a target's name.
_toolkit_root = re.compile(r"(?:/usr/local/cuda(?:-[\d.]+)?|/opt/rocm|(?<![^\s]))/lib(?:64)?"
                           r"(?![\w.-])|/usr/local/cuda(?:-[\d.]+)?|/opt/rocm")


def _toolkit_env() -> dict[str, str]:
    """The toolkit folders set as a user's environment sets them: a name computed from one
    before the file assigns it (`built$(CUDA_PATH)/lib64` on line 1) reads the folder, and
    the translation's `$(ROCM_PATH)/lib` normalizes to the same name."""
    from cudaport.builds.makefile import load_rules
    from cudaport.options import Options

    rules = load_rules(Options())
    return {**{v: "/usr/local/cuda" for v in rules.root_variables},
            rules.root_variable: "/opt/rocm"}


def make_database(folder: Path, text: bytes) -> tuple[bool, str, set[str], set[str]]:
    """Parse ``text`` as ``Makefile`` with ``make -n -p`` (a goal of its own, so no recipe of
    the file runs): (parses, make's message, variables the file defines, its targets)."""
    (folder / "Makefile").write_bytes(text)
    (folder / "stub.mk").write_text(f"{GOAL}: ; @:\n")
    proc = subprocess.run([MAKE, "-n", "-p", "-f", "Makefile", "-f", "stub.mk", GOAL],
                          cwd=folder, capture_output=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "LANG": "C", **_toolkit_env()})
    out = proc.stdout.decode("utf-8", "replace")
    variables, targets = set(), set()
    lines = out.splitlines()
    for i, line in enumerate(lines[:-1]):
        if line.startswith("# makefile (from 'Makefile'"):
            m = re.match(r"(?:define )?([^\s:+?!]+)\s*[:+?!]*=?", lines[i + 1])
            if m:
                variables.add(_toolkit_root.sub("<toolkit>", m.group(1)))
    previous = ""
    for line in out.split("# Files", 1)[-1].splitlines():
        # (a file named only as a prerequisite is "Not a target": a rule's prerequisites
        # are values, like a variable's, and a translation rewrites what they expand to)
        m = re.match(r"([^#\s][^:=\n]*?):(?![:=])", line)
        if m and previous != "# Not a target:":
            targets.add(_toolkit_root.sub("<toolkit>", m.group(1)))
        previous = line
    return proc.returncode == 0, proc.stderr.decode("utf-8", "replace")[-500:], variables, targets


def assert_make_keeps_syntax(tmp_path: Path, original: bytes) -> None:
    result = translate_makefile(original)
    again = translate_makefile(result.output)
    assert again.output == result.output, "not idempotent"
    if result.output == original:
        return
    # (folders of one name: a Makefile may read its folder's name, `$(shell basename $$PWD)`)
    before = tmp_path / "original" / "project"
    after = tmp_path / "translated" / "project"
    for folder in (before, after):
        folder.mkdir(parents=True, exist_ok=True)
    ok, _, variables, targets = make_database(before, original)
    if not ok:
        return
    ok2, message, variables2, targets2 = make_database(after, result.output)
    shown = result.output.decode("utf-8", "replace")
    assert ok2, f"make parses the original but not its translation: {message}\n{shown}"
    kept, kept2 = variables - _renamed(), variables2 - _renamed()
    assert kept == kept2, f"variables differ: {sorted(kept ^ kept2)}\n{shown}"
    assert targets == targets2, f"targets differ: {sorted(targets ^ targets2)}\n{shown}"


def cmake_parses(folder: Path, text: bytes) -> tuple[bool, str]:
    """Whether CMake parses ``text``: ``cmake -P`` on it with ``return()`` first (CMake
    reads a whole file before it runs a command; nothing of it runs)."""
    script = folder / "parse.cmake"
    script.write_bytes(b"return()\n" + text)
    proc = subprocess.run([CMAKE, "-P", str(script)], capture_output=True, timeout=60,
                          cwd=folder)
    return proc.returncode == 0, (proc.stdout + proc.stderr).decode("utf-8", "replace")[-500:]


def commands(text: bytes) -> list[bytes]:
    try:
        return [c.name for c in parse(text)]
    except CMakeSyntaxError:
        return []


def assert_cmake_keeps_syntax(tmp_path: Path, original: bytes) -> None:
    result = translate_cmake(original)
    assert translate_cmake(result.output).output == result.output, "not idempotent"
    ok, _ = cmake_parses(tmp_path, original)
    if not ok:
        return
    ok2, message = cmake_parses(tmp_path, result.output)
    shown = result.output.decode("utf-8", "replace")
    assert ok2, f"CMake parses the original but not its translation: {message}\n{shown}"
    added = {b"set_source_files_properties", b"find_package"}
    assert [c for c in commands(original) if c not in added] == \
        [c for c in commands(result.output) if c not in added], f"commands differ\n{shown}"


@pytest.mark.parametrize("kind, module, function, shown, data", [
    ("make", "cudaport.builds.makefile", "translate_makefile", "Makefile", b"CC = nvcc\n"),
    ("cmake", "cudaport.builds.cmake", "translate_cmake", "CMakeLists.txt",
     b"project(p LANGUAGES CUDA)\n"),
])
def test_a_tool_error_is_a_finding_on_that_file(monkeypatch, kind, module, function, shown,
                                                data):
    """An internal error on one build file (once an OverlapError: check exited 2 and
    translate wrote nothing) is a CP908 error on that file, which is left as it is."""
    import importlib

    from cudaport.run.kinds import translate_file
    from cudaport.options import Options

    def broken(*args, **kwargs):
        raise AssertionError("overlapping edits")

    monkeypatch.setattr(importlib.import_module(module), function, broken)
    out, outcome = translate_file(data, kind, Options(), shown)
    assert out == data and outcome.wanted
    assert [(f.code, f.severity) for f in outcome.findings] == [("CP908", "error")]


# ---------------------------------------------------------------------------------------
# The examples' build files

def _example_build_files(kind: str) -> list:
    return [pytest.param(p, id=str(p.relative_to(EXAMPLES)))
            for p in sorted(EXAMPLES.rglob("*")) if p.is_file()
            and kind_of(p.name) == kind and "expected" not in p.parts]


@needs_make
@pytest.mark.parametrize("path", _example_build_files("make"))
def test_example_makefiles_keep_their_syntax(tmp_path, path):
    assert_make_keeps_syntax(tmp_path, path.read_bytes())


@needs_cmake
@pytest.mark.parametrize("path", _example_build_files("cmake"))
def test_example_cmake_files_keep_their_syntax(tmp_path, path):
    assert_cmake_keeps_syntax(tmp_path, path.read_bytes())


# ---------------------------------------------------------------------------------------
# Generated Makefiles

FLAGS = ["-arch=sm_70", "-arch sm_80", "-arch=$(ARCH)", "-gencode arch=compute_70,code=sm_70",
         "-gencode=arch=compute_80,code=\\\"sm_80,compute_80\\\"", "--gpu-architecture=sm_90",
         "-Xptxas -v", "-Xptxas=-v", "-Xcompiler -fPIC,-Wall", '-Xcompiler "-O2,-g"',
         "-Xcompiler '-Wall -Wextra'", "--expt-relaxed-constexpr", "--extended-lambda",
         "-lineinfo", "-maxrregcount=32", "-maxrregcount 64", "-ptx", "-lcudart", "-lcublas",
         "-lnvjpeg", "-I$(CUDA_PATH)/include", "-L$(CUDA_HOME)/lib64", "-O3", "$(NVCCFLAGS)",
         "-DX=1", "-rdc=true", "-rdc=false", "-dc", "-std c++17", "-x cu", "-ccbin g++",
         "--default-stream per-thread", "-G", "-use_fast_math", "-Wno-deprecated-gpu-targets",
         "$(addprefix -Xcompiler ,$(CCFLAGS))", "$(if $(DEBUG),-G -lineinfo,-O3)",
         "$(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm))",
         "$(shell echo -Xptxas -v)", "-keep-dir tmp", "--cudart shared"]
SEPARATORS = [" ", "  ", "\t", " \\\n    ", "\\\n    ", " \\\n\t"]
RECIPE_SEPARATORS = [" ", " \\\n\t", "\\\n\t\t", " \\\n\t  "]
COMMANDS = ["nvcc", "$(NVCC)", "@echo nvcc", "$(CUDA_PATH)/bin/nvcc", "@$(NVCC)"]


@st.composite
def flag_list(draw, separators):
    flags = draw(st.lists(st.sampled_from(FLAGS), min_size=1, max_size=6))
    out = ""
    for i, flag in enumerate(flags):
        if i:
            out += draw(st.sampled_from(separators))
        out += flag
    return out


@st.composite
def makefile(draw) -> bytes:
    lines = ["CUDA_PATH ?= /usr/local/cuda", "NVCC = $(CUDA_PATH)/bin/nvcc", "SMS = 70 80"]
    for i in range(draw(st.integers(1, 5))):
        shape = draw(st.sampled_from(["assign", "conditional", "define", "comment"]))
        flags = draw(flag_list(SEPARATORS))
        tail = draw(st.sampled_from(["", "  # a note", " # nvcc -arch=sm_70"]))
        op = draw(st.sampled_from(["=", ":=", "+=", "?="]))
        if shape == "assign":
            lines.append(f"F{i} {op} {flags}{tail}")
        elif shape == "conditional":
            other = draw(flag_list(SEPARATORS))
            lines += ["ifeq ($(DEBUG),1)", f"  F{i} {op} {flags}", "else", f"  F{i} {op} {other}",
                      "endif"]
        elif shape == "define":
            lines += [f"define RULE{i}", "$(1): $(1).cu", f"\tnvcc {flags} $$< -o $$@", "endef",
                      f"$(foreach p,a b,$(eval $(call RULE{i},$(p))))"]
        else:
            lines += [f"# {flags} \\", f"  continued comment {i}"]
    lines.append("all: app")
    lines.append("app: main.cu")
    for _ in range(draw(st.integers(1, 3))):
        command = draw(st.sampled_from(COMMANDS))
        flags = draw(flag_list(RECIPE_SEPARATORS))
        shape = draw(st.sampled_from(["plain", "loop", "chain"]))
        if shape == "plain":
            lines.append(f"\t{command} {flags} $< -o $@")
        elif shape == "loop":
            lines.append(f"\tfor cc in 70 80; do {command} {flags} -arch=compute_$$cc "
                         f"-code=sm_$$cc $< -o $@.$$cc; done")
        else:
            lines.append(f"\t@echo {command} {flags} ; \\\n\t{command} {flags} $< -o $@ && "
                         f"echo done")
    return ("\n".join(lines) + "\n").encode()


@needs_make
@SETTINGS
@given(text=makefile())
def test_generated_makefiles_keep_their_syntax(tmp_path_factory, text):
    assert_make_keeps_syntax(tmp_path_factory.mktemp("make"), text)


# ---------------------------------------------------------------------------------------
# Generated CMake files

CMAKE_FLAGS = ["--extended-lambda", "--expt-relaxed-constexpr", "-Xptxas -v", "-Xptxas=-v",
               "--ptxas-options -v", "-lineinfo", "-use_fast_math", "-arch=sm_80",
               "-arch=${CUDA_ARCH}", "-gencode arch=compute_70,code=sm_70", "-G", "-O3",
               "-Xcompiler=-fPIC,-Wall", "-Xcompiler -fPIC", "-maxrregcount=64", "-dc",
               "-DUNROLL=${U}", "-forward-unknown-to-host-compiler", "-Xcudafe --diag_suppress=1",
               "-rdc=true", "-lnvidia-ml", "-ptx"]


@st.composite
def cmake_file(draw) -> bytes:
    lines = ["cmake_minimum_required(VERSION 3.18)"]
    for i in range(draw(st.integers(1, 5))):
        flags = draw(st.lists(st.sampled_from(CMAKE_FLAGS), min_size=1, max_size=5))
        shape = draw(st.sampled_from(["string", "append", "list", "options", "genex",
                                      "multiline", "rocm", "shell"]))
        spaced = " ".join(flags)
        if shape == "string":
            lines.append(f'set(CMAKE_CUDA_FLAGS "${{CMAKE_CUDA_FLAGS}} {spaced}")  # flags')
        elif shape == "append":
            lines.append(f'string(APPEND CMAKE_CUDA_FLAGS " {spaced}")')
        elif shape == "list":
            lines.append(f"list(APPEND CUDA_NVCC_FLAGS {spaced})")
        elif shape == "options":
            lines.append(f"target_compile_options(t{i} PRIVATE {spaced} -O2)")
        elif shape == "genex":
            listed = ";".join(flags)
            quote = draw(st.sampled_from(['"', ""]))
            if quote:
                lines.append(f'target_compile_options(t{i} PRIVATE '
                             f'"$<$<COMPILE_LANGUAGE:CUDA>:{listed}>")')
            else:
                lines.append(f"target_compile_options(t{i} PRIVATE "
                             f"$<$<COMPILE_LANGUAGE:CUDA>:{listed.replace(' ', ';')}>)")
        elif shape == "multiline":
            body = "\n".join(f"    {f}" + draw(st.sampled_from(["", " ", "  # why"]))
                             for f in flags)
            lines.append(f"set(FLAGS_{i}\n{body}\n)")
        elif shape == "rocm":
            lines += ["if(ENABLE_ROCM)", "  add_definitions(-DUSE_ROCM)", "else()",
                      f"  target_compile_options(t{i} PRIVATE {spaced})", "endif()"]
        else:
            lines.append(f'target_compile_options(t{i} PUBLIC $<$<COMPILE_LANGUAGE:CUDA>:\n'
                         f'    {spaced}\n    "SHELL:{spaced}"\n    >)')
    return ("\n".join(lines) + "\n").encode()


@needs_cmake
@SETTINGS
@given(text=cmake_file())
def test_generated_cmake_files_keep_their_syntax(tmp_path_factory, text):
    assert_cmake_keeps_syntax(tmp_path_factory.mktemp("cmake"), text)


@st.composite
def cmake_script(draw) -> bytes:
    """Scriptable commands only (set, string, list, set_property): the file runs with
    ``cmake -P``, so a removal that shifts an argument's place shows."""
    lines = ['set(CMAKE_CUDA_FLAGS "-O2")', "set(CUDA_NVCC_FLAGS -O2)"]
    for _ in range(draw(st.integers(1, 6))):
        a, b = draw(st.sampled_from(CMAKE_FLAGS)), draw(st.sampled_from(CMAKE_FLAGS))
        lines.append(draw(st.sampled_from([
            f'string(REPLACE "{a}" "{b}" CMAKE_CUDA_FLAGS "${{CMAKE_CUDA_FLAGS}}")',
            f'string(APPEND CMAKE_CUDA_FLAGS " {a} {b}")',
            f'set(FLAGS "{a}")', f"set(FLAGS {a} {b})", f'set(FLAGS "{a}" CACHE STRING "x")',
            f"list(APPEND CUDA_NVCC_FLAGS {a} {b})", f'list(REMOVE_ITEM CUDA_NVCC_FLAGS "{a}")',
            f'list(FIND CUDA_NVCC_FLAGS "{a}" AT)', f'list(INSERT CUDA_NVCC_FLAGS 0 "{a}")',
            f"set_property(GLOBAL PROPERTY P {a} {b})",
            f'string(REGEX REPLACE "{a}" "{b}" OUT "${{CMAKE_CUDA_FLAGS}}")',
        ])))
    lines.append('message(STATUS "${CMAKE_CUDA_FLAGS} ${CUDA_NVCC_FLAGS}")')
    return ("\n".join(lines) + "\n").encode()


@needs_cmake
@SETTINGS
@given(text=cmake_script())
def test_translated_cmake_scripts_run_where_the_originals_run(tmp_path_factory, text):
    folder = tmp_path_factory.mktemp("script")
    runs = []
    for data in (text, translate_cmake(text).output):
        (folder / "s.cmake").write_bytes(data)
        proc = subprocess.run([CMAKE, "-P", str(folder / "s.cmake")], capture_output=True,
                              timeout=60, cwd=folder)
        runs.append((proc.returncode, (proc.stdout + proc.stderr).decode("utf-8", "replace")))
    if runs[0][0] == 0:
        assert runs[1][0] == 0, runs[1][1][-800:] + "\n" + translate_cmake(text).output.decode()


# ---------------------------------------------------------------------------------------
# Real configures: the original with nvcc, the translation with ROCm 7.2's root

CONFIGURED = {
    "flag-contexts": """cmake_minimum_required(VERSION 3.21)
project(p LANGUAGES CXX CUDA)
find_package(CUDAToolkit REQUIRED)
set(CMAKE_CUDA_ARCHITECTURES 70 80)
set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -gencode arch=compute_80,code=sm_80 --extended-lambda \\
-Xptxas -v -lineinfo")
string(APPEND CMAKE_CUDA_FLAGS " -Xcompiler=-fPIC,-Wall -maxrregcount=64")
string(REPLACE "-Xptxas -v" "" CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS}")
add_library(k STATIC k.cu)
target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas;-v;--use_fast_math;-dc>
  "$<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -G>"
  $<$<COMPILE_LANGUAGE:CUDA>:
    --expt-relaxed-constexpr --expt-extended-lambda
    "SHELL:-Xcudafe --diag_suppress=177"
  >)
set_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON CUDA_ARCHITECTURES "75;86")
target_link_libraries(k PUBLIC CUDA::cudart)
""",
    "rocm-switch": """cmake_minimum_required(VERSION 3.21)
project(p LANGUAGES CXX)
option(ENABLE_ROCM "AMD" OFF)
if(ENABLE_ROCM)
  enable_language(HIP)
  add_definitions(-DUSE_AMD_ROCM)
else()
  enable_language(CUDA)
  set(CUDA_FLAGS --expt-extended-lambda -arch=sm_70)
  add_executable(app main.cu)
  target_compile_options(app PRIVATE ${CUDA_FLAGS})
endif()
""",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CONFIGURED))
def test_translated_cmake_projects_configure_where_the_originals_do(tmp_path, name):
    """``cmake`` configures (and generates) the translation with ROCm 7.2's root wherever
    this machine's CMake and nvcc configure the original."""
    from cudaport.builds.build import rocm72_dir

    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    wrapper = rocm72_dir() / "cudaport-run"
    if CMAKE is None or not Path(nvcc).exists() or not wrapper.exists():
        pytest.skip("needs cmake, nvcc and ROCm 7.2's root (tools/setup-rocm.sh 7.2)")
    text = CONFIGURED[name].encode()
    for side in ("original", "translated"):
        (tmp_path / side).mkdir()
        for unit in ("k.cu", "main.cu"):
            (tmp_path / side / unit).write_text("__global__ void k() {}\nint main() {}\n")
    (tmp_path / "original" / "CMakeLists.txt").write_bytes(text)
    (tmp_path / "translated" / "CMakeLists.txt").write_bytes(translate_cmake(text).output)
    proc = subprocess.run([CMAKE, "-S", str(tmp_path / "original"), "-B", str(tmp_path / "b1"),
                           f"-DCMAKE_CUDA_COMPILER={nvcc}"], capture_output=True, text=True,
                          timeout=600)
    if proc.returncode != 0:
        pytest.skip(f"the original does not configure here: {proc.stdout[-300:]}{proc.stderr[-300:]}")
    args = ["-DENABLE_ROCM=ON"] if name == "rocm-switch" else []
    for extra in ([], args) if args else ([],):
        build = tmp_path / f"b2{len(extra)}"
        proc = subprocess.run([str(wrapper), "cmake", "-S", str(tmp_path / "translated"), "-B",
                               str(build), *extra], capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]


# ---------------------------------------------------------------------------------------
# The fuzz run's findings (bench/fuzz.py, /tmp/fuzz_fail4), shrunk

FUZZ_MAKEFILES = {
    # a toolkit root in a rule's targets, set after the rule (empty there): ROCM_PATH and
    # lib in the translation, by design (make.yaml's root), as in a variable's value
    "root in a rule's targets": "$(CUDA_PATH)/lib64 app: x\nCUDA_PATH ?= /usr/local/cuda\n"
                                "NVCC := $(CUDA_PATH)/bin/nvcc\n",
    # a rule's prerequisites that expand to flags, a compiler or an include folder: values
    # the translation ports (the prerequisites are files make was not told to build)
    "flags as prerequisites": "NVCCFLAGS := -O3 -lineinfo -lcudart -Xcompiler -fPIC\n"
                              "app: main.o $(NVCCFLAGS) -o $@\n",
    "include folder as a prerequisite": "CFLAGS := -I$(CUDA_PATH)/include\n"
                                        "CUDA_PATH ?= /usr/local/cuda\n"
                                        "main.o: main.c(CC) $(CFLAGS) -c $< -o $@\n",
    "compiler as a prerequisite": "NVCC := /usr/local/cuda/bin/nvcc\n"
                                  "app: main.o\t$(NVCC) -lineinfo -o $@\n",
    # `CUDA_PATH\?=` assigns the variable `CUDA_PATH\`, not a toolkit variable
    "a toolkit variable's name with more after it": "CUDA_PATH\\?= /usr/local/cuda\n"
                                                    "NVCC := $(CUDA_PATH)/bin/nvcc\n",
    # a line starting with a tab before any rule is a line of the makefile (here it assigns
    # the variable `-arch`), not a recipe; after a rule (and a conditional) it is one
    "a tab line before any rule": "\t-arch=sm_70# a note\nNVCC := nvcc\napp: x.cu\n"
                                  "ifeq ($(D),)\n\t$(NVCC) -arch=sm_70 x.cu\nendif\n"
                                  "F = 1\n\tG = -arch=sm_80 # -G\n",
    # a computed variable name, blanks only inside its references: `$(addprefix -X ,$(F))`
    # expands to nothing, so the line assigns the variable `-arch` (a 30-minute run's)
    "a computed variable name": "$(addprefix -Xcompiler ,$(F))-arch=sm_70# note\n"
                                "NVCC := nvcc\napp: x.cu\n\t$(NVCC) -arch=sm_70 x.cu\n",
    # names computed from the toolkit's folder (a 23-minute run's, /tmp/fuzz_fail7): a
    # variable, and a target whose folder comes after other characters; the translation
    # renames the folder in them, as everywhere (the checker reads both with the folders
    # set, as a user's environment sets them)
    "a variable named after the toolkit folder": "CUDA_PATH ?= /usr/local/cuda\n"
                                                 "$(CUDA_PATH)/lib64NVCC := $(CUDA_PATH)/bin/nvcc\n"
                                                 "LDFLAGS := -L$(CUDA_PATH)/lib64 -lcudart\n",
    # a host option spelled like an nvcc one, unwrapped from -Xcompiler (a 30-minute
    # run's, /tmp/fuzz_fail8): translated in the first pass, not the second
    "an architecture option among host options": "CC := gcc\nmain.o: main.c\n"
                                                 "\t$(CC) -c $< -o -Xcompiler -fPIC,-arch=sm_70-O2$@\n",
    # a reference left open at a recipe line's end (a 4-minute run's, brucefan1983's
    # makefile): the word stops at the newline, the next rule stays a rule
    "an unclosed reference in a recipe": "CC = nvcc\nr.o: r.cu\n"
                                         "\t-arch=sm_70$(CC $(CFLAGS) -c r.cu\nm.o: m.cu\n"
                                         "\t$(CC) -c m.cu\n",
    "a target after other characters": "  built$(CUDA_PATH)/lib64 by nvcc\n"
                                       "CUDA_PATH ?= /usr/local/cuda\n"
                                       "NVCC := $(CUDA_PATH)/bin/nvcc\n",
}


@needs_make
@pytest.mark.parametrize("name", list(FUZZ_MAKEFILES))
def test_fuzz_found_makefiles_keep_their_syntax(tmp_path, name):
    assert_make_keeps_syntax(tmp_path, FUZZ_MAKEFILES[name].encode())


def test_a_tab_line_is_a_recipe_only_in_a_rule():
    text = FUZZ_MAKEFILES["a tab line before any rule"].encode()
    out = translate_makefile(text).output.decode()
    assert "\n\t-arch=sm_70# a note\n" in out  # (a variable's name)
    assert "\t$(NVCC) --offload-arch=$(HIP_ARCH) x.cu\n" in out  # (the recipe, in ifeq)
    assert "\tG = --offload-arch=$(HIP_ARCH) # -G\n" in out  # (an assignment: `#` comments)


def test_a_generator_expression_in_a_source_name_gets_no_language_mark():
    """set_source_files_properties takes no generator expression (its names are file
    names): marking `co$<$<COMPILE_LANGUAGE:CUDA>:unt.cu` (a fuzz run's) wrote the original
    text after the argument became HIP's, and each pass added one more."""
    text = (b"project(p LANGUAGES CUDA)\n"
            b"add_library(k STATIC co$<$<COMPILE_LANGUAGE:CUDA>:unt.cu k.cu)\n")
    out = translate_cmake(text).output
    assert translate_cmake(out).output == out
    assert b"set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)" in out
