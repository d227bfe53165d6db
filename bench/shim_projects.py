"""Real single-source targets: a project's unmodified CUDA sources built with hipcc through
`cudaport shim` instead of its own HIP port.

- ggml (ggml-org/ggml or llama.cpp's ggml/): the CUDA backend's units, src/ggml-cuda/*.cu
  (--template-instances N adds every Nth of src/ggml-cuda/template-instances/*.cu), compiled as ggml's
  CUDA build compiles them (-I include -I src -I src/ggml-cuda, GGML_USE_HIP *not*
  defined: its CUDA branches and vendors/cuda.h, not vendors/hip.h), with the shim made
  from src/ggml-cuda and include/;
- llm.c (karpathy/llm.c): the GPU training program train_gpt2.cu as its Makefile builds it
  (-DENABLE_BF16, the repository root on the include path), with the shim made from
  train_gpt2.cu and llmc/.

Each unit is compiled to object code with ROCm 7.2. Printed per project: units, how many
compile, and for each that does not, the compiler's first error and the shim's error
findings in the files that unit reaches (CP701 "needs a source edit", or the
translation's own, such as CP101 for a name HIP lacks).

    python bench/shim_projects.py --ggml /tmp/ggml --llmc /tmp/llm.c -j 2
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cudaport import Options  # noqa: E402
from cudaport.shim import generate, write  # noqa: E402
from cudaport.run.verify import rocm_compiler, rocm_dir, verify_paths  # noqa: E402


def projects(args) -> list[tuple[str, list[Path], list[Path], list[str]]]:
    """(name, paths the shim reads, units, flags) of each project asked for."""
    out = []
    if args.ggml:
        root = args.ggml.resolve()
        cuda = root / "src" / "ggml-cuda"
        units = sorted(cuda.glob("*.cu"))
        if args.template_instances:
            instances = sorted((cuda / "template-instances").glob("*.cu"))
            units += instances[::max(1, args.template_instances)]
        out.append(("ggml CUDA backend", [cuda, root / "include"], units,
                    [f"-I{root / 'include'}", f"-I{root / 'src'}", f"-I{cuda}"]))
    if args.llmc:
        root = args.llmc.resolve()
        out.append(("llm.c train_gpt2.cu", [root / "train_gpt2.cu", root / "llmc"],
                    [root / "train_gpt2.cu"], ["-DENABLE_BF16", f"-I{root}"]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ggml", type=Path, help="a ggml checkout (src/ggml-cuda, include)")
    ap.add_argument("--template-instances", type=int, default=0, metavar="N",
                    help="also every Nth of ggml's src/ggml-cuda/template-instances/*.cu "
                         "(1: all 121; each takes minutes)")
    ap.add_argument("--llmc", type=Path, help="an llm.c checkout")
    ap.add_argument("--only", nargs="*", default=(), help="these unit file names only")
    ap.add_argument("--rocm", default="7.2")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=900,
                    help="seconds one unit may take to compile (ggml's largest need minutes)")
    args = ap.parse_args(argv)
    compiler = rocm_compiler(rocm_dir(args.rocm))
    if compiler is None:
        print("no ROCm toolchain: run tools/setup-rocm.sh 7.2", file=sys.stderr)
        return 2
    options = Options(target_version=compiler.hip_version)
    import cudaport.run.verify

    cudaport.run.verify.COMPILE_TIMEOUT = args.timeout
    for name, paths, units, flags in projects(args):
        if args.only:
            units = [u for u in units if u.name in args.only]
        start = time.perf_counter()
        out = Path(tempfile.mkdtemp(prefix="cudaport-shim-project-"))
        try:
            shim = generate([str(p) for p in paths], options, jobs=args.jobs)
            write(shim, out)
            errors = [f for f in shim.findings if f.severity == "error"]
            outcomes = verify_paths(units, options, compiler, lambda p: list(flags),
                                    translate=False, jobs=args.jobs, shim=out)
        finally:
            shutil.rmtree(out, ignore_errors=True)
        ok = sum(o.ok for o in outcomes)
        print(f"{name}: {len(units)} unit(s), {ok} compile through the shim "
              f"({len(shim.files)} shim headers, {len(shim.project.names)} names mapped), "
              f"{len(units) - ok} do not; {time.perf_counter() - start:.0f} s with "
              f"{compiler.label}")
        by_cause: dict[str, list[str]] = {}
        for outcome in outcomes:
            if outcome.ok:
                continue
            first = next((f for f in outcome.findings if f.severity == "error"), None)
            cause = f"{first.path}:{first.line}: {first.message}" if first else "no diagnostic"
            by_cause.setdefault(cause, []).append(Path(outcome.path).name)
        for cause, names in sorted(by_cause.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(names)} unit(s): {cause}")
            print(f"    e.g. {', '.join(names[:4])}")
        if errors:
            print(f"  the shim's error findings ({len(errors)}):")
            for f in errors[:40]:
                print(f"    {f.path}:{f.line}: {f.code} {f.message[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
