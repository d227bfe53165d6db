"""cudaport.symbols.scopes: namespaces, definitions and their scopes, self-aliases, self-macros."""

from __future__ import annotations

import subprocess
import sys

from cudaport.symbols import scopes

from conftest import ROOT


def keys(src: bytes) -> set[tuple[str, bytes]]:
    return {(d.kind, d.key) for d in scopes.definitions(src)}


def test_blank_keeps_offsets_and_newlines():
    src = b'int a; // x "y"\nconst char* s = "{"; /* }\n */ int b;'
    code = scopes.blank(src)
    assert len(code) == len(src) and code.count(b"\n") == src.count(b"\n")
    assert b"{" not in code and b"int b;" in code


def test_namespace_at_nested_and_qualified():
    src = b"namespace a { namespace b::c { int x; } int y; }\nint z;"
    code = scopes.blank(src)
    blocks = scopes.namespaces(code)
    assert scopes.namespace_at(blocks, src.index(b"x;")) == b"a::b::c"
    assert scopes.namespace_at(blocks, src.index(b"y;")) == b"a"
    assert scopes.namespace_at(blocks, src.index(b"z;")) == b""


def test_definitions_of_each_kind():
    src = (b"struct S { int m; };\ntypedef int T;\nusing U = float;\n"
           b"enum E { A, B = 2 };\nint f(int x) { switch (x) { case A: case 'b': return 1; } }\n"
           b"#define M(x) x\n")
    assert keys(src) >= {("type", b"type S"), ("typedef", b"typedef T"), ("alias", b"typedef U"),
                         ("type", b"enum E"), ("enumerator", b"A"), ("enumerator", b"B"),
                         ("function", b"f(int x)"), ("case", b"case A"),
                         ("case", b"case 'b'"), ("macro", b"#define M")}


def test_no_function_definition_from_initializers_or_calls():
    src = (b"struct D : B { D() : B(), m_(0) { g(1); } D(int) {} int m_; };\n"
           b"int x = h(2) ? 1 : 0;\n")
    names = {k for kind, k in keys(src) if kind == "function"}
    assert names == {b"D(int)"}


def test_duplicates_respect_branches_classes_and_switches():
    src = (b"#if X\nstruct S {};\n#else\nstruct S {};\n#endif\n"
           b"struct P { void f(int) {} };\nstruct Q { void f(int) {} };\n"
           b"void g(int v) { switch (v) { case 1: switch (v) { case 1: break; } } }\n")
    assert scopes.duplicates(scopes.definitions(src)) == {}
    twice = b"struct S {};\nstruct S {};\nenum E { A, A };\n"
    found = scopes.duplicates(scopes.definitions(twice))
    assert {k[2] for k in found} == {b"type S", b"A"}


def test_self_aliases_and_self_macros():
    code = (b"using X = X;\ntypedef Y Y;\ntypedef struct Z Z;\nusing W = V;\n"
            b"#define A A\n#define f(p) f(p, 0)\n#define B C\n")
    assert [n for _, _, n in scopes.self_aliases(code)] == [b"X", b"Y"]
    assert [n for _, _, n in scopes.self_macros(code)] == [b"A", b"f"]


def test_bench_counts_damage(tmp_path):
    """bench/portability_damage.py prints one row per tree with the damage it counts."""
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "a.cu").write_text(
        "namespace mine { int cudaMalloc(void**, int); }\n"
        "void g(void** p) { mine::cudaMalloc(p, 1); cudaFree(*p); }\n")
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "portability_damage.py"),
                          str(tmp_path / "t")], capture_output=True, text=True, check=True)
    header, row = out.stdout.splitlines()[:2]
    counts = dict(zip(header.split()[1:], row.split()[1:]))
    assert counts["files"] == "1" and counts["changed"] == "1" and counts["again"] == "0"


def test_conversion_operator_is_no_definition_of_its_type():
    assert keys(b"struct L { operator T() const { return t; } };") == {("type", b"type L")}


def test_if_constexpr_blocks_are_not_function_definitions():
    code = b"void f() {\n  if constexpr (n == 8) { a(); }\n  if constexpr (n == 8) { b(); }\n}\n"
    assert [d.key for d in scopes.definitions(code) if d.kind == "function"] == [b"f()"]


def test_trailing_return_reads_past_long_blank_runs():
    """The arrow after a long blanked comment: the same answers as after a short one (the
    suffix before the arrow is found without trying every byte of the blank run)."""
    blank = b" " * 1900
    member = b"void g(S* p) { int a = " + blank + b"p->x; }"
    assert not scopes.trailing_return(member, member.index(b"->"))
    declared = b"auto f(int a) const" + blank + b"-> int;"
    assert scopes.trailing_return(declared, declared.index(b"->"))
    spaced = b"auto f(int a) &" + b"\n" * 50 + b"noexcept(true) " + blank + b"-> int;"
    assert scopes.trailing_return(spaced, spaced.index(b"->"))
    # a window (2,000 bytes back) that starts inside the blanks: the parameters are out of it
    far = b"auto f(int a)" + b" " * 2500 + b"-> int;"
    assert not scopes.trailing_return(far, far.index(b"->"))
