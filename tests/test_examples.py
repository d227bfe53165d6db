"""The examples gallery: every example translates to its committed expected output, the
translation is idempotent, and the expected output compiles with the real HIP compiler
(clang++ -x hip with Debian's HIP 5.2 headers, or hipcc).

Each example is also translated for, and compiled with, both toolchains `cudaport verify`
knows: ROCm 6.4 (the folder tools/setup-rocm.sh installs) and the host's HIP 5.2. HIP 5.2
lacks hipBLAS, hipFFT, hipCUB and bf16: there, the examples marked `check: text` have their
translated text checked instead (their example.yaml says why). The inline-PTX example must
fail `verify` on its CUDA lines with both.
"""

from __future__ import annotations

import dataclasses
import os
import sys

import pytest

from cudaport import Options, translate_bytes
from cudaport.run.kinds import kind_of, translate_file
from cudaport.run.verify import find_compiler, verify_paths
from conftest import EXAMPLES

sys.path.insert(0, str(EXAMPLES))
import gallery  # noqa: E402

ALL = gallery.all_examples()
OLDER_VERSIONS = gallery.OLDER_VERSIONS
# The command CI runs: clang++-15 -x hip --offload-arch=gfx90a --rocm-path=/usr -nogpulib
# -fsyntax-only, plus --hip-version from the headers (clang 15 cannot find it on Debian and
# would skip its HIP wrapper header: managed_memory and complex_math catch that).
# Faster than Debian's hipcc wrapper around the same compiler.
COMPILER = find_compiler("clang++-15") or find_compiler(toolchain="system")
# verify's toolchains: the ROCm 7.2 and 6.4 folders (object code, -c) and the system's HIP
# (clang-15 is the faster way to run Debian's HIP 5.2; -fsyntax-only).
TOOLCHAINS = {"rocm-7.2": find_compiler(toolchain="rocm", rocm="7.2"),
              "rocm-6.4": find_compiler(toolchain="rocm", rocm="6.4"), "system": COMPILER}
# Translations that do not compile yet, with why: {(example, toolchain): reason}. Strict
# xfails, so each flips to a failure once the translation is fixed. None today.
KNOWN_FAILURES: dict[tuple[str, str], str] = {}


def by_check(check: str) -> list:
    return [pytest.param(e, id=e.name) for e in ALL if e.check == check]


def need_compiler(toolchain: str = "system"):
    compiler = TOOLCHAINS[toolchain]
    if compiler is None:
        if os.environ.get("CUDAPORT_SKIP_HIP") == "1":
            pytest.skip(f"no {toolchain} HIP compiler and CUDAPORT_SKIP_HIP=1")
        pytest.fail(f"no {toolchain} toolchain: run tools/setup-system.sh"
                    if toolchain.startswith("rocm") else
                    "no HIP compiler: run tools/setup-system.sh (clang-15, libamdhip64-dev)")
    return compiler


def per_toolchain(checks: tuple[str, ...]) -> list:
    params = []
    for toolchain in TOOLCHAINS:
        for e in ALL:
            if e.check not in checks:
                continue
            reason = KNOWN_FAILURES.get((e.name, toolchain))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            params.append(pytest.param(e, toolchain, id=f"{toolchain}-{e.name}", marks=marks))
    return params


def test_gallery_covers_the_issue_list():
    names = {e.name for e in ALL}
    assert len(ALL) >= 15
    # The core issue's five.
    assert {"vector_add", "reduction_shuffle", "streams_events", "template_launch_macro",
            "complex_math"} <= names
    assert sum(e.check == "compile" for e in ALL) >= 15


@pytest.mark.parametrize("version", [None, *OLDER_VERSIONS])
@pytest.mark.parametrize("example", [pytest.param(e, id=e.name) for e in ALL])
def test_translation_matches_expected_and_is_idempotent(example, version):
    """The default --hip-version's output is expected/hip/; an older version's is
    expected-<version>/hip/ where it differs, else the same expected/hip/."""
    options = example.options(version)
    sources = example.sources()
    assert sources, f"{example.name}: no CUDA sources"
    for rel in sources:
        expected_path = example.expected_root_for(version) / rel
        assert expected_path.is_file(), f"{expected_path} missing: run python examples/gallery.py"
        expected = expected_path.read_bytes()
        result = translate_bytes((example.root / rel).read_bytes(), options, str(rel))
        assert result.output == expected, f"{rel}: translation differs from {expected_path}"
        again = translate_bytes(expected, options, str(expected_path))
        assert again.output == expected, f"{expected_path}: translating it again changes it"
        assert not again.edits
    for rel in example.build_files():  # Makefiles and CMake files: their kind's translation
        expected_path = example.expected_root_for(version) / rel
        assert expected_path.is_file(), f"{expected_path} missing: run python examples/gallery.py"
        expected = expected_path.read_bytes()
        assert gallery.translate_example(example, version)[rel] == expected, rel
        kind = kind_of(rel.name)
        assert translate_file(expected, kind, options, str(rel))[0] == expected, \
            f"{expected_path}: translating it again changes it"


@pytest.mark.slow
@pytest.mark.parametrize("example", [pytest.param(e, id=e.name) for e in ALL if e.build])
def test_build_examples_build_and_link_with_rocm72(example, tmp_path):
    """The Makefile and CMake examples: translated for HIP 7.2 and built by their own make
    or CMake in the ROCm 7.2 root (cudaport verify --build's path), linked to a program."""
    import shutil

    from cudaport.builds.build import build_tree, rocm72_dir

    root = rocm72_dir()
    if not os.access(root / "cudaport-run", os.X_OK):
        if os.environ.get("CUDAPORT_SKIP_HIP") == "1":
            pytest.skip("no ROCm 7.2 root and CUDAPORT_SKIP_HIP=1")
        pytest.fail("no ROCm 7.2 root: run `bash tools/setup-rocm.sh 7.2`")
    src = tmp_path / example.name
    for rel in example.sources() + example.build_files():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(example.root / rel, src / rel)
    out = tmp_path / "out"
    results, _ = build_tree(src, out, example.options("7.2"), root)
    assert [(b.system, b.ok) for b in results] == [(example.build, True)], \
        results[0].output[-3000:]
    program = out / ("build-hip" if example.build == "cmake" else "") / {
        "make": "saxpy", "cmake": "montecarlo"}[example.build]
    assert program.read_bytes()[:4] == b"\x7fELF"


@pytest.mark.slow
@pytest.mark.parametrize("example", by_check("compile"))
def test_expected_output_compiles_with_the_hip_compiler(example):
    compiler = need_compiler("system")
    base = example.expected_root_for(compiler.hip_version)  # the host's HIP (Debian 12: 5.2)
    outcomes = verify_paths([base / u for u in example.units()], Options(), compiler,
                            lambda _path: example.flags(base), translate=False, jobs=1)
    errors = [f"{f.path}:{f.line}:{f.col}: {f.code} {f.message}"
              for o in outcomes for f in o.findings if f.severity == "error"]
    assert all(o.ok for o in outcomes) and not errors, "\n".join(errors)


@pytest.mark.slow
@pytest.mark.parametrize("example, toolchain", per_toolchain(("compile", "text")))
def test_example_compiles_translated_for_each_toolchains_hip_version(example, toolchain):
    compiler = need_compiler(toolchain)
    version = compiler.hip_version
    if example.check == "text" and toolchain == "system":
        pytest.skip(f"HIP {version}: {example.why}")
    options = dataclasses.replace(example.options(), target_version=version)
    # (that the translation equals expected-<version>/ is pinned by the quick test above)
    outcomes = verify_paths([example.root / u for u in example.units()], options, compiler,
                            lambda _path: example.flags(example.root), jobs=1)
    errors = [f"{f.path}:{f.line}:{f.col}: {f.code} {f.message}"
              for o in outcomes for f in o.findings if f.severity == "error"]
    assert all(o.ok for o in outcomes) and not errors, "\n".join(errors)
    assert {o.compiled_with for o in outcomes} == {f"HIP {version}"}


@pytest.mark.parametrize("example", by_check("text"))
def test_library_examples_translate_every_name(example):
    """hipBLAS, hipFFT and hipCUB are not in Debian 12: check the text too."""
    options = example.options()
    text = b""
    for rel in example.sources():
        result = translate_bytes((example.root / rel).read_bytes(), options, str(rel))
        left = [f"{f.line}: {f.code} {f.message}" for f in result.findings
                if f.severity == "error" or f.code == "CP105"]
        assert not left, f"{rel}: {left}"
        assert all(r.status in ("converted", "same") for r in result.references
                   if r.context in ("code", "include")), rel
        text += result.output
    for wanted in example.expect:
        assert wanted.encode() in text, f"{example.name}: {wanted!r} not in the translation"


@pytest.mark.slow
@pytest.mark.parametrize("example, toolchain", per_toolchain(("fails",)))
def test_inline_ptx_example_fails_verify_on_its_cuda_lines(example, toolchain):
    compiler = need_compiler(toolchain)
    (unit,) = example.units()
    # the asm statements the translation keeps (the others have a HIP form, CP230); the
    # translation keeps the CUDA file's line numbers
    kept = (example.expected_root / unit).read_bytes()
    asm_lines = [n for n, line in enumerate(kept.splitlines(), 1) if b"asm volatile" in line]
    assert asm_lines
    options = dataclasses.replace(example.options(), target_version=compiler.hip_version)
    (outcome,) = verify_paths([example.root / unit], options, compiler, jobs=1)
    assert not outcome.ok
    ptx = [f for f in outcome.findings if f.code == "CP503"]
    assert [f.line for f in ptx] == asm_lines
    assert all(f.path.endswith(str(unit)) for f in ptx)  # the CUDA file, not the translation
