"""Tree translation through the real CLI: walking, mirroring, refusals, renames, check/diff,
in-place safety, the incremental cache and the process pool."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cudaport.run import driver
from cudaport.cli.main import main
from cudaport.options import Options

ROOT = Path(__file__).resolve().parent.parent
KERNEL = b"#include <cuda_runtime.h>\n__global__ void k(float* x) { x[0] = 1; }\n" \
         b"void run(float* p) { cudaMalloc(&p, 4); k<<<1, 1>>>(p); cudaFree(p); }\n"
HEADER = b"#pragma once\n#include <cuda_runtime.h>\ninline void sync() { cudaDeviceSynchronize(); }\n"
PLAIN = b"int add(int a, int b) { return a + b; }\n"


def make_tree(root: Path, files: dict[str, bytes]) -> Path:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


def cli(*args: str, cwd: Path | None = None) -> tuple[int, str, str]:
    runner = CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames \
        else CliRunner()
    old = os.getcwd()
    try:
        if cwd:
            os.chdir(cwd)
        r = runner.invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)
    return r.exit_code, r.stdout, r.stderr


def files_below(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t", *args], cwd=cwd,
                   check=True, capture_output=True)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return make_tree(tmp_path / "src", {
        "a.cu": KERNEL, "inc/common.cuh": HEADER, "util/plain.cpp": PLAIN,
        "README.md": b"# demo\n", "CMakeLists.txt":
        b"project(demo LANGUAGES CXX CUDA)\nadd_executable(demo a.cu)\n",
    })


def test_mirror_translates_cuda_files_only(tree: Path, tmp_path: Path):
    code, _, err = cli("translate", str(tree), "--out-dir", str(tmp_path / "out"), "-j", "1",
                       "--no-copy-all")
    assert code == 0, err
    out = files_below(tmp_path / "out")
    assert set(out) == {"a.cu", "inc/common.cuh", "CMakeLists.txt"}
    assert b"hipMalloc" in out["a.cu"] and b"hip/hip_runtime.h" in out["inc/common.cuh"]
    assert b"LANGUAGES CXX HIP" in out["CMakeLists.txt"]
    assert files_below(tree)["a.cu"] == KERNEL  # the input is untouched


def test_copy_all_copies_the_rest_unchanged(tree: Path, tmp_path: Path):
    code, _, _ = cli("translate", str(tree), "--out-dir", str(tmp_path / "out"), "--copy-all")
    assert code == 0
    out = files_below(tmp_path / "out")
    assert out["README.md"] == b"# demo\n" and out["util/plain.cpp"] == PLAIN


def test_a_folder_below_out_dir_is_the_whole_project_by_default(tree: Path, tmp_path: Path):
    """issue 37: the output folder builds as it is, every file there, translated where
    needed; --check then wants the copies too."""
    code, _, err = cli("translate", str(tree), "--out-dir", str(tmp_path / "out"))
    assert code == 0, err
    out = files_below(tmp_path / "out")
    assert set(out) == set(files_below(tree))
    assert out["README.md"] == b"# demo\n" and out["util/plain.cpp"] == PLAIN
    assert b"hipMalloc" in out["a.cu"]
    assert cli("translate", str(tree), "--check", "--out-dir", str(tmp_path / "out"))[0] == 0
    (tmp_path / "out" / "README.md").unlink()
    code, _, err = cli("translate", str(tree), "--check", "--out-dir", str(tmp_path / "out"))
    assert code == 1 and "README.md" in err


def test_gitignore_include_and_exclude_without_git(tree: Path, tmp_path: Path):
    make_tree(tree, {".gitignore": b"ignored/\n*.gen.cu\n!keep.gen.cu\n",
                     "ignored/x.cu": KERNEL, "y.gen.cu": KERNEL, "keep.gen.cu": KERNEL,
                     "third_party/z.cu": KERNEL})
    code, _, _ = cli("translate", str(tree), "--out-dir", str(tmp_path / "out"),
                     "--exclude", "third_party/")
    assert code == 0
    out = files_below(tmp_path / "out")
    assert "keep.gen.cu" in out and "a.cu" in out
    assert not {"ignored/x.cu", "y.gen.cu", "third_party/z.cu"} & set(out)
    code, _, _ = cli("translate", str(tree), "--out-dir", str(tmp_path / "only"),
                     "--include", "*.cuh")
    assert set(files_below(tmp_path / "only")) == {"inc/common.cuh"}


def test_gitignore_through_git(tree: Path, tmp_path: Path):
    make_tree(tree, {".gitignore": b"gen/\n", "gen/x.cu": KERNEL})
    git(tree, "init", "-q")
    listing = driver.plan([tree], tmp_path / "out")
    rels = {j.rel for j in listing.jobs}
    assert "a.cu" in rels and "gen/x.cu" not in rels


def test_binary_source_is_skipped_with_a_note(tree: Path, tmp_path: Path):
    (tree / "blob.cu").write_bytes(b"\x00\x01binary")
    code, _, err = cli("translate", str(tree), "--out-dir", str(tmp_path / "out"),
                       "--no-copy-all")
    assert code == 0
    assert "CP930" in err and "blob.cu" in err
    assert not (tmp_path / "out" / "blob.cu").exists()
    # (the whole project, by default: the file is copied as it is, with the same note)
    code, _, err = cli("translate", str(tree), "--out-dir", str(tmp_path / "all"))
    assert code == 0 and "CP930" in err
    assert (tmp_path / "all" / "blob.cu").read_bytes() == b"\x00\x01binary"


def test_symlinks_out_of_the_tree_are_not_followed(tree: Path, tmp_path: Path):
    outside = make_tree(tmp_path / "elsewhere", {"secret.cu": KERNEL})
    os.symlink(outside / "secret.cu", tree / "link.cu")
    os.symlink(outside, tree / "linkdir")
    os.symlink(tree / "inc", tree / "inc_alias")
    code, _, err = cli("translate", str(tree), "--out-dir", str(tmp_path / "out"))
    assert code == 0
    out = files_below(tmp_path / "out")
    assert not any(k.startswith(("link", "inc_alias")) for k in out)
    assert err.count("CP931") == 2 and "CP932" in err


def test_out_dir_inside_the_tree_is_refused_unless_excluded(tree: Path):
    code, _, err = cli("translate", str(tree), "--out-dir", str(tree / "hip"))
    assert code == 2 and "inside the input folder" in err
    assert not (tree / "hip").exists()
    code, _, err = cli("translate", str(tree), "--out-dir", str(tree / "hip"), "--exclude", "hip/")
    assert code == 0, err
    code, _, err = cli("translate", str(tree), "--out-dir", str(tree / "hip"), "--exclude", "hip/")
    assert not (tree / "hip" / "hip").exists()  # a second run does not translate its output
    assert cli("translate", str(tree), "--out-dir", str(tree))[0] == 2


def test_two_inputs_on_one_output_is_an_error(tree: Path, tmp_path: Path):
    (tree / "a.hip").write_bytes(b"// already ported\n")
    code, _, err = cli("translate", str(tree), "--out-dir", str(tmp_path / "out"), "--rename")
    assert code == 2 and "a.cu" in err and "a.hip" in err and "both" in err
    assert not (tmp_path / "out").exists()


def test_llama_cpp_vendor_headers_keep_their_names(tmp_path: Path):
    # PyTorch's hipify turns vendors/cuda.h into vendors/hip.h and loses one of the two.
    src = make_tree(tmp_path / "ggml", {"vendors/cuda.h": HEADER,
                                        "vendors/hip.h": b"#pragma once\n#include <hip/hip_runtime.h>\n"})
    code, _, _ = cli("translate", str(src), "--out-dir", str(tmp_path / "out"), "--rename",
                     "--copy-all")
    assert code == 0
    out = files_below(tmp_path / "out")
    assert set(out) == {"vendors/cuda.h", "vendors/hip.h"}
    assert b"hip_runtime.h" in out["vendors/cuda.h"] and out["vendors/hip.h"].startswith(b"#pragma")


def test_rename_fixes_includes_and_cmake(tmp_path: Path):
    src = make_tree(tmp_path / "src", {
        "kernels/k.cu": KERNEL, "main.cu": b'#include "kernels/k.cu"\n#include "kernels/k.cuh"\n'
        b'// #include "kernels/k.cu"\nint main() { cudaDeviceSynchronize(); }\n',
        "kernels/k.cuh": HEADER,
        "CMakeLists.txt": b"project(p LANGUAGES CXX CUDA)\nadd_executable(p main.cu kernels/k.cu)\n"})
    code, _, err = cli("translate", str(src), "--out-dir", str(tmp_path / "out"), "--rename")
    assert code == 0, err
    out = files_below(tmp_path / "out")
    assert set(out) == {"kernels/k.hip", "main.hip", "kernels/k.cuh", "CMakeLists.txt"}
    assert b'#include "kernels/k.hip"\n#include "kernels/k.cuh"\n// #include "kernels/k.cu"\n' \
        in out["main.hip"]
    assert b"add_executable(p main.hip kernels/k.hip)" in out["CMakeLists.txt"]


def test_check_and_diff_write_nothing(tree: Path, tmp_path: Path):
    before = files_below(tree)
    code, _, err = cli("translate", str(tree), "--check")
    assert code == 1 and "would translate" in err and "a.cu" in err
    code, out, _ = cli("translate", str(tree), "--diff")
    assert "-#include <cuda_runtime.h>" in out and "+#include <hip/hip_runtime.h>" in out
    assert files_below(tree) == before
    # --check against a mirror: missing, then fresh, then stale again after an edit.
    mirror = tmp_path / "hip"
    assert cli("translate", str(tree), "--check", "--out-dir", str(mirror))[0] == 1
    assert cli("translate", str(tree), "--out-dir", str(mirror))[0] == 0
    code, _, err = cli("translate", str(tree), "--check", "--out-dir", str(mirror))
    assert code == 0, err
    (tree / "a.cu").write_bytes(KERNEL + b"void more() { cudaDeviceReset(); }\n")
    code, _, err = cli("translate", str(tree), "--check", "--out-dir", str(mirror))
    assert code == 1 and "a.cu" in err
    assert not mirror.joinpath("a.cu").read_bytes().endswith(b"hipDeviceReset(); }\n")


def test_in_place_needs_git_or_backup(tree: Path, tmp_path: Path):
    code, _, err = cli("translate", str(tree), "--in-place")
    assert code == 2 and "--backup" in err
    assert files_below(tree)["a.cu"] == KERNEL
    code, _, err = cli("translate", str(tree), "--in-place", "--backup")
    assert code == 0, err
    assert (tree / "a.cu.orig").read_bytes() == KERNEL
    assert b"hipMalloc" in (tree / "a.cu").read_bytes()
    assert (tree / "util/plain.cpp").read_bytes() == PLAIN
    assert not (tree / "util/plain.cpp.orig").exists()  # unchanged files are not touched


def test_in_place_on_git_refuses_dirty_files(tree: Path):
    git(tree, "init", "-q")
    git(tree, "add", ".")
    git(tree, "commit", "-qm", "x")
    (tree / "a.cu").write_bytes(KERNEL + b"// local edit\n")
    code, _, err = cli("translate", str(tree), "--in-place")
    assert code == 2 and "uncommitted" in err and "a.cu" in err
    git(tree, "commit", "-qam", "edit")
    code, _, err = cli("translate", str(tree), "--in-place", "--rename")
    assert code == 0, err
    assert not (tree / "a.cu").exists() and b"hipFree" in (tree / "a.hip").read_bytes()
    assert b"add_executable(demo a.hip)" in (tree / "CMakeLists.txt").read_bytes()


def test_in_place_on_named_files_refuses_dirty_ones(tree: Path):
    git(tree, "init", "-q")
    git(tree, "add", ".")
    git(tree, "commit", "-qm", "x")
    (tree / "a.cu").write_bytes(KERNEL + b"// local edit\n")
    code, _, err = cli("translate", "a.cu", "--in-place", cwd=tree)
    assert code == 2 and "uncommitted" in err and "a.cu" in err
    assert (tree / "a.cu").read_bytes() == KERNEL + b"// local edit\n"
    code, _, err = cli("translate", "a.cu", "--in-place", "--backup", cwd=tree)
    assert code == 0, err
    assert b"hipMalloc" in (tree / "a.cu").read_bytes()


def test_in_place_on_named_files_outside_git_is_done_as_asked(tree: Path):
    code, _, err = cli("translate", "a.cu", "--in-place", cwd=tree)
    assert code == 0, err
    assert b"hipMalloc" in (tree / "a.cu").read_bytes()


@pytest.mark.parametrize("named", [True, False])
def test_in_place_refuses_read_only_files(tree: Path, named: bool):
    os.chmod(tree / "a.cu", 0o444)  # (root could write it: the mode is what counts)
    args = ["a.cu"] if named else ["."]
    code, _, err = cli("translate", *args, "--in-place", "--backup", cwd=tree)
    assert code == 2
    assert [line for line in err.splitlines() if "error" in line] == [
        f"cudaport: error: {'' if named else './'}a.cu: read-only; --in-place does not "
        "overwrite it (make it writable first)"]
    assert (tree / "a.cu").read_bytes() == KERNEL
    assert not (tree / "a.cu.orig").exists()
    if not named:  # the other files are still translated
        assert b"hipDeviceSynchronize" in (tree / "inc/common.cuh").read_bytes()


def test_in_place_leaves_read_only_files_it_need_not_change(tree: Path):
    os.chmod(tree / "util/plain.cpp", 0o444)
    code, _, err = cli("translate", ".", "--in-place", "--backup", cwd=tree)
    assert code == 0, err


def test_in_place_keeps_mode_owner_and_links(tree: Path):
    src = tree / "a.cu"
    os.chmod(src, 0o640)
    twin = tree / "twin.cu.keep"
    os.link(src, twin)
    link = tree / "l.cu"
    (tree / "real").mkdir()
    (tree / "real" / "k.cu").write_bytes(KERNEL)
    link.symlink_to("real/k.cu")
    if os.geteuid() == 0:
        os.chown(src, 4321, 4322)
    code, _, err = cli("translate", "a.cu", "l.cu", "--in-place", cwd=tree)
    assert code == 0, err
    st = os.stat(src)
    assert oct(st.st_mode & 0o777) == "0o640"
    if os.geteuid() == 0:
        assert (st.st_uid, st.st_gid) == (4321, 4322)
    assert b"hipMalloc" in twin.read_bytes() and os.path.samefile(src, twin)
    assert link.is_symlink() and os.readlink(link) == "real/k.cu"
    assert b"hipMalloc" in (tree / "real" / "k.cu").read_bytes()


def test_in_place_as_root_gives_the_owner_back(tree: Path):
    if os.geteuid() != 0:
        pytest.skip("needs root to hand a file to another user")
    os.chown(tree / "a.cu", 4321, 4322)
    code, _, err = cli("translate", ".", "--in-place", "--backup", cwd=tree)
    assert code == 0, err
    assert b"hipMalloc" in (tree / "a.cu").read_bytes()
    st = os.stat(tree / "a.cu")
    assert (st.st_uid, st.st_gid) == (4321, 4322)


def test_a_linked_folder_in_the_output_is_not_written_through(tree: Path, tmp_path: Path):
    mirror, outside = tmp_path / "hip", tmp_path / "outside"
    outside.mkdir()
    mirror.mkdir()
    (mirror / "inc").symlink_to(outside, target_is_directory=True)
    code, _, err = cli("translate", str(tree), "--out-dir", str(mirror))
    assert code == 2
    assert [line for line in err.splitlines() if "error" in line] == [
        f"cudaport: error: {mirror}/inc/common.cuh: {mirror}/inc is a symbolic link; cudaport "
        "does not write through it (remove the link or choose another output folder)"]
    assert list(outside.iterdir()) == []
    assert b"hipMalloc" in (mirror / "a.cu").read_bytes()  # the other files are written
    assert (mirror / "inc").is_symlink()


def test_a_link_further_up_or_to_a_file_outside_is_not_written_through(tmp_path: Path):
    root = make_tree(tmp_path / "src", {"inc/deep/x.cuh": HEADER, "a.cu": KERNEL})
    mirror, outside = tmp_path / "hip", tmp_path / "outside"
    outside.mkdir()
    mirror.mkdir()
    (mirror / "inc").symlink_to(outside, target_is_directory=True)  # deep/ is missing
    (outside / "victim.cu").write_bytes(b"// not ours\n")
    (mirror / "a.cu").symlink_to(outside / "victim.cu")
    code, _, err = cli("translate", str(root), "--out-dir", str(mirror))
    assert code == 2
    assert f"{mirror}/inc is a symbolic link" in err
    assert f"{mirror}/a.cu: a symbolic link out of {mirror}" in err
    assert sorted(p.name for p in outside.iterdir()) == ["victim.cu"]
    assert (outside / "victim.cu").read_bytes() == b"// not ours\n"


def test_in_place_rename_does_not_write_through_a_link_out(tree: Path, tmp_path: Path):
    outside = tmp_path / "victim.hip"
    outside.write_bytes(b"// not ours\n")
    (tree / "a.hip").symlink_to(outside)
    code, _, err = cli("translate", "a.cu", "--in-place", "--rename", cwd=tree)
    assert code == 2 and "a.hip: a symbolic link out of" in err
    assert outside.read_bytes() == b"// not ours\n"
    assert (tree / "a.cu").read_bytes() == KERNEL


def test_a_dangling_backup_link_is_not_followed(tree: Path, tmp_path: Path):
    (tree / "a.cu.orig").symlink_to(tmp_path / "made-elsewhere")
    code, _, err = cli("translate", "a.cu", "--in-place", "--backup", cwd=tree)
    assert code == 2 and "backup already exists" in err
    assert not (tmp_path / "made-elsewhere").exists()
    assert (tree / "a.cu").read_bytes() == KERNEL


def test_a_linked_folder_in_the_backup_folder_is_not_written_through(tree: Path,
                                                                      tmp_path: Path):
    backups, outside = tmp_path / "bak", tmp_path / "outside"
    outside.mkdir()
    backups.mkdir()
    (backups / "inc").symlink_to(outside, target_is_directory=True)
    code, _, err = cli("translate", str(tree), "--in-place", "--backup-dir", str(backups))
    assert code == 2 and f"{backups}/inc is a symbolic link" in err
    assert list(outside.iterdir()) == []
    assert (tree / "inc/common.cuh").read_bytes() == HEADER  # no backup: not overwritten
    assert (backups / "a.cu").read_bytes() == KERNEL


def test_a_linked_output_root_is_the_users_choice(tree: Path, tmp_path: Path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "hip").symlink_to(real, target_is_directory=True)
    code, _, err = cli("translate", str(tree), "--out-dir", str(tmp_path / "hip"))
    assert code == 0, err
    assert b"hipDeviceSynchronize" in (real / "inc/common.cuh").read_bytes()


def test_rename_rewrites_cmake_paths_of_translated_files_only(tmp_path: Path):
    root = make_tree(tmp_path / "repo", {
        "vendor/v.cu": KERNEL,
        "src/a.cu": KERNEL,
        "src/CMakeLists.txt": b"add_library(l a.cu ../vendor/v.cu gone.cu /abs/x.cu)\n"})
    code, _, err = cli("translate", str(root / "src"), "--out-dir", str(tmp_path / "hip"),
                       "--rename")
    assert code == 0, err
    assert (tmp_path / "hip/CMakeLists.txt").read_bytes() == (
        b"add_library(l a.hip ../vendor/v.cu gone.cu /abs/x.cu)\n"
        b"set_source_files_properties(../vendor/v.cu gone.cu /abs/x.cu PROPERTIES "
        b"LANGUAGE HIP)\n")
    assert b"hipMalloc" in (tmp_path / "hip/a.hip").read_bytes()


def test_backup_dir_keeps_originals(tree: Path, tmp_path: Path):
    code, _, _ = cli("translate", str(tree), "--in-place", "--backup-dir", str(tmp_path / "bak"))
    assert code == 0
    assert (tmp_path / "bak" / "a.cu").read_bytes() == KERNEL


def test_incremental_cache_skips_unchanged_files(tree: Path, tmp_path: Path, monkeypatch):
    calls = []
    real = driver.run_job
    monkeypatch.setattr(driver, "run_job", lambda job, req, *a: calls.append(job.rel) or real(job, req))
    out = tmp_path / "out"
    request = driver.Request(Options())
    jobs = driver.plan([tree], out).jobs
    first = driver.run(jobs, request, workers=1, cache_scope="t")
    assert sorted(calls) == sorted(j.rel for j in jobs)
    calls.clear()
    second = driver.run(jobs, request, workers=1, cache_scope="t")
    assert calls == []
    assert [o.findings for o in second] == [o.findings for o in first]
    # a touched but identical input is still a hit (keyed by content); an edited one is not
    os.utime(tree / "a.cu", ns=(1, 1))
    (tree / "inc/common.cuh").write_bytes(HEADER + b"// more\n")
    driver.run(jobs, request, workers=1, cache_scope="t")
    assert calls == ["inc/common.cuh"]
    calls.clear()
    (out / "a.cu").write_bytes(b"clobbered")  # a damaged output is redone
    driver.run(jobs, request, workers=1, cache_scope="t")
    assert calls == ["a.cu"] and b"hipMalloc" in (out / "a.cu").read_bytes()
    calls.clear()
    driver.run(jobs, driver.Request(Options(launch="hip")), workers=1, cache_scope="t")
    assert len(calls) == len(jobs)  # other options, other cache


def test_pool_gives_the_same_result_as_one_process(tmp_path: Path):
    # (enough bytes that -j 2 starts a pool: see driver.POOL_MIN_BYTES)
    files = {f"d{i % 7}/f{i}.cu": KERNEL * 300 + f"// {i}\n".encode() for i in range(60)}
    # Headers that declare a CUDA name in the project's namespace: the project pre-pass
    # reads them (scanned by the pool too with -j 2), and uses inside the namespace stay.
    for i in range(10):
        files[f"inc/api{i}.cuh"] = (b"#pragma once\nnamespace mylib {\n"
                                    b"inline int cudaGetLastError() { return 0; }\n"
                                    b"inline int use() { return cudaGetLastError(); }\n}\n"
                                    + KERNEL * 50)
    assert sum(map(len, files.values())) > driver.POOL_MIN_BYTES
    src = make_tree(tmp_path / "src", files)
    assert cli("translate", str(src), "--out-dir", str(tmp_path / "one"), "-j", "1",
               "--no-cache")[0] == 0
    assert cli("translate", str(src), "--out-dir", str(tmp_path / "two"), "-j", "2",
               "--no-cache")[0] == 0
    assert files_below(tmp_path / "one") == files_below(tmp_path / "two")
    assert len(files_below(tmp_path / "two")) == 70
    api = (tmp_path / "two" / "inc" / "api3.cuh").read_bytes()
    assert b"return cudaGetLastError();" in api and b"hipMalloc" in api


def test_a_pool_only_for_enough_work(tmp_path: Path):
    small = sorted(make_tree(tmp_path / "small", {f"f{i}.cu": KERNEL for i in range(40)})
                   .rglob("*.cu"))
    assert not driver._worth_a_pool(small)  # 40 files of a few hundred bytes: one process
    big = sorted(make_tree(tmp_path / "big", {f"f{i}.cu": KERNEL * 2000 for i in range(8)})
                 .rglob("*.cu"))
    assert driver._worth_a_pool(big)
    assert not driver._worth_a_pool(big[:7])


def test_missing_input_is_an_error_naming_it(tmp_path: Path):
    code, _, err = cli("translate", str(tmp_path / "nope.cu"), "--out-dir", str(tmp_path / "o"))
    assert code == 2 and "nope.cu" in err and "no such file" in err


def _stderr_on_a_terminal(args: list[str], env: dict) -> tuple[int, bytes]:
    """Run cudaport with a pseudo-terminal as stderr; what the terminal showed."""
    import pty

    leader, follower = pty.openpty()
    proc = subprocess.run([sys.executable, "-m", "cudaport"] + args,
                          stdout=subprocess.PIPE, stderr=follower, env=env)
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    return proc.returncode, shown


@pytest.mark.parametrize("command", ["translate", "check"])
def test_progress_only_on_a_terminal_and_not_with_q(tmp_path: Path, command: str):
    src = make_tree(tmp_path / "src", {f"f{i}.cu": KERNEL for i in range(30)})
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    args = [command, str(src)] + (["--out-dir", str(tmp_path / "out"), "--no-cache"]
                                  if command == "translate" else [])
    proc = subprocess.run([sys.executable, "-m", "cudaport"] + args, capture_output=True, env=env)
    assert proc.returncode == 0 and b"\r" not in proc.stderr
    # On a real terminal (a pseudo-terminal as stderr) the counter shows, ending cleared;
    # -q silences it.
    env.pop("CI", None)
    code, shown = _stderr_on_a_terminal(args, env)
    assert code == 0 and b"\rcudaport: 30/30 files" in shown
    code, shown = _stderr_on_a_terminal(args + ["-q"], env)
    assert code == 0 and shown == b""


@pytest.mark.parametrize("workers", ["1", "2"])
def test_interrupt_leaves_no_partial_files(tmp_path: Path, workers: str):
    """SIGINT in the middle of a real run: every output present is complete, no temp files."""
    import signal
    import time

    body = KERNEL * 400  # ~60 KB per file
    src = make_tree(tmp_path / "src", {f"d{i % 20}/f{i}.cu": body for i in range(400)})
    expected = Options()
    from cudaport import translate_bytes

    translated = translate_bytes(body, expected, "x.cu").output
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "cudaport", "translate", str(src),
                             "--out-dir", str(out), "-j", workers, "-q", "--no-cache"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(out.rglob("*.cu"))) < 20:
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    written = list(out.rglob("*.cu"))
    assert proc.returncode in (130, 0), err
    if proc.returncode == 130:
        assert b"interrupted" in err and len(written) < 400
    assert written and all(p.read_bytes() == translated for p in written)
    assert not [p for p in out.rglob("*") if p.name.endswith(".cudaport-tmp")]


def test_single_file_modes_still_work(tmp_path: Path):
    src = make_tree(tmp_path, {"k.cu": KERNEL})
    code, out, _ = cli("translate", str(src / "k.cu"))
    assert code == 0 and "hipMalloc" in out
    code, _, _ = cli("translate", "k.cu", "--out-dir", "o", cwd=tmp_path)
    assert code == 0 and b"hipMalloc" in (tmp_path / "o" / "k.cu").read_bytes()
    code, _, err = cli("translate", str(tmp_path), "-o", str(tmp_path / "x.hip"))
    assert code == 2 and "folder" in err


def test_report_for_a_tree(tree: Path, tmp_path: Path):
    import json

    report = tmp_path / "r.json"
    code, _, _ = cli("translate", str(tree), "--out-dir", str(tmp_path / "out"), "--report",
                     str(report), "-q")
    assert code == 0
    data = json.loads(report.read_text())
    files = {Path(f["path"]).name: f for f in data["files"]}
    assert files["a.cu"]["changed"] and files["a.cu"]["edits"] > 0
    assert {r["identifier"] for r in files["a.cu"]["references"]} >= {"cudaMalloc", "cudaFree"}
    assert data["summary"]["files"] == len(data["files"])


def test_named_binary_file_is_an_error_walked_one_a_note(tmp_path: Path):
    src = make_tree(tmp_path / "src", {"blob.cu": b"\x00\x01", "k.cu": KERNEL})
    code, _, err = cli("translate", str(src / "blob.cu"), "--out-dir", str(tmp_path / "o"))
    assert code == 2 and "blob.cu" in err and "binary" in err
    code, _, err = cli("translate", str(src), "--out-dir", str(tmp_path / "o2"))
    assert code == 0 and "CP930" in err


def test_config_seams_exclude_paths(tree: Path, tmp_path: Path):
    jobs = driver.plan([tree], tmp_path / "out", extra_excludes=("inc/",),
                       is_excluded=lambda p: p.name == "a.cu").jobs
    assert {j.rel for j in jobs} == {"CMakeLists.txt", "util/plain.cpp"}


def test_project_config_excludes_apply_to_trees(tree: Path):
    make_tree(tree, {".cudaport.toml": b'exclude = ["inc/", "hip"]\n'})
    code, _, err = cli("translate", str(tree), "--out-dir", str(tree / "hip"))
    assert code == 0, err  # the output folder inside the tree is excluded by the config
    out = files_below(tree / "hip")
    assert "a.cu" in out and not any(k.startswith("inc/") for k in out)


OWN_NAMES_TREE = {
    "common.h": b"#pragma once\n#define CUDA_CHECK(x) (x)\nextern int cudaDev;\n"
                b"struct cudaPlan { int n; };\n",
    "k.cu": b'#include "common.h"\nvoid f(cudaPlan p) { CUDA_CHECK(cudaSetDevice(cudaDev)); '
            b"cudaNewApi(); }\n",
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_names_another_file_defines_are_not_unknown_api(tmp_path: Path, jobs: str):
    # llm.c, ggml: CUDA_CHECK and cudaCheck are defined in a header every .cu includes.
    src = make_tree(tmp_path / "src", OWN_NAMES_TREE)
    for _ in range(2):  # the second, cached run says the same
        code, out, err = cli("translate", str(src), "--out-dir", str(tmp_path / "out"),
                             "-j", jobs)
        assert code == 0, err
        assert "CP105 cudaNewApi" in err
        assert "CUDA_CHECK" not in err and "cudaDev" not in err and "cudaPlan" not in err
        assert "1 unknown CUDA-looking name(s)" in err


def test_check_follows_own_names_across_files(tmp_path: Path):
    src = make_tree(tmp_path / "src", OWN_NAMES_TREE)
    code, out, err = cli("check", str(src), "--select", "CP105", "--format", "json")
    report = json.loads(out)
    assert [f["identifier"] for f in report["findings"]] == ["cudaNewApi"]
    assert report["summary"]["unknown_cuda_names"] == 1


def test_project_pre_pass_is_reused_while_no_source_changed(tmp_path: Path, monkeypatch):
    """The names a project declares in its namespaces decide other files' translation; a
    rerun over unchanged sources reuses them without reading the tree again, and a change
    to a declaring header is seen."""
    from cudaport.symbols import project_names

    declaring = b"#pragma once\nnamespace mylib {\ninline int cudaGetLastError() { return 0; }\n}\n"
    src = make_tree(tmp_path / "src", {
        "inc/api.cuh": declaring,
        "use.cu": b'#include "inc/api.cuh"\nnamespace mylib {\n'
                  b"int f() { return cudaGetLastError(); }\n}\n" + KERNEL})
    calls = []
    real = project_names.project_options
    monkeypatch.setattr(project_names, "project_options",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    out = tmp_path / "out"
    assert cli("translate", str(src), "--out-dir", str(out), "-q")[0] == 0
    assert b"return cudaGetLastError();" in (out / "use.cu").read_bytes()
    assert cli("translate", str(src), "--out-dir", str(out), "-q")[0] == 0
    assert len(calls) == 1  # the second run trusted the sizes and times
    (src / "inc" / "api.cuh").write_bytes(declaring.replace(b"cudaGetLastError", b"lastError"))
    assert cli("translate", str(src), "--out-dir", str(out), "-q")[0] == 0
    assert len(calls) == 2
    assert b"return hipGetLastError();" in (out / "use.cu").read_bytes()
