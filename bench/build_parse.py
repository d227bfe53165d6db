#!/usr/bin/env python3
"""Do translated build files parse wherever the originals do?

For every Makefile and CMake file below the given repository folders (the file kinds
``cudaport.run.kinds.kind_of`` calls ``make`` and ``cmake``), the original and its translation
are checked by the real tools, each in a scratch copy of the repository (hard links, with
every build file of the copy replaced by its translation, so included makefiles and
CMake modules are the translated ones too):

- a Makefile: ``make -n -p -f FILE -f STUB __cudaport_parse_check__`` in the file's folder,
  where STUB only defines that goal: make reads every makefile (includes, conditionals,
  ``define``, ``$(foreach)``, ``$(shell)``) and runs no recipe of the project's. nvcc,
  hipcc and the ROCm/CUDA folders are stubs (the original sees a CUDA toolkit, the
  translation a ROCm one); the environment is otherwise empty. A file parses when make
  exits 0; a *syntax* failure is one of make's own parse errors (missing separator,
  unterminated reference, missing endif ...), as opposed to the project's ``$(error)`` or a
  missing include.
- a CMake file: ``cmake -P`` on a copy with ``return()`` put in front: CMake parses the
  whole file before it runs a command, so this reports syntax errors and runs nothing.
- with ``--configure``, each repository's top-level CMakeLists.txt is also configured:
  the original with this machine's CMake and nvcc, the translation with ROCm 7.2's root
  (its CMake and HIP compiler, through ``cudaport-run``); a translation that fails where
  the original configures is listed with the first error and the file's error findings.

A file whose translation raises (a tool error) counts as failing: ``translate`` would
write nothing for it. Counts are of distinct files (by content); a file the translation
leaves as it is counts as parsing alike.

    python3 bench/build_parse.py /tmp/bf/src/* --exclude '*/rodinia/*' [--configure] [--json out.json]

The cudaport checked is the one importable first: this worktree by default, another
checkout with ``--cudaport PATH`` (for "before" numbers).
"""

from __future__ import annotations

import argparse
import fnmatch
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# make's own messages for a makefile it cannot read (GNU make 4.x), as opposed to a
# project's $(error ...) or a missing include.
MAKE_SYNTAX = re.compile(
    r"missing separator|unterminated variable reference|missing 'endif'|missing `endif'"
    r"|extraneous '(?:endif|else)'|extraneous `(?:endif|else)'|extraneous text after"
    r"|invalid syntax in conditional|recipe commences before first target"
    r"|missing 'endef'|missing `endef'|empty variable name|multiple target patterns"
    r"|missing target pattern|target pattern contains no|unterminated call to function"
    r"|insufficient number of arguments|commands commence before first target"
    r"|mixed implicit and (?:static pattern|normal) rules|missing rule before recipe")
CMAKE_SYNTAX = re.compile(r"Parse error|Syntax Error in cmake code|unterminated|"
                          r"Expected a command name", re.I)
STUB_GOAL = "__cudaport_parse_check__"
TOOLS = {"nvcc": "echo 'Cuda compilation tools, release 12.4, V12.4.131'",
         "hipcc": "echo 'HIP version: 7.2.0'", "hipconfig": "echo 7.2.0",
         "nvidia-smi": "echo 'NVIDIA-SMI 550.00'", "rocm_agent_enumerator": "echo gfx942",
         "amdgpu-arch": "echo gfx942", "nvcc_arch": "true"}


def build_files(root: Path, exclude: list[str]) -> list[tuple[str, str]]:
    """(relative path, kind) of the Makefiles and CMake files below ``root``."""
    from cudaport.run.kinds import kind_of

    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for name in sorted(files):
            path = os.path.join(folder, name)
            if any(fnmatch.fnmatch(path, g) for g in exclude) or os.path.islink(path):
                continue
            kind = kind_of(name)
            if kind in ("make", "cmake"):
                found.append((os.path.relpath(path, root), kind))
    return found


def translate(data: bytes, kind: str, rel: str) -> tuple[bytes | None, str, list]:
    """The translation (None on a tool error), the error, and the error findings."""
    from cudaport.run.kinds import translate_file
    from cudaport.options import Options

    try:
        out, outcome = translate_file(data, kind, Options(), rel, rel=rel)
    except Exception as exc:  # noqa: BLE001 - a tool error is what is counted here
        return None, f"{type(exc).__name__}: {exc}"[:300], []
    if out is None:
        return data, "", []
    errors = [f"{f.code}:{f.line}" for f in outcome.findings if f.severity == "error"]
    cp9 = [f"{f.code}: {f.message}" for f in outcome.findings if f.code.startswith("CP9")]
    return out, "; ".join(cp9), errors


def stub_folder(base: Path) -> tuple[Path, dict[str, str]]:
    """Stub tools on PATH and stub CUDA/ROCm folders; the environment make runs in."""
    bin_dir = base / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    for name, body in TOOLS.items():
        tool = bin_dir / name
        tool.write_text(f"#!/bin/sh\n{body}\n")
        tool.chmod(0o755)
    for prefix in ("cuda", "rocm"):
        for sub in ("bin", "include", "lib", "lib64"):
            (base / prefix / sub).mkdir(parents=True, exist_ok=True)
    for name in ("nvcc",):
        shutil.copy(bin_dir / name, base / "cuda" / "bin" / name)
    shutil.copy(bin_dir / "hipcc", base / "rocm" / "bin" / "hipcc")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(base), "LANG": "C",
           "CUDA_PATH": str(base / "cuda"), "CUDA_HOME": str(base / "cuda"),
           "ROCM_PATH": str(base / "rocm"), "HIP_PATH": str(base / "rocm"),
           "TMPDIR": str(base / "tmp")}
    # every toolkit variable make.yaml renames names the stub CUDA, as ROCM_PATH names the
    # stub ROCm (magma's CUDADIR: a target under it, empty in the original alone, read as
    # another target)
    from cudaport.builds.makefile import load_rules
    from cudaport.options import Options

    rules = load_rules(Options())
    for variable in rules.root_variables if rules else ():
        env.setdefault(variable, str(base / "cuda"))
    (base / "tmp").mkdir(exist_ok=True)
    (base / "stub.mk").write_text(f"{STUB_GOAL}: ; @:\n.PHONY: {STUB_GOAL}\n")
    return base / "stub.mk", env


def make_parses(folder: Path, name: str, stub: Path, env: dict[str, str], tree: Path
                ) -> tuple[bool, str, set[str]]:
    """(make parses it, its message, the variables and targets the file itself defines,
    paths below the scratch tree and the stub toolkits written alike)."""
    try:
        proc = subprocess.run(["make", "-n", "-p", "-f", name, "-f", str(stub), STUB_GOAL],
                              cwd=folder, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return False, "timed out", set()
    err = proc.stderr.decode("utf-8", "replace")
    stop = [line for line in err.splitlines() if "***" in line]
    last = err.strip().splitlines()[-1:] or [""]
    database = proc.stdout.decode("utf-8", "replace").replace(str(tree), "<tree>")
    for toolkit in ("cuda", "rocm"):
        database = database.replace(env[f"{toolkit.upper()}_PATH"], "<toolkit>")
    return proc.returncode == 0, (stop[0] if stop else last[0])[:300], \
        _defined(database, name)


@functools.lru_cache(maxsize=1)
def renamed_variables() -> frozenset[str]:
    """Variables a translation adds, renames or removes by design: make.yaml's architecture
    variable and the toolkit folder's variables."""
    from cudaport.builds.makefile import load_rules
    from cudaport.options import Options

    rules = load_rules(Options())
    return frozenset((rules.arch_variable, rules.root_variable, *rules.root_variables))


def _defined(database: str, name: str) -> set[str]:
    """``var NAME`` and ``target NAME`` of what ``make -p`` says the makefile ``name``
    defines (variables by their origin line, targets from the Files section)."""
    found = set()
    lines = database.splitlines()
    origin = f"# makefile (from '{name}'"
    for i, line in enumerate(lines[:-1]):
        if line.startswith(origin):
            m = re.match(r"(?:define )?([^\s:+?!]+)\s*[:+?!]*=?", lines[i + 1])
            if m and m.group(1) not in renamed_variables():
                found.add("var " + m.group(1))
    files = database.split("# Files", 1)[-1]
    for m in re.finditer(r"(?m)^([^#\s][^:=\n]*?):(?![:=])", files):
        found.add("target " + m.group(1))
    return found


def cmake_parses(data: bytes, scratch: Path) -> tuple[bool, str]:
    script = scratch / "parse.cmake"
    script.write_bytes(b"return()\n" + data)
    try:
        proc = subprocess.run(["cmake", "-P", str(script)], capture_output=True, timeout=60,
                              stdin=subprocess.DEVNULL, cwd=scratch)
    except subprocess.TimeoutExpired:
        return False, "timed out"
    err = (proc.stdout + proc.stderr).decode("utf-8", "replace")
    return proc.returncode == 0, " ".join(err.split())[:300]


def copy_tree(src: Path, dst: Path) -> None:
    subprocess.run(["cp", "-al", str(src), str(dst)], check=True)


def configure(folder: Path, build: Path, hip: bool) -> tuple[bool, str]:
    """Configure ``folder`` (a translated one with ROCm 7.2's root); (ok, first error)."""
    common = ["-DCMAKE_POLICY_VERSION_MINIMUM=3.5", "-DCMAKE_BUILD_TYPE=Release"]
    if hip:
        from cudaport.builds.build import rocm72_dir, runner

        command = [str(runner(rocm72_dir())), "cmake", "-S", str(folder), "-B", str(build),
                   *common]
    else:
        command = ["cmake", "-S", str(folder), "-B", str(build), *common,
                   "-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc"]
    try:
        proc = subprocess.run(command, capture_output=True, timeout=600, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return False, "timed out"
    out = (proc.stdout + proc.stderr).decode("utf-8", "replace")
    first = next((i for i, line in enumerate(out.splitlines()) if "CMake Error" in line), None)
    lines = out.splitlines()
    message = " ".join(" ".join(lines[first:first + 6]).split()) if first is not None else ""
    return proc.returncode == 0, message[:400]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="+", type=Path, help="repository folders")
    parser.add_argument("--exclude", action="append", default=[],
                        help="glob of paths to leave out (repeatable)")
    parser.add_argument("--configure", action="store_true",
                        help="also configure each repository's top-level CMakeLists.txt")
    parser.add_argument("--configure-only", action="store_true",
                        help="only configure (no parse checks)")
    parser.add_argument("--cudaport", type=Path, default=ROOT,
                        help="the checkout whose cudaport translates (default: this one)")
    parser.add_argument("--scratch", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None, help="write every file's result here")
    args = parser.parse_args()
    sys.path.insert(0, str(args.cudaport))
    import cudaport

    print(f"cudaport from {Path(cudaport.__file__).parent}", flush=True)
    scratch = Path(args.scratch or tempfile.mkdtemp(prefix="build-parse-"))
    scratch.mkdir(parents=True, exist_ok=True)
    stub, env = stub_folder(scratch / "stubs")
    seen: set[bytes] = set()
    rows: list[dict] = []
    configured: list[dict] = []
    start = time.monotonic()
    for root in args.roots:
        root = root.resolve()
        files = build_files(root, args.exclude)
        if not files:
            continue
        orig, hip = scratch / "orig" / root.name, scratch / "hip" / root.name
        for tree in (orig, hip):
            if tree.exists():
                shutil.rmtree(tree)
            tree.parent.mkdir(parents=True, exist_ok=True)
        copy_tree(root, orig)
        copy_tree(root, hip)
        results = {}
        for rel, kind in files:
            data = (root / rel).read_bytes()
            out, error, errors = translate(data, kind, rel)
            target = hip / rel
            target.unlink()  # a hard link: never write through to the original
            target.write_bytes(data if out is None else out)
            results[rel] = (kind, data, out, error, errors)
        for rel, (kind, data, out, error, errors) in results.items():
            if args.configure_only:
                break
            digest = hashlib.sha256(kind.encode() + data).digest()
            if digest in seen:
                continue
            seen.add(digest)
            row = {"repo": root.name, "path": rel, "kind": kind, "changed": out != data,
                   "tool_error": error if out is None else "", "cp9": error if out else "",
                   "errors": errors}
            if kind == "make":
                folder = Path(rel).parent
                row["orig_ok"], row["orig_msg"], defined = make_parses(
                    orig / folder, Path(rel).name, stub, env, orig)
                if out is None:
                    row["hip_ok"], row["hip_msg"], defined2 = False, error, set()
                else:
                    row["hip_ok"], row["hip_msg"], defined2 = make_parses(
                        hip / folder, Path(rel).name, stub, env, hip)
                row["syntax"] = bool(MAKE_SYNTAX.search(row["hip_msg"]))
                row["defines_other"] = sorted(defined ^ defined2) if row["hip_ok"] else []
            else:
                row["orig_ok"], row["orig_msg"] = cmake_parses(data, scratch)
                if out is None:
                    row["hip_ok"], row["hip_msg"] = False, error
                else:
                    row["hip_ok"], row["hip_msg"] = cmake_parses(out, scratch)
                row["syntax"] = bool(CMAKE_SYNTAX.search(row["hip_msg"]))
            rows.append(row)
        if (args.configure or args.configure_only) and (root / "CMakeLists.txt").is_file():
            ok, msg = configure(orig, scratch / "build-orig" / root.name, hip=False)
            entry = {"repo": root.name, "orig_ok": ok, "orig_msg": msg}
            if ok:
                entry["hip_ok"], entry["hip_msg"] = configure(hip, scratch / "build-hip" / root.name,
                                                              hip=True)
                entry["errors"] = results.get("CMakeLists.txt", ("", b"", b"", "", []))[4]
            configured.append(entry)
            print(f"configure {root.name}: original {'ok' if ok else 'fails'}"
                  + (f", translation {'ok' if entry['hip_ok'] else 'fails: ' + entry['hip_msg']}"
                     if ok else ""), flush=True)
        shutil.rmtree(orig)
        shutil.rmtree(hip)
    report(rows, configured, time.monotonic() - start)
    if args.json:
        args.json.write_text(json.dumps({"files": rows, "configured": configured}, indent=1) + "\n")
    broken = [r for r in rows if r["orig_ok"] and not r["hip_ok"]]
    return 1 if broken else 0


def report(rows: list[dict], configured: list[dict], seconds: float) -> None:
    for kind, title in (("make", "Makefiles"), ("cmake", "CMake files")):
        mine = [r for r in rows if r["kind"] == kind]
        repos = len({r["repo"] for r in mine})
        parses = [r for r in mine if r["orig_ok"]]
        changed = [r for r in parses if r["changed"]]
        broken = [r for r in parses if not r["hip_ok"]]
        syntax = [r for r in broken if r["syntax"]]
        tool = [r for r in mine if r["tool_error"]]
        other = [r for r in parses if r.get("defines_other")]
        print(f"{title}: {len(mine)} distinct files from {repos} repositories; the original "
              f"parses: {len(parses)} ({len(changed)} changed by the translation); "
              f"translation fails where the original parses: {len(broken)} "
              f"({len(syntax)} with a syntax error); tool errors: {len(tool)}"
              + (f"; parses but defines other variables or targets: {len(other)}"
                 if kind == "make" else ""))
        for r in broken + [t for t in tool if not t["orig_ok"]]:
            print(f"  {r['repo']}/{r['path']}: {r['hip_msg']}")
        for r in other:
            print(f"  {r['repo']}/{r['path']}: defines other: {', '.join(r['defines_other'][:6])}")
    if configured:
        ok = [c for c in configured if c["orig_ok"]]
        bad = [c for c in ok if not c["hip_ok"]]
        print(f"configure: {len(configured)} top-level CMakeLists.txt; the original configures: "
              f"{len(ok)}; the translation fails where it does: {len(bad)}")
        for c in bad:
            print(f"  {c['repo']}: {c['hip_msg']} (error findings: {', '.join(c['errors']) or 'none'})")
    print(f"{seconds:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
