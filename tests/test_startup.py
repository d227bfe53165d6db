"""What a one-file ``check`` (the pre-commit case) loads before it reads its file: the
modules it needs and no others. (The time itself is measured by
``python bench/translate_tree.py --check FILE``, not asserted.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Imported by a check only where a run needs them: a folder's walk (git), an output
# write, a baseline, the build-file readers, a table built from the YAML rule packs.
NOT_NEEDED = ("subprocess", "tempfile", "json", "yaml", "cudaport.rules.pack",
              "cudaport.builds.build_flags", "cudaport.builds.cmake", "cudaport.builds.makefile",
              "cudaport.clang", "cudaport.report.html", "cudaport.report.sarif",
              "cudaport.report.templating", "jinja2")

# (modules the interpreter's own start-up imported, a site's .pth files' included, are
# not the check's)
CHILD = """
import sys
before = set(sys.modules)
from cudaport.cli.entry import main
try:
    main(["check", sys.argv[1]])
except SystemExit:
    pass
print(" ".join(sorted(set(sys.modules) - before)), file=sys.stderr)
"""


def test_a_one_file_check_imports_only_what_it_needs(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text("__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
                   "int main() { float *d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); }\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for _ in range(2):  # (the first run may build the rule table's cache)
        proc = subprocess.run([sys.executable, "-c", CHILD, str(src)], cwd=tmp_path, env=env,
                              capture_output=True, text=True, check=True)
    modules = set(proc.stderr.strip().splitlines()[-1].split())
    assert "cudaport.translate.passes.hazards" in modules  # (it did translate the file)
    assert not [m for m in NOT_NEEDED if m in modules]
