"""cudaTypedefs.h: the PFN_ driver entry-point types port to decltype of the HIP function
(rules/hip/driver-pfn.yaml, tools/gen_pfn_rules.py); the ones without a HIP form stay
reported by name."""

from __future__ import annotations

import importlib.util

import pytest

from cudaport import Options, translate_bytes
from tests.conftest import ROOT, compile_object, rocm_wrapper

SOURCE = b"""\
#include <cuda.h>
#include <cudaTypedefs.h>
static PFN_cuModuleGetFunction_v2000 get_function;
CUresult launch(void *fn) {
  auto launch = reinterpret_cast<PFN_cuLaunchKernel_v4000>(fn);
  return launch(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr);
}
"""
PORTED = b"""\
#include <hip/hip_runtime.h>
#include <hip/hip_runtime_api.h>
static decltype(&hipModuleGetFunction) get_function;
hipError_t launch(void *fn) {
  auto launch = reinterpret_cast<decltype(&hipModuleLaunchKernel)>(fn);
  return launch(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr);
}
"""


def test_pfn_types_become_the_type_of_the_hip_function():
    r = translate_bytes(SOURCE, Options())
    assert r.output == PORTED
    assert not [f for f in r.findings if f.severity == "error"]
    assert translate_bytes(r.output, Options()).output == r.output  # idempotent


@pytest.mark.parametrize("name", [
    "PFN_cuTensorMapEncodeTiled_v12000",  # TMA: no HIP counterpart
    "PFN_cuGetProcAddress_v12000",        # hipGetProcAddress takes other parameters
    "PFN_cuGetProcAddress_v11030",        # an older signature
    "PFN_cuLaunchKernel_v7000_ptsz",      # per-thread default stream variant
])
def test_pfn_without_a_hip_form_is_reported_by_name(name):
    r = translate_bytes(f"#include <cudaTypedefs.h>\n{name} f;\n".encode(), Options())
    assert b"#include <hip/hip_runtime_api.h>" in r.output  # the header itself ports
    assert [f.identifier for f in r.findings if f.code == "CP101"] == [name]


@pytest.mark.slow
def test_ported_pfn_types_compile_with_rocm_7_2(tmp_path):
    path = tmp_path / "pfn.hip"
    path.write_bytes(PORTED)
    compile_object(path, "gfx942")


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_every_pfn_type_the_version_has_compiles(tmp_path, version):
    """Each PFN_ name of the pack that the version has, translated for it, is a type its
    ROCm compiles (the generator checked them with 7.2's hipcc only)."""
    import yaml

    from cudaport.rules.model import version_tuple

    pack = yaml.safe_load((ROOT / "rules/hip/driver-pfn.yaml").read_text())["identifiers"]
    names = [n for n, e in pack.items() if "to" in e and version_tuple(
        e.get("to_since", "0")) <= version_tuple(version)]
    source = "#include <cudaTypedefs.h>\n" + "".join(
        f"{n} p{i} = nullptr;\n" for i, n in enumerate(names))
    r = translate_bytes(source.encode(), Options(target_version=version))
    assert not [f for f in r.findings if f.severity == "error"]
    path = tmp_path / "pfn.hip"
    path.write_bytes(r.output)
    compile_object(path, "gfx942", version)


@pytest.mark.slow
def test_generated_pack_is_current():
    from cudaport.run.verify import hip_version

    rocm_wrapper("7.2")
    spec = importlib.util.spec_from_file_location("gen_pfn", ROOT / "tools/gen_pfn_rules.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    rows = gen.candidates(ROOT / "rules/hip")
    ok = gen.compiles(gen.ROCM, rows)
    assert (ROOT / "rules/hip/driver-pfn.yaml").read_text() == gen.render(
        [r for r in rows if r[1] in ok], hip_version(str(gen.ROCM / "usr")))
