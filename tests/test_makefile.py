"""Makefiles as a file kind: nvcc command lines become hipcc's (rules/hip/build/make.yaml),
edits on the original bytes, findings for what has no equivalent, generated Makefiles left
alone, and idempotent."""

from __future__ import annotations

import pytest

from cudaport.run.kinds import kind_of, translate_file
from cudaport.run.kinds import is_makefile
from cudaport.builds.makefile import translate_makefile
from cudaport.options import Options

ARCH = "# The AMD GPU to build for (hipcc --offload-arch; cudaport)\nHIP_ARCH ?= gfx90a\n"


def tr(text: str, **kw) -> tuple[str, list[tuple[str, int]]]:
    result = translate_makefile(text.encode(), Options(**kw), "Makefile")
    again = translate_makefile(result.output, Options(**kw), "Makefile")
    assert again.output == result.output, "not idempotent"
    return result.output.decode(), [(f.code, f.line) for f in result.findings]


@pytest.mark.parametrize("name,kind", [
    ("Makefile", "make"), ("makefile", "make"), ("GNUmakefile", "make"), ("rules.mk", "make"),
    ("Makefile.linux", "make"), ("Makefile_nvidia", "make"), ("make.config", "make"),
    ("Makefile.in", "copy"), ("Makefile.am", "copy"), ("CMakeLists.txt", "cmake"),
    ("main.cu", "source"),
])
def test_kinds(name, kind):
    assert kind_of(name) == kind
    assert is_makefile(name) == (kind == "make")


@pytest.mark.parametrize("before,after", [
    ("CC = nvcc\n", "CC = hipcc\n"),
    ("NVCC := $(CUDA_PATH)/bin/nvcc\n", "NVCC := $(ROCM_PATH)/bin/hipcc\n"),
    ("CUDA_HOME ?= /usr/local/cuda-12.4\n", "ROCM_PATH ?= /opt/rocm\n"),
    # an alias of one toolkit variable for another would make ROCM_PATH refer to itself
    ("CUDA_DIR = /usr/local/cuda\nCUDA_INSTALL_PATH = $(CUDA_DIR)\nX = $(CUDA_INSTALL_PATH)/lib64\n",
     "ROCM_PATH = /opt/rocm\nX = $(ROCM_PATH)/lib\n"),
    ("LIBS = -L$(CUDA_DIR)/lib64 -lcudart -lcuda\n", "LIBS = -L$(ROCM_PATH)/lib -lamdhip64 -lamdhip64\n"),
    ("F = -O3 -Xcompiler -Wall -Xcompiler=-fopenmp,-fPIC\n", "F = -O3 -Wall -fopenmp -fPIC\n"),
    ('F = --compiler-options "-O2,-g" -c\n', "F = -O2 -g -c\n"),
    # host options hipcc reads as its own once unwrapped: translated in the same pass (a
    # second pass did it, a 30-minute fuzz run's one failure)
    ("F = -Xcompiler -fPIC,-arch=sm_70 -lcudart\n",
     "# The AMD GPU to build for (hipcc --offload-arch; cudaport)\nHIP_ARCH ?= gfx90a\n"
     "F = -fPIC --offload-arch=$(HIP_ARCH) -lamdhip64\n"),
    ("F = -arch=sm_80 -Xcompiler=-fPIC,-arch=sm_70,-lcublas\n",
     "# The AMD GPU to build for (hipcc --offload-arch; cudaport)\nHIP_ARCH ?= gfx90a\n"
     "F = --offload-arch=$(HIP_ARCH) -fPIC -lhipblas\n"),
    ("F = --use_fast_math -rdc=true --expt-relaxed-constexpr --extended-lambda\n",
     "F = -ffast-math -fgpu-rdc\n"),
    ("F = -dc -G -std c++17 -x cu\n", "F = -fgpu-rdc -c -g -std=c++17 -x hip\n"),
    ("F = --default-stream per-thread --ftz=true --fmad=true -rdc=false\n",
     "F = -fgpu-default-stream=per-thread -fgpu-flush-denormals-to-zero\n"),
    ("L = -lcublas -lcufft -lcurand -lcusparse -lcusolver -lcudnn -lnccl -lculibos\n",
     "L = -lhipblas -lhipfft -lhiprand -lhipsparse -lhipsolver -lMIOpen -lrccl\n"),
    ("INC = -I$(CUDA_PATH)/include -I.\n", "INC = -I$(ROCM_PATH)/include -D__HIP_PLATFORM_AMD__ -I.\n"),
    # comments, other tools' options and the project's names are left alone
    ("# nvcc -arch=sm_70 -lcudart\nCUDA_LIB_DIR = x\nCFLAGS = -march=native -m64 -c\n",
     "# nvcc -arch=sm_70 -lcudart\nCUDA_LIB_DIR = x\nCFLAGS = -march=native -m64 -c\n"),
])
def test_rewrites(before, after):
    out, found = tr(before)
    assert out == after
    assert [code for code, _ in found if code != "CP306"] == []  # (removed: an info note)


@pytest.mark.parametrize("line", [
    "F = -arch=sm_80 -O3", "F = -arch sm_80 -O3", "F = --gpu-architecture=compute_70 -O3",
    "F = -gencode arch=compute_70,code=sm_70 -gencode=arch=compute_80,code=sm_80 -O3",
    "F = -arch=$(SM) -code=sm_$(SM) -O3",
])
def test_architectures_become_one_variable(line):
    out, found = tr(f"# user options\n\n{line}\n")
    assert out == f"# user options\n\n{ARCH}\nF = --offload-arch=$(HIP_ARCH) -O3\n"
    assert found == []


def test_sycl_makefiles_keep_their_nvidia_back_end():
    text = "CFLAGS = -fsycl-targets=nvptx64-nvidia-cuda -Xsycl-target-backend --cuda-gpu-arch=sm_80\n"
    assert tr(text) == (text, [])


def test_architecture_inside_make_functions_and_a_set_variable():
    text = ("HIP_ARCH = gfx90a\n"
            "$(foreach sm,$(SMS),$(eval GENCODE += -gencode arch=compute_$(sm),code=sm_$(sm)))\n")
    out, _ = tr(text)
    assert out == ("HIP_ARCH = gfx90a\n"
                   "$(foreach sm,$(SMS),$(eval GENCODE += --offload-arch=$(HIP_ARCH)))\n")


def test_what_has_no_equivalent_is_reported_on_its_line():
    text = ("NVCCFLAGS = -O3 -Xptxas -v -lineinfo -maxrregcount=32\n"
            "LIBS = -lcublas -lnvjpeg -lnvidia-ml\n"
            "INC = -I$(CUDA_PATH)/samples/common/inc\n"
            "all:\n\tnvcc -ptx k.cu\n\tnvprof ./app\n\tnvcc -dlink a.o -o l.o\n")
    out, found = tr(text)
    assert out.splitlines()[:2] == ["NVCCFLAGS = -O3 -gline-tables-only",
                                    "LIBS = -lhipblas -lnvjpeg -lrocm_smi64"]
    assert "-I$(ROCM_PATH)/samples/common/inc" in out
    assert "hipcc -ptx k.cu" in out and "hipcc -fgpu-rdc --hip-link a.o" in out
    assert found == [("CP306", 1), ("CP311", 1), ("CP312", 2), ("CP313", 2),
                     ("CP312", 3), ("CP312", 5), ("CP313", 6), ("CP313", 7)]


def test_msvc_host_options_are_dropped_with_a_note():
    """A Windows Makefile's `-Xcompiler "/wd 4819"` (brucefan1983/CUDA-Programming's
    makefile.windows) became a bare `"/wd 4819"`, which hipcc's clang reads as an input
    file: an MSVC option is dropped with a note, GCC-style ones and paths stay."""
    text = ('CFLAGS = -O3 -arch=sm_75 -Xcompiler "/wd 4819"\n'
            "F = -Xcompiler -fPIC,/W4 -Xcompiler=/Zc:__cplusplus\n"
            "G = -Xcompiler /usr/lib/x.o\n")
    out, found = tr(text)
    assert out == (ARCH + "CFLAGS = -O3 --offload-arch=$(HIP_ARCH)\n"
                   "F = -fPIC\nG = /usr/lib/x.o\n")
    assert found == [("CP311", 1), ("CP311", 2), ("CP311", 2)]


def test_quoted_host_options_are_read_word_by_word_once_unquoted():
    """A quoted `-Xcompiler "A B,C"` is written unquoted (`A B C`), where the shell splits A B
    into two words: each is translated now, as hipcc would read it (a 30-minute fuzz run's
    failure: an nvcc `-gencode` inside the quotes came out bare and a second pass rewrote it)."""
    text = 'CFLAGS = -Xcompiler "/wd -gencode arch=compute_70,code=sm_70" -Xcompiler "-a -b"\n'
    out, found = tr(text)
    assert out == ARCH + 'CFLAGS = --offload-arch=$(HIP_ARCH) code=sm_70 "-a -b"\n'
    assert tr(out)[0] == out
    assert ("CP311", 1) in found


def test_neighbouring_drops_at_a_continued_line_start():
    out, found = tr("F = -O3 \\\n    --expt-relaxed-constexpr -Xptxas -v -G\n")
    assert out == "F = -O3 \\\n    -g\n"
    assert found == [("CP306", 2), ("CP306", 2)]


def test_variants_pick_the_library():
    out, _ = tr("L = -lcublas -lcurand\n", variants=(("blas", "rocblas"), ("rand", "rocrand")))
    assert out == "L = -lrocblas -lrocrand\n"


def test_recipes_continuations_and_crlf_are_byte_exact():
    text = ("app: main.o\r\n\t$(NVCC) -o $@ $^ \\\r\n\t\t-arch=sm_70 \\\r\n\t\t-lcudart  # link\r\n"
            "%.o: %.cu\r\n\t$(NVCC) -Xcompiler -fPIC -c $< -o $@\r\n")
    out, _ = tr(text)
    assert out == (ARCH.replace("\n", "\r\n")
                   + "app: main.o\r\n\t$(NVCC) -o $@ $^ \\\r\n\t\t--offload-arch=$(HIP_ARCH) \\\r\n"
                   "\t\t-lamdhip64  # link\r\n%.o: %.cu\r\n\t$(NVCC) -fPIC -c $< -o $@\r\n")


@pytest.mark.parametrize("header", [
    "# Makefile.in generated by automake 1.16.5 from Makefile.am.\n",
    "# CMAKE generated file: DO NOT EDIT!\n# Generated by \"Unix Makefiles\" Generator, CMake Version 3.28\n",
])
def test_generated_makefiles_are_left_alone(header):
    text = header + "NVCC = nvcc\nF = -arch=sm_70 -lcudart\n"
    result = translate_makefile(text.encode(), Options(), "Makefile")
    assert result.output == text.encode()
    assert [f.code for f in result.findings] == ["CP314"]


def test_kind_outcome_and_rename_note():
    data = b"CC = nvcc\nmain: main.cu\n\t$(CC) -arch=sm_80 main.cu -o main\n"
    out, outcome = translate_file(data, "make", Options(), "Makefile")
    assert outcome.changed and outcome.wanted and b"hipcc" in out
    _, renamed = translate_file(data, "make", Options(), "Makefile", rename=((".cu", ".hip"),))
    assert [f.code for f in renamed.findings] == ["CP315"]
    plain = b"all:\n\tgcc -o x x.c\n"
    out, outcome = translate_file(plain, "make", Options(), "Makefile")
    assert out == plain and not outcome.wanted


# Issue 43: a flag rewrite keeps make's syntax.

def test_a_flag_ending_a_continued_line_keeps_the_continuation():
    text = ("CFLAGS := $(EXTRA_CFLAGS) -std=c++17 -Xcompiler -Wall -arch=$(ARCH)\\\n"
            "              -I../blockAccess-cuda\n")
    out, _ = tr(text)
    assert out == (ARCH + "CFLAGS := $(EXTRA_CFLAGS) -std=c++17 -Wall --offload-arch=$(HIP_ARCH)\\\n"
                   "              -I../blockAccess-cuda\n")


@pytest.mark.parametrize("before,after", [
    # a removed option before a recipe's continuation: the shell would join the words
    # around a backslash-newline, so they stay apart
    ("all:\n\t$(NVCC) -O3 -Xptxas -v\\\n\t-c x.cu\n", "all:\n\t$(NVCC) -O3 -c x.cu\n"),
    ("all:\n\t$(NVCC) -O3 \\\n\t-Xptxas -v\n", "all:\n\t$(NVCC) -O3\n"),
    # the last options of a continued assignment go with the continuation before them
    ("N := -gencode=arch=compute_100,code=sm_100 \\\n     -gencode=arch=compute_120,code=sm_120\n",
     ARCH + "N := --offload-arch=$(HIP_ARCH)\n"),
    ("K = A \\\n  -Xptxas -v \\\n  D\n", "K = A \\\n  D\n"),
    # make functions: an option with no value in its argument; arguments stay apart
    ("F += $(addprefix -Xcompiler ,$(CCFLAGS))\nG = $(addprefix -Xcompiler,$(X))\n",
     "F += $(addprefix ,$(CCFLAGS))\nG = $(addprefix ,$(X))\n"),
    ("H = $(if $(D),-Xcompiler -fPIC,-O2)\n", "H = $(if $(D),-fPIC,-O2)\n"),
    ("F = -Xcompiler=$(subst x,y,z) -Xcompiler -fPIC,$(if $(D),-g,-O2)\n",
     "F = $(subst x,y,z) -fPIC $(if $(D),-g,-O2)\n"),
    ("G = $(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm))\n",
     ARCH + "G = $(foreach sm,$(SMS),--offload-arch=$(HIP_ARCH))\n"),
    # quoting, comments and a define's recipe
    ("X = -Xcompiler \"-Wall -Werror\" -Xcompiler '-DA=\"b\"'  # -Xptxas -v\n",
     "X = \"-Wall -Werror\" '-DA=\"b\"'  # -Xptxas -v\n"),
    ("define RULE\n$(1): $(1).cu\n\tnvcc -Xptxas -v $$< -o $$@\nendef\n",
     "define RULE\n$(1): $(1).cu\n\thipcc $$< -o $$@\nendef\n"),
    # a comment continued by a backslash runs on: the variable goes after it
    ("# note \\\ncontinued\nF = -arch=sm_70\n",
     "# note \\\ncontinued\n" + ARCH + "\nF = --offload-arch=$(HIP_ARCH)\n"),
], ids=["recipe-continuation", "recipe-last", "continued-assignment", "continued-middle",
        "addprefix", "if", "host-options-with-functions", "foreach", "quotes-comment", "define", "continued-comment"])
def test_syntax_around_rewritten_options(before, after):
    assert tr(before)[0] == after


def test_shell_loop_recipes_are_ported_like_plain_lines():
    """Issue 37: the compile line of a shell loop keeps its architecture (each shell command
    gets one --offload-arch), where it lost it to the echo line before it."""
    text = ("all: k\nk: k.cu\n\t@echo nvcc -arch=sm_70 ; \\\n"
            "\tfor cc in 70; do nvcc -arch=compute_$$cc -code=sm_$$cc $< -o $@; done\n"
            "\tfor cc in $(SMS); do $(NVCC) -gencode arch=compute_$$cc,code=sm_$$cc -c $< "
            "&& echo $$cc; done\n")
    out, found = tr(text)
    assert out == (ARCH + "all: k\nk: k.cu\n\t@echo hipcc --offload-arch=$(HIP_ARCH) ; \\\n"
                   "\tfor cc in 70; do hipcc --offload-arch=$(HIP_ARCH) $< -o $@; done\n"
                   "\tfor cc in $(SMS); do $(NVCC) --offload-arch=$(HIP_ARCH) -c $< "
                   "&& echo $$cc; done\n")
    assert found == []


@pytest.mark.parametrize("line, kept", [
    ("-arch = sm_70\nall:\n", "-arch = sm_70"),  # a variable named -arch (make reads it so)
    ("check-nvcc nvcc: main.cu\n\ttouch $@\n", "check-nvcc nvcc: main.cu"),  # file names
    ("main: built by nvcc\n\ttouch $@\n", "main: built by nvcc"),  # prerequisites too
    # a '=' before the ':' but blanks before it: make's variable names have none, a rule
    ("-gencode arch=compute_70,code=sm_70 nvcc: a.cu\n\ttouch $@\n",
     "-gencode arch=compute_70,code=sm_70 nvcc: a.cu"),
    # its own value: --offload-arch=$(HIP_ARCH) there would make HIP_ARCH reference itself
    ("HIP_ARCH ?= $(shell nvcc -arch=sm_70 x)\n", "-arch=sm_70 x)"),
], ids=["assigned-name", "rule-targets", "rule-prerequisites", "rule-targets-with-equals", "arch-variable-value"])
def test_a_lines_own_names_are_not_options(line, kept):
    """bench/fuzz.py: what names a variable or a target is the project's, not an option
    or a command (make then defined other variables or targets, or stopped on a
    self-referencing HIP_ARCH)."""
    text, _ = tr(line)
    assert kept in text


def test_the_value_after_a_lines_own_names_is_still_ported():
    text, _ = tr("NVCCFLAGS := -arch=sm_70\nfoo: bar ; nvcc -arch=sm_70 -c x.cu\n")
    assert "NVCCFLAGS := --offload-arch=$(HIP_ARCH)" in text
    assert "foo: bar ; hipcc --offload-arch=$(HIP_ARCH) -c x.cu" in text


def _cuda_release() -> str:
    """major.minor of the CUDA whose answer a version query gets: target.yaml's
    cuda_version_values (the CUDA the originals are checked with)."""
    from cudaport.rules.compiled import get_compiled

    values = get_compiled(Options()).target.extra["cuda_version_values"]
    return f"{values['__CUDACC_VER_MAJOR__']}.{values['__CUDACC_VER_MINOR__']}"


VERSION_QUERIES = [
    # nccl's makefiles/common.mk (its contrib/nccl_ep gates on CUDA_MAJOR: `$(error ...
    # requires CUDA 11.8+)` fired on hipcc's answer), nccl4py's, pannotia's, kokkos's, mumax's
    ("NVCC ?= $(CUDA_HOME)/bin/nvcc\nV = $(strip $(shell which $(NVCC) >/dev/null && "
     "$(NVCC) --version | grep release | sed 's/.*release //' | sed 's/\\,.*//'))\n", "{}"),
    ("V := $(shell $(CUDA_HOME)/bin/nvcc --version 2>/dev/null | sed -n "
     "'s/.*release \\([0-9]\\+\\.[0-9]\\+\\).*/\\1/p')\n", "{}"),
    ("V:=$(shell nvcc --version | awk '/release/ {print $$5;}' | sed 's/,//')\n", "{}"),
    ("ifeq ($(USE_CUDA),1)\n  V := $(shell nvcc --version 2>&1 | grep release | cut -d' ' -f5 "
     "| cut -d',' -f1 | tr -d .)\nendif\n", "{0}{1}"),
    ("V := $(shell $(NVCC) --version | grep \"Cuda compilation\" | grep -Eo "
     "'[+-]?[0-9]+([.][0-9]+)?' | head -n 1)\n", "{}"),
    ("V != nvcc -V | grep release | sed 's/.*release //;s/,.*//'\n", "{}"),
]


@pytest.mark.parametrize("text,answer", VERSION_QUERIES)
def test_a_query_of_nvccs_version_gets_the_answer_of_cuda_13(tmp_path, text, answer):
    """hipcc prints no `release X.Y`: a CUDA version read from it is empty, and the
    project's own gate (`$(error NCCL_EP requires CUDA 11.8+)`) breaks the HIP build. As
    for a version gate in a source, the translation takes the answer of the CUDA the
    originals are checked with (target.yaml's cuda_version_values), and CP313 says so on
    that line; make, run on the translation, reads that version."""
    import shutil
    import subprocess

    out, found = tr(text)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "-V" in t or "version" in t)
    assert ("CP313", line) in found
    assert "--version" not in out and " -V " not in out
    assert "Cuda compilation tools, release " + _cuda_release() in out
    if shutil.which("make") is None:
        pytest.skip("needs GNU make")
    for tool in ("hipcc", "nvcc"):  # (`which $(NVCC)` finds the compiler)
        (tmp_path / tool).write_text("#!/bin/sh\necho 'HIP version: 7.2.0'\n")
        (tmp_path / tool).chmod(0o755)
    (tmp_path / "Makefile").write_text(out.replace("$(CUDA_HOME)/bin/", "")
                                       .replace("$(ROCM_PATH)/bin/", "")
                                       + "show: ; @echo $(V)\n")
    proc = subprocess.run(["make", "-s", "USE_CUDA=1", "show"], cwd=tmp_path, text=True,
                          capture_output=True, env={"PATH": f"{tmp_path}:/usr/bin:/bin"})
    major, minor = _cuda_release().split(".")
    assert proc.stdout.strip() == answer.format(major, minor) if "{0}" in answer \
        else proc.stdout.strip() == answer.format(_cuda_release())


@pytest.mark.parametrize("text", [
    "all:\n\tnvcc --version | grep release\n",  # a recipe prints it: hipcc's own is right
    "V := $(shell nvcc --version)\n",  # not read on: shown as it is
    "V := $(shell nvcc --version || true)\n",
    "V := $(shell $(CXX) --version | grep release)\n",  # another compiler's version
    "V := $(shell nvcc --versions | grep x)\n",
    "V := $(shell echo nvcc --version | grep x)\n",
    "# V := $(shell nvcc --version | grep release)\n",
])
def test_only_a_query_of_nvccs_version_read_on_is_answered(text):
    out, _ = tr(text)
    assert "Cuda compilation tools" not in out


@pytest.mark.parametrize("before,after", [
    # a fuzz run's: the option's rewrite and the root's rename overlapped, so the root was
    # left and a second pass renamed it
    ("F := -Xcompiler -Wall,-fP$(CUDA_PATH)/lib64IC\n", "F := -Wall -fP$(ROCM_PATH)/lib64IC\n"),
    ("F := -Xcompiler -Wall,-L$(CUDA_HOME)/lib64\n", "F := -Wall -L$(ROCM_PATH)/lib\n"),
    ("F := -Xcompiler -Wall,-I/usr/local/cuda/include\n", "F := -Wall -I/opt/rocm/include\n"),
])
def test_a_rewritten_option_renames_the_toolkit_folder_in_it(before, after):
    assert tr(before)[0] == after
