"""The examples gallery: every example translates to its committed expected output, the
translation is idempotent, and the expected output compiles with the real HIP compiler
(clang++ -x hip with Debian's HIP 5.2 headers, or hipcc).

Examples using libraries Debian does not package (hipBLAS, hipFFT, hipCUB) cannot be
compiled here: for those the translated text is checked instead (`check: text` in their
example.yaml says why). The inline-PTX example must fail `verify` on its CUDA lines.
"""

from __future__ import annotations

import os
import sys

import pytest

from cudaport import Options, translate_bytes
from cudaport.verify import find_compiler, verify_paths
from conftest import EXAMPLES

sys.path.insert(0, str(EXAMPLES))
import gallery  # noqa: E402

ALL = gallery.all_examples()
OLDER_VERSIONS = gallery.OLDER_VERSIONS
# The command CI runs: clang++-15 -x hip --offload-arch=gfx90a --rocm-path=/usr -nogpulib
# -fsyntax-only, plus --hip-version from the headers (clang 15 cannot find it on Debian and
# would skip its HIP wrapper header: managed_memory and complex_math catch that).
# Faster than Debian's hipcc wrapper around the same compiler.
COMPILER = find_compiler("clang++-15") or find_compiler()


def by_check(check: str) -> list:
    return [pytest.param(e, id=e.name) for e in ALL if e.check == check]


def need_compiler() -> None:
    if COMPILER is None:
        if os.environ.get("CUDAPORT_SKIP_HIP") == "1":
            pytest.skip("no HIP compiler and CUDAPORT_SKIP_HIP=1")
        pytest.fail("no HIP compiler: run tools/setup-system.sh (clang-15, libamdhip64-dev)")


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


@pytest.mark.parametrize("example", by_check("compile"))
def test_expected_output_compiles_with_the_hip_compiler(example):
    need_compiler()
    base = example.expected_root_for("5.2")  # the compiler here is HIP 5.2
    outcomes = verify_paths([base / u for u in example.units()], Options(), COMPILER,
                            lambda _path: example.flags(base), translate=False, jobs=1)
    errors = [f"{f.path}:{f.line}:{f.col}: {f.code} {f.message}"
              for o in outcomes for f in o.findings if f.severity == "error"]
    assert all(o.ok for o in outcomes) and not errors, "\n".join(errors)


@pytest.mark.parametrize("example", by_check("text"))
def test_library_examples_translate_every_name(example):
    """hipBLAS, hipFFT and hipCUB are not in Debian: check the text, not the compiler."""
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


@pytest.mark.parametrize("example", by_check("fails"))
def test_inline_ptx_example_fails_verify_on_its_cuda_lines(example):
    need_compiler()
    (unit,) = example.units()
    source = (example.root / unit).read_bytes()
    asm_lines = [n for n, line in enumerate(source.splitlines(), 1) if b"asm volatile" in line]
    assert asm_lines
    (outcome,) = verify_paths([example.root / unit], example.options(), COMPILER, jobs=1)
    assert not outcome.ok
    ptx = [f for f in outcome.findings if f.code == "CP503"]
    assert [f.line for f in ptx] == asm_lines
    assert all(f.path.endswith(str(unit)) for f in ptx)  # the CUDA file, not the translation
