"""Every ported name compiles, not only every call (issue 41).

tests/data/libnames/*.cu hold, per library, every mapped CUDA type (a variable of it),
enumerator (assigned to its type, used as a case label), macro (``#ifndef`` and, where it is
an expression, used as one) and struct field (read into a variable of the type CUDA
declares, written back) that the HIP rules map, as CUDA 13 declares them
(tools/gen_lib_names.py, checked with nvcc 13). Each file is translated for every variant
of its library with --hip-version 7.2 and 6.4 and compiled to an object file with that ROCm
(tools/lib_calls.py); a name the translation reports with an error finding (left for the
user, with the reason) is set aside, and every other name must compile.
``python bench/lib_calls.py --names`` prints the same as a table.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "libnames"
sys.path.insert(0, str(ROOT / "tools"))

import gen_lib_names as GEN  # noqa: E402
import lib_calls as L  # noqa: E402

# Names that do not compile yet: (file stem, choice, version) -> {CUDA name: why}. Strict:
# a name listed here that compiles, or one that fails and is not listed, fails the test.
NOT_YET_FILE = DATA / "not-yet.tsv"


def test_every_mapped_name_has_a_generated_use():
    """A new mapping of a type, enumerator or macro without a regenerated file fails here:
    rerun tools/gen_lib_names.py, then the compile tests check the new name."""
    from cudaport.rules.loader import default_rules_root, load_table
    table = load_table("hip", [default_rules_root()])
    covered: dict[tuple[str, ...], set[str]] = {}
    for stem, (libraries, *_rest) in GEN.FILES.items():
        text = (DATA / f"{stem}.cu").read_text()
        _, found = L.blocks(text.encode(), b"// name ")
        names = covered.setdefault(libraries, set())
        names.update(name for name, _ in found if "::" not in name)
        for line in text.splitlines():
            if line.startswith("// undeclared: "):
                names.update(line.split(": ", 1)[1].split())
            assert not line.startswith("// no form: "), (stem, line)
    for libraries, names in covered.items():
        assert set(GEN.mapped_names(table, libraries)) == names, libraries


def test_every_file_is_checked():
    assert sorted(p.stem for p in DATA.glob("*.cu")) == sorted(L.NAME_GROUPS) == sorted(GEN.FILES)


def test_blocks_name_their_fields_after_their_type():
    """A field block (``TYPE::FIELD``) is compiled where its type is mapped."""
    _, found = L.blocks((DATA / "runtime.cu").read_bytes(), b"// name ")
    names = [name for name, _ in found]
    assert "cudaDeviceProp" in names and "cudaDeviceProp::maxThreadsPerBlock" in names
    assert "cudaResourceDesc::res.array.array" in names  # (a field of an anonymous union)
    mapped = L.mapped("runtime", "default", "7.2", "names")
    assert "cudaDeviceProp::maxThreadsPerBlock" in mapped


def _cases():
    for stem in L.NAME_GROUPS:
        for choice in L.choices(stem):
            for version in L.VERSIONS:
                why = L.unavailable(stem, choice, version)
                marks = pytest.mark.skip(reason=why) if why else ()
                yield pytest.param(stem, choice, version, marks=marks,
                                   id=f"{stem}-{choice}-{version}")


@pytest.mark.slow
@pytest.mark.parametrize("stem, choice, version", list(_cases()))
def test_ported_names_compile(stem, choice, version):
    hipcc = L.compiler(version)
    if hipcc is None:
        if os.environ.get("CUDAPORT_SKIP_HIP") == "1":
            pytest.skip(f"no ROCm {version} toolchain and CUDAPORT_SKIP_HIP=1")
        pytest.fail(f"no ROCm {version} toolchain: run tools/setup-rocm.sh {version}")
    outcome = L.run(stem, choice, version, hipcc, suite="names")
    expected = L.read_not_yet(NOT_YET_FILE).get((stem, choice, version), {})
    assert not outcome.file_errors, outcome.file_errors[:5]
    failing = dict(outcome.errors)
    fixed = sorted(set(expected) - set(failing))
    new = {name: message for name, message in failing.items() if name not in expected}
    assert not new, f"names that do not compile: {new}"
    assert not fixed, f"names that compile now (drop them from {NOT_YET_FILE.name}): {fixed}"
