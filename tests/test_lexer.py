"""The lexer covers every byte and agrees with the fast scanner on what is code."""

from __future__ import annotations

import pytest

from cudaport.source import lexer

CASES = {
    "launch_in_comment": b"// k<<<1,1>>>();\n/* a<<<b>>> */ int x;\n",
    "launch_in_string": b'const char* s = "k<<<1,1>>>()"; char c = \'<\';\n',
    "launch_in_macro": b"#define LAUNCH(k) \\\n  k<<<1, 1>>>()\nLAUNCH(f);\n",
    "raw_string": b'auto s = R"xy(cudaMalloc "<<<" )" )xy"; cudaFree(p);\n',
    "prefixed_strings": b'auto a = u8"cuda"; auto b = L"x"; auto c = u8R"(q)"; auto d = U\'c\';\n',
    "continuation": b"#define X cudaMalloc(\\\n  p, \\\r\n  n)\n",
    "nested_templates": b"std::vector<std::vector<std::vector<int>>> v;\n",
    "digit_separators": b"int n = 1'000'000; char c = '\\''; long m = 0x1'ffULL;\n",
    "unterminated_comment": b"int a; /* never closed cudaMalloc",
    "unterminated_string": b'const char* s = "never closed\nint b = cudaFree(p);\n',
    "unterminated_raw": b'auto s = R"x(never closed cudaMalloc',
    "crlf": b"int a;\r\n// c\r\nint b;\r\n",
    "latin1": b"// caf\xe9\nint x;\n",
}


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_tokens_cover_every_byte(src):
    tokens = list(lexer.tokenize(src))
    assert b"".join(t.text for t in tokens) == src
    pos = 0
    for t in tokens:
        assert t.start == pos
        pos = t.end


def kinds(src):
    return [(t.kind, t.text) for t in lexer.tokenize(src) if t.kind not in lexer.TRIVIA]


def test_launch_tokens_only_in_code():
    assert ("punct", b"<<<") not in kinds(CASES["launch_in_comment"])
    assert ("punct", b"<<<") not in kinds(CASES["launch_in_string"])
    assert ("punct", b"<<<") in kinds(CASES["launch_in_macro"])


def test_raw_string_is_one_token():
    toks = kinds(CASES["raw_string"])
    assert ("string", b'R"xy(cudaMalloc "<<<" )" )xy"') in toks
    assert ("ident", b"cudaFree") in toks


def test_prefixed_literals():
    toks = kinds(CASES["prefixed_strings"])
    assert ("string", b'u8"cuda"') in toks
    assert ("string", b'L"x"') in toks
    assert ("string", b'u8R"(q)"') in toks
    assert ("char", b"U'c'") in toks


def test_line_continuations_inside_directive():
    toks = list(lexer.tokenize(CASES["continuation"]))
    assert [t.kind for t in toks].count("continuation") == 2
    assert ("ident", b"cudaMalloc") in kinds(CASES["continuation"])


def test_nested_template_close_is_not_a_launch():
    toks = kinds(CASES["nested_templates"])
    assert ("punct", b">>>") in toks and ("punct", b"<<<") not in toks


def test_digit_separators_are_numbers():
    toks = kinds(CASES["digit_separators"])
    assert ("number", b"1'000'000") in toks
    assert ("char", b"'\\''") in toks


def test_unterminated_literals_end_at_input_or_line_end():
    assert kinds(CASES["unterminated_comment"])[-1] == ("punct", b";")
    toks = kinds(CASES["unterminated_string"])
    assert ("ident", b"cudaFree") in toks
    assert kinds(CASES["unterminated_raw"])[-1][0] == "string"


SCAN = lexer.scanner([b"cu"])


def scanned_idents(src):
    hits = [m.group(lexer.G_HIT) for m in SCAN.finditer(src)]
    return [h for h in hits if h is not None and lexer.SCAN_KIND[h[0]] == lexer.K_IDENT
            and not h.startswith(b'R"')]


@pytest.mark.parametrize("src", CASES.values(), ids=CASES.keys())
def test_scanner_agrees_with_tokenizer(src):
    expected = [t.text for t in lexer.tokenize(src) if t.kind == "ident" and t.text.startswith(b"cu")]
    assert scanned_idents(src) == expected


def test_scanner_never_matches_inside_longer_identifier():
    assert scanned_idents(b"mycudaMalloc(x); _cudaFree(); cudaFree1();") == [b"cudaFree1"]


def test_split_arguments_nested():
    src = b"f(a(b, c), [d, e]{ return 1, 2; }, g<int>(h), \"x,y\")"
    args, end = lexer.split_arguments(src, 1)
    assert end == len(src)
    assert [src[a:b] for a, b in args] == [
        b"a(b, c)", b"[d, e]{ return 1, 2; }", b"g<int>(h)", b'"x,y"']


@pytest.mark.parametrize("src, expected", [
    # cuda-samples MC_EstimatePiInlineQ: a kernel template passed by name
    (b"f(&a, initRNG<curandStateSobol_sz, curandDirectionVectors_sz>)",
     [b"&a", b"initRNG<curandStateSobol_sz, curandDirectionVectors_sz>"]),
    (b"f(k<A, ns::B<int, 2>>, x)", [b"k<A, ns::B<int, 2>>", b"x"]),
    (b"f(k<A, B>(p, q), y)", [b"k<A, B>(p, q)", b"y"]),
    # comparisons: what follows the '>' (or a token inside) is no template-id
    (b"f(a < b, c > d)", [b"a < b", b"c > d"]),
    (b"f(a < b, c > 0)", [b"a < b", b"c > 0"]),
    (b"f(i < n, x + 1)", [b"i < n", b"x + 1"]),
    (b"f(a < b, c >= d)", [b"a < b", b"c >= d"]),
])
def test_split_arguments_keeps_template_arguments_whole(src, expected):
    args, end = lexer.split_arguments(src, 1)
    assert end == len(src)
    assert [src[a:b] for a, b in args] == expected


def test_split_arguments_keeps_a_nested_launch_whole():
    # Found by bench/fuzz.py: the comma inside `x<<<1, 2>>>` split the outer argument.
    src = b"k<<<g, x<<<1, 2>>>(), s>>>(a)"
    args, end = lexer.split_arguments(src, 1, end_token=b">>>")
    assert [src[a:b] for a, b in args] == [b"g", b"x<<<1, 2>>>()", b"s"]
    assert src[end:] == b"(a)"
    call = b"f(a, x<<<1, 2>>>(b), std::vector<std::vector<std::vector<int>>>{})"
    args, end = lexer.split_arguments(call, 1)
    assert [call[a:b] for a, b in args] == [
        b"a", b"x<<<1, 2>>>(b)", b"std::vector<std::vector<std::vector<int>>>{}"]


def test_a_run_of_line_comments_is_one_literal_span_and_code_around_it_is_code():
    from cudaport import Options
    from cudaport.rules import get_compiled
    from cudaport.source.scan import scan

    src = b"int a; // one\n  // two\n\t// three\nint b; // four\ncudaFree(0);\n"
    spans = scan(src, get_compiled(Options())).literals
    assert [src[a:b] for a, b in spans] == [b"// one\n  // two\n\t// three", b"// four"]
    assert lexer.blank_spans(src, spans).split(b"\n")[3] == b"int b;        "


@pytest.mark.parametrize("src", [b"x;\n  #include <a.h>\n", b"x;\n\t# if A\n", b"a \\\n  #define B\n",
                                 b"  \f#if X\n", b"\r  #if X\n", b"/* c */\n  # define X\n",
                                 b"// a\n// b\n   y", b"x  #if", b"\\\n#if A\n"])
def test_next_token_skips_trivia_as_the_tokenizer_does(src):
    # next_token jumps over a run of blanks and comments in one match; the blanks that
    # begin a directive's line still come with the directive
    tokens = [t for t in lexer.tokenize(src) if t.kind not in lexer.TRIVIA]
    for pos in range(len(src)):
        expected = next((t for t in lexer.tokenize(src, pos) if t.kind not in lexer.TRIVIA), None)
        assert lexer.next_token(src, pos) == expected, (src, pos)
    assert lexer.next_token(src, 0) == (tokens[0] if tokens else None)


def test_literal_runs_match_as_a_byte_at_a_time_would():
    """Comments and literals are matched a run of plain bytes at a time (possessive, so a
    run is never given back): the patterns built from them find what the same patterns
    with one byte per step find, on random text made of the bytes that matter."""
    import random
    import re

    def slow(pattern: bytes) -> re.Pattern[bytes]:
        for run in (rb"[^\\\n]", rb'[^"\\\n]', rb"[^'\\\n]"):
            pattern = pattern.replace(run + b"++", run)
        return re.compile(pattern)

    patterns = [lexer._TOKEN_RE, lexer._BRACKET_RE, lexer._TRIVIA_RUN,
                re.compile(lexer.STRING[:-1]), lexer.scanner([b"cuda", b"__sy"])]
    pieces = [b'"', b"'", b"\\", b"\n", b"\r\n", b"/", b"*", b"//", b"/*", b"*/", b"a", b" ",
              b"#include <x>", b"#if", b'R"x(', b')x"', b"u8", b"(", b")", b"<<<", b"cuda"]
    rng = random.Random(11)
    for pattern in patterns:
        reference = slow(pattern.pattern)
        assert reference.pattern != pattern.pattern
        for _ in range(2000):
            text = b"".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
            assert [(m.span(), m.groups()) for m in pattern.finditer(text)] == \
                [(m.span(), m.groups()) for m in reference.finditer(text)], (pattern, text)
            if pattern is patterns[3]:  # (the closed string is used whole: fullmatch)
                assert bool(pattern.fullmatch(text)) == bool(reference.fullmatch(text))
