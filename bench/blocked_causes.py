"""Why files are blocked: the share blocked by something other than what has no
source-level HIP form, per repository, and the causes that block the most files.

    python bench/blocked_causes.py [--hip-version V] [--top N] [--json OUT] REPO [REPO...]

"Honest" blockers are the constructs issue 29 names as having no source-level HIP form:
CUTLASS/CuTe (CP113), TMA descriptors (``CUtensorMap``, ``cuTensorMapEncode*``),
Hopper/Blackwell-only PTX (wgmma, tcgen05, bulk async copies, mbarrier, ldmatrix/stmatrix,
``mma.sync`` fragments, cluster instructions and registers), thread-block clusters and
dynamic parallelism (CP212). A file counts as *blocked by something else* when it is
blocked, but would not be if only the honest findings counted (its own, and those of the
blocked headers it includes, however indirectly). The causes are ranked by how many such
files each one reaches.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cudaport.report import verdict as V  # noqa: E402
from cudaport.run.check import check_paths  # noqa: E402
from cudaport.project.config import load_config  # noqa: E402
from cudaport.options import Options  # noqa: E402

# PTX with no source-level HIP form (the message of CP210 quotes the instruction)
HONEST_PTX = re.compile(
    r"'(?:wgmma|tcgen05|cp\.async\.bulk|cp\.reduce\.async\.bulk|mbarrier|ldmatrix|stmatrix|"
    r"mma|barrier\.cluster|mapa|getctarank|elect|setmaxnreg|fence\.proxy|"
    r"fence\.mbarrier_init|multimem|tensormap|cp\.async\.mbarrier|st\.async|red\.async|"
    r"movmatrix|ld\.shared::cluster|st\.shared::cluster|%cluster|%clusterid|"
    r"%is_explicit_cluster|%cluster_)")
HONEST_NAMES = re.compile(
    r"(?:CUtensorMap|cuTensorMap|cudaTensorMap|TensorMap|cluster|Cluster|"
    r"__cluster_dims__|cudaLaunchAttributeClusterDimension)")


def is_honest(f) -> bool:
    if f.code in ("CP113", "CP212"):
        return True
    if f.code in ("CP210", "CP503"):
        return bool(HONEST_PTX.search(f.message))
    return bool(HONEST_NAMES.search(f.identifier or "")) or (
        f.code == "CP213" and "cluster" in f.message)


def cause(f) -> str:
    if f.code in ("CP210", "CP503"):
        m = re.search(r"'([^']+)'", f.message)
        return f"{f.code} {m.group(1).split()[0] if m else f.message[:60]}"
    return f"{f.code} {f.identifier or f.message[:60]}"


def analyse(repo: str, options: Options) -> dict:
    config = load_config([repo])
    started = time.perf_counter()
    report = check_paths([repo], options, config)
    wall = time.perf_counter() - started
    files = [r for r in report.files if r.verdict]
    errors = {r.path: [f for f in r.findings if f.severity == "error"] for r in files}
    includes = {r.path: r.includes for r in files}
    honest = V.of_files((p, [f for f in errors[p] if is_honest(f)], includes[p])
                        for p in errors)
    blocked = [r.path for r in files if r.verdict == V.BLOCKED]
    other = [p for p in blocked if honest[p].status != V.BLOCKED]
    reaches = V.resolve_includes(includes)  # (as the verdicts resolve them)
    causes: Counter = Counter()
    for path in other:
        seen, queue, found = {path}, [path], set()
        while queue:
            current = queue.pop()
            found.update(cause(f) for f in errors[current] if not is_honest(f))
            for t in reaches.get(current, ()):
                if t not in seen:
                    seen.add(t)
                    queue.append(t)
        causes.update(found)
    return {"repo": repo, "files": len(files), "blocked": len(blocked),
            "blocked_other": len(other), "wall_s": round(wall, 1),
            "causes": causes.most_common()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repos", nargs="+")
    ap.add_argument("--hip-version", default=None)
    ap.add_argument("--top", type=int, default=8)
    ap.add_argument("--json", default=None, help="write every cause per repository here")
    args = ap.parse_args()
    options = Options() if args.hip_version is None else Options(target_version=args.hip_version)
    rows = [analyse(os.path.normpath(r), options) for r in args.repos]
    total = Counter()
    print(f"{'repository':28} {'files':>6} {'blocked':>8} {'other':>6} {'other %':>8}")
    for row in rows:
        total.update({k: row[k] for k in ("files", "blocked", "blocked_other")})
        print(f"{os.path.basename(row['repo']):28} {row['files']:6} {row['blocked']:8} "
              f"{row['blocked_other']:6} {100 * row['blocked_other'] / max(row['files'], 1):7.1f}%")
    print(f"{'all':28} {total['files']:6} {total['blocked']:8} {total['blocked_other']:6} "
          f"{100 * total['blocked_other'] / max(total['files'], 1):7.1f}%")
    for row in rows:
        if row["causes"]:
            print(f"\n{os.path.basename(row['repo'])}: causes by files reached "
                  f"({row['wall_s']} s)")
            for name, n in row["causes"][:args.top]:
                print(f"  {n:5}  {name}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
