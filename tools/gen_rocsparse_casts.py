#!/usr/bin/env python3
"""Write rules/hip/rocsparse-casts.yaml: argument casts for cuSPARSE calls under --sparse rocsparse.

Usage:
  python tools/gen_rocsparse_casts.py [--rocm-include /var/cache/cudaport/rocm-6.4/usr/include]
         [--out rules/hip/rocsparse-casts.yaml]

Why: rocSPARSE declares its own complex types (rocsparse_float_complex,
rocsparse_double_complex) and writes buffer sizes as size_t where cuSPARSE writes an int.
A cuSPARSE call passes cuComplex* (hipComplex* after translation), which does not convert
to rocsparse_float_complex*, and an int* where rocSPARSE takes a size_t*, so the renamed call
does not compile (tests/test_lib_calls.py). Where the two parameter lists have the same
length: a complex pointer gets a reinterpret_cast to the type rocSPARSE declares (same
layout: two floats, two doubles) and a complex value is constructed from its parts, an int*
buffer size a size_t temporary whose value is
stored in the int after the call (the form rocsparse-calls.yaml uses for csrilu0), and a
cudaDataType value (hipDataType after translation, whose values are CUDA's: 0 for
HIP_R_32F) is converted to the rocsparse_datatype it names (151 for f32_r), a
cudaDataType* output through a rocsparse_datatype temporary converted back. The
_analysis calls, whose rocSPARSE forms take an analysis policy before the solve policy,
get rocsparse_analysis_policy_reuse there (the analysis is kept in the info, as cuSPARSE
keeps it; the hand-written csrilu0 form does the same).

Facts: the CUDA 13 parameter types as tools/gen_lib_calls.py wrote them into
tests/data/libcalls/cusparse.cu (cusparse.h of the nvidia-cusparse wheel, read with
libclang) and ROCm 6.4's rocsparse/ headers. Calls with a hand-written rocSPARSE template
(rocsparse-calls.yaml) are left to it. Rerunning gives an identical file.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from gen_signature_notes import prototypes, split_param  # noqa: E402

COMPLEX = re.compile(r"\brocsparse_(?:float|double)_complex\b")
CALL = re.compile(r"^(?:__device__ )?void call_(\w+?)(?:_\d+)?\((.*)\) \{", re.MULTILINE)
HAND_WRITTEN = ROOT / "rules" / "hip" / "rocsparse-calls.yaml"


def cuda_types(text: str) -> dict[str, list[str]]:
    """CUDA name -> parameter types, from the generated calls (first overload)."""
    out: dict[str, list[str]] = {}
    for m in CALL.finditer(text):
        params = [p.strip() for p in m.group(2).split(", ")] if m.group(2) else []
        out.setdefault(m.group(1), [re.sub(r"\s*\ba\d+\Z", "", p) for p in params])
    return out


# cudaDataType (hipDataType after translation) <-> rocsparse_datatype: the types both
# ROCm 6.4 and 7.2 rocSPARSE declare (rocsparse-types.h). A constant argument is rocSPARSE's
# already (rocsparse-calls.yaml's ``arguments:``) and passes unchanged.
DATATYPES = (("HIP_R_32F", "f32_r"), ("HIP_R_64F", "f64_r"), ("HIP_C_32F", "f32_c"),
             ("HIP_C_64F", "f64_c"), ("HIP_R_8I", "i8_r"), ("HIP_R_8U", "u8_r"),
             ("HIP_R_32I", "i32_r"), ("HIP_R_32U", "u32_r"))
TO_ROCSPARSE = (
    "[](auto cudaport_t) { if constexpr (std::is_same<decltype(cudaport_t), hipDataType>::value) "
    "return " + " : ".join(f"cudaport_t == {h} ? rocsparse_datatype_{r}" for h, r in DATATYPES)
    + " : static_cast<rocsparse_datatype>(-1); else return cudaport_t; }(%s)")
TO_HIP = (" : ".join(f"cudaport_type == rocsparse_datatype_{r} ? {h}" for h, r in DATATYPES)
          + " : static_cast<hipDataType>(-1)")


def template(to: str, cparams: list[str], tparams: list[str], insert: tuple = ()) -> str | None:
    """The call of ``to`` with the CUDA call's arguments made to fit; ``insert``: (index,
    text) of an argument rocSPARSE takes and cuSPARSE does not."""
    args, sizes, types = [], [], []
    for i, (ct, tp) in enumerate(zip(cparams, tparams), 1):
        tt = re.sub(r"\s+", " ", split_param(tp)[0]).strip().replace(" *", "*")
        tt = re.sub(r"\Aconst (\w+)\Z", r"\1", tt)  # (a const value parameter)
        if COMPLEX.search(tt) and "*" in tt and "*" in ct:
            args.append(f"reinterpret_cast<{tt}>(${i})")
        elif ct in ("cuComplex", "cuDoubleComplex") and COMPLEX.fullmatch(tt):
            args.append(f"{tt}((${i}).x, (${i}).y)")
        elif ct == "int*" and tt == "size_t*":
            args.append("&cudaport_size")
            sizes.append(i)
        elif ct == "cudaDataType" and tt == "rocsparse_datatype":
            args.append(TO_ROCSPARSE % f"${i}")
        elif ct == "cudaDataType*" and tt == "rocsparse_datatype*":
            args.append("&cudaport_type")
            types.append(i)
        else:
            args.append(f"${i}")
    if len(sizes) + len(types) > 1:
        return None
    plain = args == [f"${i}" for i in range(1, len(args) + 1)] and not insert
    if insert:
        args.insert(insert[0], insert[1])
    call = f"{to}({', '.join(args)})"
    if sizes:
        return ("static_cast<rocsparse_status>([&](size_t cudaport_size) { rocsparse_status "
                f"cudaport_status = {call}; *(${sizes[0]}) = static_cast<int>(cudaport_size); "
                "return cudaport_status; }(0))")
    if types:
        return ("static_cast<rocsparse_status>([&](rocsparse_datatype cudaport_type) { "
                f"rocsparse_status cudaport_status = {call}; *(${types[0]}) = {TO_HIP}; "
                "return cudaport_status; }(rocsparse_datatype_f32_r))")
    return None if plain else call


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rocm-include", type=Path,
                    default=Path("/var/cache/cudaport/rocm-6.4/usr/include"))
    ap.add_argument("--out", type=Path, default=ROOT / "rules" / "hip" / "rocsparse-casts.yaml")
    args = ap.parse_args(argv)
    from cudaport.rules.loader import default_rules_root, load_table
    table = load_table("hip", [default_rules_root()], use_cache=False)
    cuda = cuda_types((ROOT / "tests" / "data" / "libcalls" / "cusparse.cu").read_text())
    target = prototypes([p.read_text() for p in
                         sorted((args.rocm_include / "rocsparse").rglob("*.h"))])
    hand = set(re.findall(r"^  (\w+):", HAND_WRITTEN.read_text().split("\ncalls:", 1)[1],
                          re.MULTILINE))
    rows = []
    for name in sorted(cuda):
        entry = table.identifiers.get(name)
        mapping = entry.variants.get("rocsparse") if entry else None
        if mapping is None or not mapping.to or name in hand or mapping.before:
            continue
        tparams = target.get(mapping.to)
        if tparams is None:
            continue
        policy = [i for i, p in enumerate(tparams) if "rocsparse_analysis_policy" in p]
        if len(tparams) == len(cuda[name]) + 1 and len(policy) == 1:
            # the analysis calls: rocSPARSE also takes an analysis policy, before the
            # solve policy; reuse keeps the analysis in the info, as cuSPARSE does
            text = template(mapping.to, cuda[name], tparams[:policy[0]] + tparams[policy[0] + 1:],
                            insert=(policy[0], "rocsparse_analysis_policy_reuse"))
        elif len(tparams) != len(cuda[name]):
            continue
        else:
            text = template(mapping.to, cuda[name], tparams)
        if text:
            rows.append(f'  {name}: {{template: "{text}"}}')
    args.out.write_text("\n".join([
        "# Generated by tools/gen_rocsparse_casts.py. Do not edit: rerun the script.",
        "# Facts: CUDA 13 cusparse.h (as tests/data/libcalls/cusparse.cu declares its",
        "# parameters), ROCm 6.4 rocsparse/ headers. cuSPARSE calls whose rocSPARSE form takes",
        "# rocSPARSE complex pointers (cast: same layout), a size_t* buffer size where",
        "# cuSPARSE writes an int (a size_t temporary, stored in the int after the call), or",
        "# a rocsparse_datatype where cuSPARSE takes a cudaDataType (converted both ways).",
        "library: cusparse",
        "variant: rocsparse",
        'title: "cuSPARSE calls cast to rocSPARSE argument types"',
        "generated: true",
        "calls:",
        *rows, ""]))
    print(f"{len(rows)} calls written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
