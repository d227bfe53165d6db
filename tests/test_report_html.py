"""The HTML report: one self-contained file that real headless Chromium renders with no
console errors and no network requests."""

from __future__ import annotations

import os
import re
import struct
import zlib

import pytest

from check_fixtures import proj, run  # noqa: F401  (fixture)
from headless_chromium import find_browser, visit

_chromium = pytest.mark.skipif(
    find_browser() is None and not os.environ.get("CI"),
    reason="Chromium is not installed (tools/setup-system.sh installs it)")


def needs_chromium(test):
    """Runs Chromium: slow."""
    return pytest.mark.slow(_chromium(test))


def png_size_and_colours(png: bytes) -> tuple[int, int, int]:
    """Width, height and the number of distinct pixel rows of a PNG (8-bit RGB/RGBA),
    decoded with zlib only: enough to tell a rendered page from a blank one."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    pos, idat, width, height, colour_type = 8, b"", 0, 0, 0
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, _depth, colour_type = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    channels = {2: 3, 6: 4}[colour_type]
    stride = width * channels + 1
    rows = {raw[i * stride + 1:(i + 1) * stride] for i in range(0, height, 7)}
    return width, height, len(rows)


def test_html_is_self_contained(proj, tmp_path):
    result = run("report", "proj", "--html", "report.html", "--title", "Demo <project>")
    assert result.exit_code == 0, result.stderr
    html = (tmp_path / "report.html").read_text()
    assert "Demo &lt;project&gt;" in html  # escaped, not injected
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", html)
    assert "@import" not in html and "url(" not in html
    for text in ("cudaArrayGetPlane", "Top unmapped APIs", "Files by porting effort",
                 "By library", "By folder", "proj/src/kernel.cu:16:3", "<svg"):
        assert text in html
    assert "What: the identifier is a known CUDA API" in html  # explanations are included


@needs_chromium
def test_html_renders_in_chromium_without_errors(proj, tmp_path):
    assert run("report", "proj", "--html", "report.html").exit_code == 0
    page = visit(tmp_path / "report.html", evaluate=(
        "[document.documentElement.dataset.ready, document.querySelectorAll('svg rect').length,"
        " document.getElementById('shown').textContent]"))
    (tmp_path / "report.png").write_bytes(page.screenshot)
    assert page.errors == []
    assert [u for u in page.requests if not u.startswith("file://")] == []
    assert page.failed == []
    ready, rects, shown = page.evaluated
    assert ready == "1"  # the inline script ran to its end
    assert rects >= 6  # bars were drawn
    assert shown == "4 of 4 shown"
    width, height, distinct_rows = png_size_and_colours(page.screenshot)
    assert width == 1280 and height > 1000
    assert distinct_rows > 20  # text, cards and charts, not a blank page


@needs_chromium
def test_the_browser_check_catches_broken_pages(tmp_path):
    """Guards the guard: a page with a script error and a remote image is caught."""
    bad = tmp_path / "bad.html"
    bad.write_text('<p>x</p><img src="http://127.0.0.1:9/a.png">'
                   '<script>console.error("bad"); undefinedFunction();</script>')
    page = visit(bad)
    assert any("undefinedFunction" in e for e in page.errors)
    assert any(e.startswith("console.error") for e in page.errors)
    assert any(u.startswith("http://") for u in page.requests)


def test_html_empty_project(tmp_path, monkeypatch):
    (tmp_path / "empty").mkdir()
    monkeypatch.chdir(tmp_path)
    result = run("report", "empty", "--html", "r.html", "--no-config")
    assert result.exit_code == 0
    html = (tmp_path / "r.html").read_text()
    assert "No CUDA references found." in html and "No findings." in html
    assert ">n/a</text>" in html  # no references: no percentage to show
