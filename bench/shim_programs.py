"""How many CUDA programs build from their unmodified sources through `cudaport shim`.

For each program folder (a benchmark-style program with its own Makefile, such as
HeCBench's src/*-cuda), the units its Makefile's `source =` line names (else every .cu
file no other file includes) are compiled to object code with the ROCm 7.2 hipcc twice:

1. translated (`cudaport verify` on the folder's units): does the translation compile?
2. unmodified, with the shim the folder's own files give (`cudaport shim FOLDER --out
   TMP`, then `hipcc -I TMP -include cuda_runtime.h -x hip -c unit`).

It prints one line per program and the share of the programs whose translation compiles
that compile through the shim; each program that does not is named with the shim's
first error finding (CP701 "needs a source edit", or the translation's own), or as
"unexplained". -I and -D flags written literally in the Makefile are passed to both.

    python bench/shim_programs.py --root /tmp/shim/hecbench/src --glob '*-cuda' --every 8 -j 2

The translation side of a program is cached by its files' bytes and the rule table
(~/.cache/cudaport/shim_programs; --no-cache to bypass), as it does not change while the
shim does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cudaport import Options  # noqa: E402
from cudaport.findings import Finding  # noqa: E402
from cudaport.rules.compiled import get_compiled  # noqa: E402
from cudaport.shim import generate, write  # noqa: E402
from cudaport.run.verify import rocm_compiler, rocm_dir, verify_paths  # noqa: E402
from cudaport.version import __version__  # noqa: E402

CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cudaport" \
    / "shim_programs"
_SOURCE = re.compile(r"^\s*source\s*[:+]?=\s*(.*)$", re.M)
_FLAG = re.compile(r"(?<![\w$])(-I\s*[^\s$()]+|-D[A-Za-z_]\w*(?:=[^\s$()]*)?)")
_INCLUDE = re.compile(rb'^\s*#\s*include\s*"([^"]+)"', re.M)


def units_of(folder: Path) -> list[Path]:
    """The translation units the Makefile names, else the .cu files nothing includes."""
    makefile = next((folder / m for m in ("Makefile", "makefile", "GNUmakefile")
                     if (folder / m).is_file()), None)
    if makefile is not None:
        m = _SOURCE.search(makefile.read_text(errors="replace"))
        if m:
            names = [n for n in m.group(1).split() if not n.startswith("$")]
            found = [folder / n for n in names if (folder / n).is_file()
                     and n.endswith((".cu", ".cpp", ".cc", ".c"))]
            if found:
                return found
    cus = sorted(folder.glob("*.cu"))
    included = {name.decode(errors="replace").rsplit("/", 1)[-1]
                for f in cus for name in _INCLUDE.findall(f.read_bytes())}
    return [f for f in cus if f.name not in included]


def flags_of(folder: Path) -> list[str]:
    """-I and -D flags the Makefile writes literally (relative folders made absolute);
    not those of its DEBUG branch."""
    makefile = next((folder / m for m in ("Makefile", "makefile") if (folder / m).is_file()),
                    None)
    if makefile is None:
        return []
    out = []
    for flag in _FLAG.findall(makefile.read_text(errors="replace")):
        flag = flag.replace(" ", "")
        if flag in ("-DDEBUG",):
            continue
        if flag.startswith("-I"):
            path = (folder / flag[2:]).resolve()
            if not path.is_dir():
                continue
            flag = f"-I{path}"
        if flag not in out:
            out.append(flag)
    return out


def first_error(findings: list[Finding]) -> Finding | None:
    return next((f for f in findings if f.severity == "error"), None)


def translated_side(folder: Path, units: list[Path], flags: list[str], options: Options,
                    compiler, use_cache: bool) -> dict:
    """Whether every unit compiles after translation (cached)."""
    hashed = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            hashed.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    hashed.update(repr((get_compiled(options).key, __version__, flags, compiler.argv,
                        [str(u) for u in units])).encode())
    key = CACHE / (hashed.hexdigest()[:32] + ".json")
    if use_cache and key.is_file():
        return json.loads(key.read_text())
    outcomes = verify_paths(units, options, compiler, lambda p: list(flags), jobs=1)
    result = {"ok": all(o.ok for o in outcomes),
              "error": next((f"{f.path}:{f.line}: {f.code} {f.message}"
                             for o in outcomes for f in o.findings if f.severity == "error"),
                            None)}
    if use_cache:
        CACHE.mkdir(parents=True, exist_ok=True)
        key.write_text(json.dumps(result))
    return result


def shim_side(folder: Path, units: list[Path], flags: list[str], options: Options,
              compiler) -> dict:
    out = Path(tempfile.mkdtemp(prefix="cudaport-shim-bench-"))
    try:
        shim = generate([str(folder)], options, jobs=1)
        write(shim, out)
        outcomes = verify_paths(units, options, compiler, lambda p: list(flags),
                                translate=False, jobs=1, shim=out)
        failed = [o for o in outcomes if not o.ok]
        named = first_error(shim.findings)
        return {"ok": not failed, "files": len(shim.files),
                "named": f"{named.path}:{named.line}: {named.code} {named.message}"
                if named else None,
                "error": next((f"{f.path}:{f.line}: {f.message}" for o in failed
                               for f in o.findings if f.severity == "error"), None)}
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, required=True, help="folder holding the programs")
    ap.add_argument("--glob", default="*", help="program folders below --root")
    ap.add_argument("--every", type=int, default=1, help="take every Nth folder (sorted)")
    ap.add_argument("--start", type=int, default=0, help="... beginning with this one (0-based)")
    ap.add_argument("--limit", type=int, default=0, help="at most this many programs")
    ap.add_argument("--only", nargs="*", default=(), help="these folder names only")
    ap.add_argument("--rocm", default=None, help="ROCm folder or line (default: 7.2)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="programs at once")
    ap.add_argument("--no-cache", action="store_true")
    ap.add_argument("--json", type=Path, help="write every program's result here")
    args = ap.parse_args(argv)
    compiler = rocm_compiler(rocm_dir(args.rocm or "7.2"))
    if compiler is None:
        print("no ROCm toolchain: run tools/setup-rocm.sh 7.2", file=sys.stderr)
        return 2
    options = Options(target_version=compiler.hip_version)
    folders = sorted(p for p in args.root.glob(args.glob) if p.is_dir())
    if args.only:
        folders = [f for f in folders if f.name in args.only]
    folders = folders[args.start::max(1, args.every)]
    if args.limit:
        folders = folders[:args.limit]
    start = time.perf_counter()

    def one(folder: Path) -> dict:
        units = units_of(folder)
        if not units:
            return {"program": folder.name, "units": 0}
        flags = flags_of(folder)
        tr = translated_side(folder, units, flags, options, compiler, not args.no_cache)
        sh = shim_side(folder, units, flags, options, compiler)
        return {"program": folder.name, "units": len(units), "translation": tr, "shim": sh}

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(one, folders))
    counted = [r for r in results if r["units"]]
    translated = [r for r in counted if r["translation"]["ok"]]
    shimmed = [r for r in translated if r["shim"]["ok"]]
    for r in counted:
        tr, sh = r["translation"], r["shim"]
        verdict = ("both" if tr["ok"] and sh["ok"] else "shim only" if sh["ok"]
                   else "translation only" if tr["ok"] else "neither")
        print(f"{r['program']:<32} {r['units']} unit(s)  {verdict}")
        if tr["ok"] and not sh["ok"]:
            print(f"    shim: {sh['error']}")
            print(f"    named by: {sh['named'] or 'nothing (unexplained)'}")
    unexplained = [r for r in translated if not r["shim"]["ok"] and not r["shim"]["named"]]
    share = 100.0 * len(shimmed) / len(translated) if translated else 0.0
    print(f"\nprograms: {len(counted)} ({sum(r['units'] for r in counted)} units), "
          f"translation compiles: {len(translated)}, shim compiles: {len(shimmed)} of those "
          f"({share:.1f} %), the rest named by findings: "
          f"{len(translated) - len(shimmed) - len(unexplained)}, unexplained: "
          f"{len(unexplained)}; shim only (translation fails): "
          f"{sum(1 for r in counted if r['shim']['ok'] and not r['translation']['ok'])}; "
          f"{time.perf_counter() - start:.0f} s with {compiler.label}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
