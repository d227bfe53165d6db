"""What the translation decides for each architecture and version gate of real projects:
``python bench/gates.py TREE... [--hip-version 7.2] [--show DECISION]``.

Translates every C/C++/CUDA file of each TREE in memory (nothing is written), as
``cudaport check`` of the tree reads it (its project pre-pass), and prints per tree the
number of conditional groups that test ``__CUDA_ARCH__`` (or nvcc's arch-specific macros)
and CUDA's version macros, by decision:

* newest:    a file without HIP branches of its own; the HIP build takes the branch CUDA
             takes on the newest GPU or CUDA, the target having what it relies on
             (rewritten: the condition tests __HIP_DEVICE_COMPILE__ / __HIP_PLATFORM_AMD__)
* same:      the same, and hipcc already takes that branch as written
* fallback:  the newest branch relies on what the target lacks; an older one is compiled
* undecided: the table cannot decide it (CP215 says which branch hipcc takes)
* own:       a file with HIP branches of its own: left as written (CP215)

and, of those, how many got a warning (``warn``: CP224, mixed or differing features) and
how many compile a placeholder branch (``placeholder``), with ``silent``: placeholders
compiled without a finding at their gate (CP225), which should be 0. ``--show DECISION``
prints each group with that decision (or ``placeholder``, ``warn``) and its message.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cudaport.preprocessor import platform_branches
from cudaport.symbols import project_names  # noqa: E402
from cudaport.run.driver import plan  # noqa: E402
from cudaport.options import Options  # noqa: E402
from cudaport.rules.compiled import get_compiled  # noqa: E402
from cudaport.translate.pipeline import InputError, translate_bytes  # noqa: E402

DECISIONS = ("newest", "same", "fallback", "undecided", "own")
COLUMNS = ("files", "gated", *DECISIONS, "arch", "version", "warn", "placeholder", "silent")


def measure(tree: Path, options: Options, show: str | None) -> Counter:
    compiled = get_compiled(options)
    jobs = [j for j in plan([tree], None).jobs if j.kind == "source"]
    sources = {}
    for job in jobs:
        try:
            sources[job] = job.source.read_bytes()
        except OSError:
            continue
    options = project_names.project_options(options, lambda: sources.values(), compiled)
    counts = Counter(files=len(sources))
    seen: list = []
    original = platform_branches._gates

    def recording(ctx, conds):
        out = original(ctx, conds)
        seen.extend(ctx.gate_decisions)
        return out

    platform_branches._gates = recording
    try:
        for job, data in sources.items():
            seen.clear()
            try:
                result = translate_bytes(data, options, job.shown, compiled)
            except InputError:
                continue
            if seen:
                counts["gated"] += 1
            at = {(f.code, f.offset) for f in result.findings}
            for d in seen:
                counts[d.outcome] += 1
                counts[d.kind] += 1
                warned = ("CP224", d.offset) in at
                counts["warn"] += warned
                if d.placeholder:
                    counts["placeholder"] += 1
                    counts["silent"] += ("CP225", d.placeholder_at) not in at
                if show is not None and show in (d.outcome, "placeholder" if d.placeholder
                                                 else None, "warn" if warned else None):
                    line = result.lines.linecol(d.offset)[0]
                    said = [f for f in result.findings if f.offset in (d.offset, d.placeholder_at)
                            and f.code in ("CP215", "CP223", "CP224", "CP225")]
                    print(f"{job.shown}:{line}: {d.kind} {d.outcome}" + (f" ({d.why})" if d.why else "")
                          + (f" [placeholder: {d.placeholder}]" if d.placeholder else ""))
                    for f in said:
                        print(f"    {f.code} {f.message}")
    finally:
        platform_branches._gates = original
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--hip-version", default="7.2")
    parser.add_argument("--show", choices=(*DECISIONS, "placeholder", "warn"))
    args = parser.parse_args(argv)
    options = Options(target_version=args.hip_version, insert_main_header=False)
    total: Counter = Counter()
    print(f"{'tree':24}" + "".join(f"{c:>12}" for c in COLUMNS))
    started = time.perf_counter()
    for tree in args.trees:
        counts = measure(tree, options, args.show)
        total.update(counts)
        print(f"{tree.name[:24]:24}" + "".join(f"{counts[c]:>12}" for c in COLUMNS))
    print(f"{'total':24}" + "".join(f"{total[c]:>12}" for c in COLUMNS))
    print(f"({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
