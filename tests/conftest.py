"""Shared fixtures: translation helpers and paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from cudaport import Options, translate_bytes

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    """Rule-table cache in a per-session temporary folder, never the user's."""
    monkeypatch.setenv("CUDAPORT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))


def tr(src: str | bytes, **options) -> str:
    """Translate and return text (bytes in, bytes out when given bytes)."""
    data = src.encode() if isinstance(src, str) else src
    out = translate_bytes(data, Options(**options)).output
    return out.decode() if isinstance(src, str) else out
