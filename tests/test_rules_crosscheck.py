"""The HIP table against reality: counts, the CUDA 13 headers, Debian's HIP 5.2 headers.

The CUDA side uses the committed, generated ``rules/hip/cuda13-names.txt`` (the CUDA
toolkit and the nvidia-* wheels are large and need no install in CI; regenerate it with
tools/gen_cuda13_names.py). The HIP side reads the Debian headers that
tools/setup-system.sh installs.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cudaport.options import Options
from cudaport.rules import default_rules_root, get_compiled, load_table
from cudaport.rules import crosscheck as X
from cudaport.rules.describe import equivalent_counts
from cudaport.run.verify import rocm_dir

HIP_RULES = default_rules_root() / "hip"
CUDA_OWNED = re.compile(r"cu|CU|nv|NV|nccl|NCCL|pnccl|PFN_|__")


@pytest.fixture(scope="module")
def table():
    return load_table("hip")


@pytest.fixture(scope="module")
def cuda13():
    return X.read_cuda13_names(HIP_RULES / "cuda13-names.txt")


@pytest.fixture(scope="module")
def known():
    return X.read_known_differences(HIP_RULES / "known-differences.tsv")


def test_counts(table, cuda13):
    tabled = [e for e in table.identifiers.values() if e.cuda_present is None]
    assert len(tabled) >= 8900
    counts = equivalent_counts(get_compiled(Options()))
    assert counts["hip"] >= 4900
    assert counts["roc"] >= 1500
    # Every public CUDA 13 name with a CUDA prefix is known (mapped or flagged).
    public = {n for n, (_, kind) in cuda13.items() if kind != "standard" and CUDA_OWNED.match(n)}
    assert len(public) > 9000
    assert public - set(table.identifiers) == set()
    assert len(table.identifiers) >= 8900 + sum(e.cuda_present is not None
                                                for e in table.identifiers.values())


def test_every_cuda_name_is_in_cuda13_or_removed(table, cuda13, known):
    assert X.missing_from_cuda13(table, cuda13) == set(known["cuda13"])


def test_known_differences_have_reasons(known):
    assert all(len(reason) > 20 for names in known.values() for reason in names.values())


@pytest.mark.skipif(not Path("/usr/include/hip/hip_runtime_api.h").is_file(),
                    reason="Debian's HIP headers (tools/setup-system.sh) are not installed")
def test_hip_names_up_to_5_2_exist_in_debian_headers(table, known):
    assert X.missing_from_hip(table, X.header_words()) == set(known.get("hip52", {}))


@pytest.mark.parametrize("version, check, absent", [
    ("7.2", "rocm72", frozenset()), ("6.4", "rocm64", X.NOT_IN_ROCM_FOLDER)])
def test_names_emitted_for_each_rocm_exist_in_its_headers(known, version, check, absent):
    include = rocm_dir(version) / "usr" / "include"
    if not (include / "hip" / "hip_version.h").is_file():
        pytest.skip(f"no ROCm {version} folder (tools/setup-system.sh)")
    words = X.rocm_words(include)
    missing = set()
    for variants in ((), (("blas", "rocblas"), ("sparse", "rocsparse"), ("rand", "rocrand"),
                          ("solver", "rocsolver"))):
        missing |= X.missing_at_version(get_compiled(Options(target_version=version,
                                                             variants=variants)), words, absent)
    assert missing == set(known[check])


def test_cuda13_names_file_is_sorted_and_unique():
    lines = [line for line in (HIP_RULES / "cuda13-names.txt").read_text().splitlines()
             if not line.startswith("#")]
    assert lines == sorted(lines, key=lambda line: (line.split("\t")[0], line.split("\t")[1]))
    names = [line.split("\t")[1] for line in lines]
    assert len(names) == len(set(names))


def _rocm_root(version: str) -> Path:
    root = rocm_dir(version)
    if not (root / "cudaport-hipcc").exists():
        pytest.skip(f"no ROCm {version} folder (tools/setup-system.sh)")
    return root


@pytest.mark.slow
def test_no_counterpart_finding_for_a_name_rocm_declares(known):
    """A CUDA name reported as having no HIP equivalent (CP101) whose counterpart's
    spelling an AMD build of ROCm 7.2's headers sees is a defect, unless known-differences
    says why it is not the counterpart (tools/gen_rocm_counterparts.py maps the others)."""
    words = X.preprocessed_words(_rocm_root("7.2"))
    found = X.counterparts_present(get_compiled(Options(target_version="7.2")), words)
    assert set(found) == set(known.get("counterpart", {}))


@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_cooperative_groups_findings_name_only_what_rocm_lacks(version):
    """CP213 names a cooperative-groups function or method the target version lacks: none
    of them may be declared by that ROCm's cooperative-groups headers."""
    include = rocm_dir(version) / "usr" / "include"
    if not (include / "hip" / "hip_cooperative_groups.h").is_file():
        pytest.skip(f"no ROCm {version} folder (tools/setup-system.sh)")
    compiled = get_compiled(Options(target_version=version))
    assert X.cooperative_groups_present(compiled, include) == set()
