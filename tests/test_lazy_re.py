"""Module-level patterns compiled on first use (cudaport/source/lazy_re.py): each one the
package defines compiles, and a lazy pattern answers as the compiled one does."""

from __future__ import annotations

import importlib
import pickle
import pkgutil
import re

import pytest

import cudaport
from cudaport.source.lazy_re import LazyPattern, lazy


def test_every_lazy_pattern_of_the_package_compiles():
    """A typo in a pattern shows at its first use, not at import: compile them all here."""
    found = 0
    for info in pkgutil.walk_packages(cudaport.__path__, "cudaport."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, LazyPattern):
                assert isinstance(value.compiled, re.Pattern), f"{info.name}.{name}"
                found += 1
    assert found > 200  # (the walk reached the passes)


def test_a_lazy_pattern_answers_as_the_compiled_one():
    text = b"int a = cudaMalloc(&p, n); cudaFree(p);"
    source = rb"cuda(\w+)\("
    p = lazy(source)
    assert p.pattern == source and "compiled" not in p.__dict__  # .pattern compiles nothing
    r = re.compile(source)
    assert p.search(text).span() == r.search(text).span()
    assert [m.group(1) for m in p.finditer(text)] == [b"Malloc", b"Free"]
    assert p.sub(b"hip\\1(", text) == r.sub(b"hip\\1(", text)
    assert p.match(text) is None and p.fullmatch(b"cudaX(") is not None
    assert p.findall(text) == r.findall(text) and p.split(text) == r.split(text)
    assert (p.groups, p.flags, p.compiled) == (r.groups, r.flags, r)
    m = p.search(text)
    assert m.re is p.compiled  # (what ``m.re is PATTERN`` code must compare against)
    flagged = lazy(r"^b", re.M)
    assert flagged.findall("a\nb\nb") == ["b", "b"]
    copy = pickle.loads(pickle.dumps(flagged))
    assert copy.findall("a\nb") == ["b"] and copy.pattern == r"^b"
    with pytest.raises(AttributeError):
        p.no_such_attribute  # noqa: B018
