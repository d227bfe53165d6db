"""C/C++/CUDA lexer working on raw bytes.

Two views of the same grammar:

* :func:`tokenize` yields every token with its byte span; joining the token texts gives
  back the input exactly (used by tests, launch parsing and argument splitting).
* :func:`scanner` compiles one regex that only stops at what the translator cares about
  (comments, literals, ``#include`` lines, conditional directives, ``<<<`` and candidate
  identifiers). Everything else is skipped inside the regex engine, which is what makes
  the lexical engine fast: no Python object per ordinary token.

The lexer never evaluates ``#if``: every branch, and every macro body, is code.
Working on bytes keeps any source encoding (UTF-8, Latin-1, GBK, ...) intact.
"""

from __future__ import annotations

import re
from typing import Iterator, NamedTuple
from .lazy_re import lazy

# A backslash escape inside a literal. A backslash right before a line end is a line
# splice, whatever precedes it (translation phase 2 comes before escapes and comments):
# so ``\\`` then a newline continues the line, and an escaped character may come after
# splices. ``\\\r\n`` is one splice, so a CRLF continuation stays inside the token.
_ESC = rb"\\(?:\\\r?\n)*(?:\r\n|[\s\S])"
# Plain text inside comments and literals is taken a run at a time (``[^\\\n]++``), not a
# byte per loop step: three times faster. A run is never given back; the regexes built
# from these take the longest comment or literal anyway, so none of their matches change.
#
# The rest of a logical line (a directive's, say): up to a line break no backslash splices.
REST_OF_LINE = rb"(?:[^\\\n]++|\\\r?\n|\\)*"
LINE_COMMENT = b"//" + REST_OF_LINE
BLOCK_COMMENT = rb"/\*[^*]*\*+(?:[^/*][^*]*\*+)*/|/\*[\s\S]*"
# Every scanner alternative starts with a literal byte: a leading optional group or
# lookbehind would stop the regex engine's fast first-byte search and halve the speed.
# So encoding prefixes (u8, u, U, L) are checked by lookbehinds placed after the ``R``.
RAW_STRING = (
    rb'R(?:(?<=[^\w$]u8R)|(?<=^u8R)|(?<=[^\w$][uUL]R)|(?<=^[uUL]R)|(?<![\w$]R))'
    rb'"(?P<delim>[^()\\\s]{0,16})\((?:[\s\S]*?\)(?P=delim)"|[\s\S]*)'
)
STRING = rb'"(?:[^"\\\n]++|' + _ESC + rb')*"?'
CHAR = rb"'(?:[^'\\\n]++|" + _ESC + rb")*'?"
NUMBER = rb"(?<![\w$])\.?\d(?:[\w.]|'(?=\w)|[eEpP][+-])*"
# In the scanner, a quote starts a character literal only at the start of a token or
# after an encoding prefix; after a digit or letter it is a C++14 digit separator
# (1'000'000, 0xff'ff). The check sits after the literal quote (see ``scanner``).
CHAR_START = (rb"'(?:(?<![\w$]')|(?<=[^\w$][uUL]')|(?<=^[uUL]')|(?<=[^\w$]u8')|(?<=^u8'))")
INCLUDE = rb'#[ \t]*include(?:_next)?[ \t]*(?P<header><[^>\r\n]*>|"[^"\r\n]*")'
CONDITIONAL = rb"#[ \t]*(?P<cond>ifdef|ifndef|if|elif|else|endif)\b"
# A directive's '#' is the first token of a logical line: at a physical line start that
# does not continue the previous line with a backslash.
LOGICAL_LINE_START = rb"(?m:^)(?<!\\\n)(?<!\\\r\n)(?:(?<=\A)\xef\xbb\xbf)?[ \t]*"
# (``#R"x(...)x"`` is no directive named R: the scanner, like a compiler, reads a string)
DIRECTIVE = LOGICAL_LINE_START + rb"#[ \t]*(?!(?:u8|[uUL])?R?[\"'])[A-Za-z_]\w*"
IDENT = rb"[A-Za-z_$][\w$]*"
# Bytes an identifier is made of, for the passes' byte-by-byte backward walks.
IDENT_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
PUNCT = (
    rb"<<<|>>>|->\*?|<<=|>>=|\.\.\.|::|\+\+|--|&&|\|\||<=>|##|[<>=!+\-*/%&|^]=|<<|>>|[^\s\w]"
)

_TOKEN_RE = lazy(
    b"|".join(
        [
            rb"(?P<include>" + LOGICAL_LINE_START + INCLUDE.replace(b"(?P<header>", b"(?:", 1) + b")",
            rb"(?P<directive>" + DIRECTIVE + b")",
            rb"(?P<newline>\r\n|\n|\r)",
            rb"(?P<ws>[ \t\f\v]+)",
            rb"(?P<continuation>\\\r?\n)",
            rb"(?P<comment>" + LINE_COMMENT + b"|" + BLOCK_COMMENT + b")",
            rb"(?P<string>(?:(?<![\w$])(?:u8|[uUL]))?(?:" + RAW_STRING + b"|" + STRING + b"))",
            rb"(?P<char>(?:(?<![\w$])(?:u8|[uUL]))?" + CHAR_START + CHAR[1:] + b")",
            rb"(?P<number>" + NUMBER + b")",
            rb"(?P<ident>" + IDENT + b")",
            rb"(?P<punct>" + PUNCT + b")",
            rb"(?P<other>[\s\S])",
        ]
    )
)


class Token(NamedTuple):
    kind: str
    start: int
    end: int
    text: bytes


TRIVIA = frozenset({"newline", "ws", "continuation", "comment"})


def tokenize(src: bytes, pos: int = 0, endpos: int | None = None) -> Iterator[Token]:
    """Yield every token of ``src[pos:endpos]``; the texts concatenate to the input."""
    end = len(src) if endpos is None else endpos
    for m in _TOKEN_RE.finditer(src, pos, end):
        yield Token(m.lastgroup or "other", m.start(), m.end(), m.group())


BOM = b"\xef\xbb\xbf"


def starts_line(src: bytes, pos: int) -> bool:
    """Whether only blanks (spaces, tabs) precede ``pos`` on its physical line: what a
    ``(?m)^[ \\t]*`` regex prefix checks, asked only where a match was found (a regex that
    starts with ``^`` is tried at every byte)."""
    # (read back over the blanks only: a 1 MB line must not cost 1 MB per match)
    while True:
        low = max(0, pos - 256)
        before = src[low:pos].rstrip(b" \t")
        if before:
            return before[-1] == 0x0A  # "\n"
        if low == 0:
            return True
        pos = low


def starts_logical_line(src: bytes, pos: int) -> bool:
    """Whether only blanks precede ``pos`` on its logical line (so a '#' there is a
    directive); a line continued by a trailing backslash does not start a new one."""
    i = pos
    while i > 0 and src[i - 1] in b" \t\f\v":
        i -= 1
    if i == 0 or i == 3 and src.startswith(BOM):
        return True
    if src[i - 1] != 0x0A:  # "\n"
        return False
    j = i - 1
    if j > 0 and src[j - 1] == 0x0D:
        j -= 1
    return j == 0 or src[j - 1] != 0x5C  # "\\"


_LITERALS = lazy(b"|".join([
    LINE_COMMENT, BLOCK_COMMENT,
    RAW_STRING.replace(b"(?P<delim>", b"(").replace(b"(?P=delim)", b"\\1"),
    STRING, CHAR_START + CHAR[1:],
]))


def literals(src: bytes) -> Iterator[re.Match[bytes]]:
    """Every comment, string and character literal, in order, as lazy matches."""
    return _LITERALS.finditer(src)


def literal_spans(src: bytes) -> list[tuple[int, int]]:
    """(start, end) of every comment, string and character literal, in order; a fast way
    to tell whether an offset found by a plain regex is code."""
    return [m.span() for m in _LITERALS.finditer(src)]


def contains_directive(src: bytes, start: int, end: int) -> bool:
    """Whether a preprocessor directive begins inside ``src[start:end]``; a rewrite that
    spans one (a call or launch cut by ``#if``/``#include``) would move it."""
    i = src.find(b"#", start, end)
    while i >= 0:
        if starts_logical_line(src, i):
            return True
        i = src.find(b"#", i + 1, end)
    return False


# Blanks, line breaks, line splices and comments: the tokenizer's trivia, in one match.
_TRIVIA_RUN = lazy(rb"(?:[ \t\f\v\r\n]+|\\\r?\n|" + LINE_COMMENT + b"|" + BLOCK_COMMENT + rb")*")


def next_token(src: bytes, pos: int, skip_trivia: bool = True) -> Token | None:
    """The token starting at ``pos`` (after trivia when asked); None at end of input."""
    m = _TOKEN_RE.match(src, pos) if pos < len(src) else None
    if m is None:
        return None
    kind = m.lastgroup or "other"
    if skip_trivia and kind in TRIVIA:
        # the rest of the trivia at once; but the blanks that begin a directive's line
        # are the directive's, as the tokenizer reads them
        start = _TRIVIA_RUN.match(src, pos).end()
        if start >= len(src):
            return None
        m = None
        if src[start] == 0x23:  # "#"
            line = src.rfind(b"\n", pos, start) + 1
            if line and not src[line:start].strip(b" \t"):
                m = _TOKEN_RE.match(src, line)
                if m.lastgroup not in ("include", "directive"):
                    m = None
        m = m or _TOKEN_RE.match(src, start)
        kind = m.lastgroup or "other"
    return Token(kind, m.start(), m.end(), m.group())


# What a scanner match is, told by its first byte (see :func:`scanner`).
K_SKIP, K_COMMENT, K_STRING, K_DIRECTIVE, K_LAUNCH, K_IDENT, K_RAW_OR_IDENT = range(7)
SCAN_KIND = [K_IDENT] * 256
for _byte, _kind in ((b"/", K_COMMENT), (b'"', K_STRING), (b"'", K_SKIP), (b"#", K_DIRECTIVE),
                     (b"<", K_LAUNCH), (b"R", K_RAW_OR_IDENT)):
    SCAN_KIND[_byte[0]] = _kind
# ("R" starts either a raw string or an identifier.)


def _prefix_trie(prefixes: list[bytes]) -> bytes:
    """An alternation of ``prefixes`` nested by first byte (``c(?:s|u)``): the regex engine
    then tries one branch per distinct first byte, not one per prefix."""
    return b"|".join(re.escape(first) + (b"" if rest is None else b"(?:" + rest + b")")
                     for first, rest in _by_first_byte(prefixes).items())


def _by_first_byte(prefixes: list[bytes]) -> dict[bytes, bytes | None]:
    """First byte -> the trie of the prefixes' rests, or None when the byte alone is a
    prefix (a shorter prefix covers the longer ones)."""
    groups: dict[bytes, list[bytes]] = {}
    for p in sorted(set(prefixes)):
        groups.setdefault(p[:1], []).append(p[1:])
    return {first: None if b"" in rests else _prefix_trie(rests)
            for first, rests in groups.items()}


# Groups of the scanner's match: the hit itself, then groups inside it.
G_HIT, G_HEADER, G_COND, G_DELIM = 1, 2, 3, 4
_DIRECTIVE_HIT = (rb'#[ \t]*(?:include(?:_next)?[ \t]*(<[^>\r\n]*>|"[^"\r\n]*")'
                  rb"|(ifdef|ifndef|if|elif|else|endif)\b)")
# A raw string's opening after its encoding prefix (if any), which the skip must not eat:
# by the word's first byte, what follows it.
_RAW_REST = rb'R"[^()\\\s]{0,16}\('
_RAW_AFTER = {b"R": _RAW_REST[1:], b"u": b"8?" + _RAW_REST, b"U": _RAW_REST, b"L": _RAW_REST}
# An identifier's bytes as one plain set: the regex engine tests ``[\w$]`` as a category and
# a literal, this as one bitmap lookup (the skip's word and punctuation runs are its hot
# loops).
_WORD_TAIL = rb"[A-Za-z0-9_$]"
# First bytes of words in C++ code, most frequent first (counted on CUDA code): the skip
# tries one alternative per first byte in this order, so common words are skipped sooner.
_FREQUENT_FIRST = b"scitfuanpgbmdrvelwohkCST_PMNALRUIDBEFGHJKOQVWXYZjqxyz$"


def scanner(candidate_prefixes: list[bytes]) -> re.Pattern[bytes]:
    """Compile the fast scanning regex.

    ``candidate_prefixes`` are the leading bytes of identifiers worth a dict lookup; a
    candidate matched here is always a whole identifier, never the tail of a longer one.

    Each match is a skip, then a hit in group ``G_HIT``. The skip eats, inside the regex
    engine, everything the translator does not care about: whole words that start with
    no candidate prefix, numbers, punctuation and blanks, and a ``/``, ``<``, ``#`` or
    quote that starts nothing. The hit is what remains: a comment (or a run of line
    comments, one per line), string (plain or raw),
    character literal, directive (``#include`` header in group ``G_HEADER``, conditional
    keyword in ``G_COND``), ``<<<``, or candidate identifier; it is classified by its
    first byte with ``SCAN_KIND``. At the end of the input the last match has no hit.

    Words are skipped whole, so a hit always starts at a token boundary and the engine
    never retries inside a word; and the skip stops only where a hit surely matches, so
    no position is ever scanned twice.
    """
    trie = _prefix_trie(candidate_prefixes)
    rests = _by_first_byte(candidate_prefixes)
    letters = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$")
    # A word whose first byte starts no candidate and no raw string is skipped whole;
    # a word starting with one is skipped unless a candidate or raw string follows.
    free = bytes(sorted(letters - {p[0] for p in candidate_prefixes} - set(b"RuUL")))
    words = []
    for first in sorted({bytes([b]) for b in letters.difference(free)},
                        key=_FREQUENT_FIRST.find):
        if first in rests and rests[first] is None:
            continue  # every word starting so is a candidate
        not_after = [x for x in (rests.get(first), _RAW_AFTER.get(first)) if x]
        words.append(re.escape(first) + b"(?!" + b"|".join(not_after) + b")" + _WORD_TAIL + b"*+")
    skip = b"|".join([
        rb"[^A-Za-z0-9_$/\"'#<]++",  # (punctuation and blanks)
        b"[" + re.escape(free) + b"0-9]" + _WORD_TAIL + b"*+",  # a word (or number) no
        # candidate or raw string starts
        *words,
        rb"(?:u8|[uUL])(?=R\"[^()\\\s]{0,16}\()",  # a raw string's encoding prefix
        rb"/(?![/*])",
        rb"<(?!<<)",
        rb"#(?!" + _DIRECTIVE_HIT[1:].replace(b"(<", b"(?:<").replace(b"(ifdef", b"(?:ifdef")
        + b")",
        rb"'(?!" + CHAR_START[1:] + b")",
    ])
    hit = b"|".join([
        # a run of line comments, one under the other, is one hit (the blanks between
        # them are no code either): license headers and doc blocks cost one step
        LINE_COMMENT + rb"(?:\r?\n[ \t]*" + LINE_COMMENT + rb")*",
        BLOCK_COMMENT,
        _DIRECTIVE_HIT,
        RAW_STRING.replace(b"(?P<delim>", b"(").replace(b"(?P=delim)", b"\\%d" % G_DELIM),
        STRING,
        CHAR_START + CHAR[1:],
        rb"<<<",
    ] + ([b"(?:" + trie + b")" + _WORD_TAIL + b"*"] if trie else []))
    # An atomic group, not the possessive ``(?:...)*+`` it equals: Debian 12's python3
    # (3.11.2) mis-matches a possessive repeat of a group holding a negative lookahead
    # (python/cpython#100061, fixed in a later 3.11), and every #include was missed.
    return re.compile(b"(?>(?:" + skip + b")*)(?:(" + hit + rb")|\Z)")


_CLOSED_STRING = lazy(STRING[:-1])  # (STRING without its optional closing quote)


def unterminated_string(text: bytes, m: re.Match[bytes]) -> str | None:
    """``"raw string"`` or ``"string"`` if the scanner's string match ``m`` (text
    ``text``) never closes, else None: a raw string then runs to the end of the file, a
    plain one to the end of its line."""
    if text[:1] == b"R":
        closer = b")" + (m.group(G_DELIM) or b"") + b'"'
        return None if len(text) > len(closer) + 1 and text.endswith(closer) else "raw string"
    if len(text) > 1 and text[-1:] == b'"' and (text[-2:-1] != b"\\"
                                                 or _CLOSED_STRING.fullmatch(text)):
        return None
    return "string"


_BLANK_BYTES = bytes(c if c in b"\r\n" else 32 for c in range(256))


def blank_comments_and_literals(src: bytes) -> bytes:
    """Same length as ``src``; comments and literals become spaces (newlines kept), so
    regexes see only code. (In a translation, ``FileContext.code`` has it from the scan.)"""
    return blank_spans(src, literal_spans(src))


def blank_spans(src: bytes, spans: list[tuple[int, int]]) -> bytes:
    """``src`` with the given (sorted) spans of comments and literals blanked (spaces,
    line breaks kept)."""
    if not spans:
        return src
    blank = src.translate(_BLANK_BYTES)
    parts = []
    pos = 0
    for start, end in spans:
        parts.append(src[pos:start])
        parts.append(blank[start:end])
        pos = end
    parts.append(src[pos:])
    return b"".join(parts)


def word(text: bytes) -> bytes:
    """A regex for ``text`` (a name) as a whole word, the boundary checked after it:
    ``\\bname`` makes the regex engine try the pattern at every byte, ``name(?<!\\wname)``
    lets it search for the literal name in C (ten times faster over a whole file)."""
    escaped = re.escape(text)
    return escaped + rb"(?<!\w" + escaped + rb")"


def any_word(names, before: bytes = rb"[\w$]") -> bytes:
    """A regex alternation of ``names`` (longest first), each not preceded by one byte of
    the class ``before``, tested after the name as :func:`word` does: with the look-behind
    leading, the engine tried the pattern at every byte of a file (30 times slower)."""
    return rb"(?:" + b"|".join(
        re.escape(n) + rb"(?<!" + before + re.escape(n) + rb")"
        for n in sorted(names, key=len, reverse=True)) + rb")"


def find_words(text: bytes, names, before: frozenset[int] = IDENT_BYTES,
               after: frozenset[int] = IDENT_BYTES) -> list[tuple[int, bytes]]:
    """(offset, name) of each of ``names`` standing in ``text`` with no byte of ``before``
    just before it and none of ``after`` just after, in order. ``bytes.find`` skips
    through a file ten times faster than a regex search for a few rare words (which tries
    its pattern at each byte that may start one); each hit's neighbours are read here."""
    found = []
    for name in names:
        n = len(name)
        i = text.find(name)
        while i >= 0:
            if (i == 0 or text[i - 1] not in before) and (
                    i + n == len(text) or text[i + n] not in after):
                found.append((i, name))
            i = text.find(name, i + n)
    if len(names) > 1:
        found.sort()
    return found


# Any identifier (used inside comments and strings when asked to rewrite them).
IDENT_RE = lazy(rb"(?<![\w$])[A-Za-z_$][\w$]*")


# What the bracket matcher reads: literals and comments (skipped whole, so brackets inside
# them do not count), ``#include <...>`` names (as the scanner reads them), and brackets.
# ``<=>`` is read whole so that its ``>`` cannot start a ``>>>``.
_BRACKET_RE = lazy(b"|".join([
    LINE_COMMENT, BLOCK_COMMENT,
    rb"#[ \t]*include(?:_next)?[ \t]*<[^>\r\n]*>",
    RAW_STRING.replace(b"(?P<delim>", b"(").replace(b"(?P=delim)", b"\\1"),
    STRING, CHAR_START + CHAR[1:], rb"<=>|<<<|>>>|[()\[\]{}]",
]))
_OPENERS = frozenset((b"(", b"[", b"{", b"<<<"))


class Brackets:
    """Which bracket closes which, found lazily: asking about a bracket reads the source
    from it to where it closes (or to the end when it never does).

    ``(``, ``[``, ``{`` and ``<<<`` open; ``)``, ``]`` and ``}`` close the innermost open
    bracket whatever its kind, ``>>>`` does so while a ``<<<`` is open. Every bracket met
    on the way is remembered, and a later read steps over a bracket already paired: so
    each byte is read about once however many brackets are asked about, which keeps
    argument splitting linear on unbalanced input (``f((((`` ...), and a launch near the
    end of a long file costs its own extent, not the file before it."""

    def __init__(self, src: bytes) -> None:
        self.src = src
        self._closes: dict[int, int] = {}  # opener offset -> end of its closer, -1: never

    def close_end(self, start: int) -> int | None:
        """Offset just past the bracket closing the one at ``start``; None if it never
        closes (or no bracket starts there)."""
        end = self._closes.get(start)
        if end is None:
            end = self._read_from(start)
        return None if end < 0 else end

    def _read_from(self, start: int) -> int:
        closes = self._closes
        first = _BRACKET_RE.match(self.src, start)
        if first is None or first.group() not in _OPENERS:
            return -1
        stack = [(start, first.group() == b"<<<")]  # (offset, is '<<<')
        launches = int(stack[0][1])
        pos: int | None = first.end()
        while pos is not None:
            resume, pos = pos, None
            for m in _BRACKET_RE.finditer(self.src, resume):
                text = m.group()
                if text in _OPENERS:
                    known = closes.get(m.start())
                    if known is None:
                        launch = text == b"<<<"
                        stack.append((m.start(), launch))
                        launches += launch
                    elif known >= 0:
                        pos = known  # paired before: read on from its end
                        break
                    else:
                        break  # it never closes: neither does any bracket around it
                elif text in (b")", b"]", b"}") or text == b">>>" and launches:
                    offset, launch = stack.pop()
                    launches -= launch
                    closes[offset] = m.end()
                    if not stack:
                        return closes[start]
        for offset, _ in stack:
            closes[offset] = -1
        return -1


def split_arguments(src: bytes, open_paren: int, closer: bytes = b")",
                    end_token: bytes | None = None,
                    brackets: Brackets | None = None) -> tuple[list[tuple[int, int]], int] | None:
    """Split a bracketed argument list starting at ``src[open_paren]``.

    Returns the (start, end) span of each top-level argument, stripped of surrounding
    whitespace and comments, and the offset just past the closing token; None when the
    brackets do not balance before the end of the input or a ``;`` at the top level.
    ``end_token`` lets the launch parser close on ``>>>`` instead of ``)``.

    Only the top level is tokenized: a nested bracket is stepped over to its closer, found
    by ``brackets`` (pass the one kept for ``src`` when splitting many lists of one file:
    then the work over all of them stays linear in the file, however unbalanced).
    """
    first = next_token(src, open_paren, skip_trivia=False)
    if first is None:
        return None
    if brackets is None:
        brackets = Brackets(src)
    args: list[tuple[int, int]] = []
    arg_start: int | None = None
    arg_end = 0
    closing = end_token or closer
    pos = first.end
    n = len(src)
    match = _TOKEN_RE.match
    after_name = False  # the last token was an identifier
    while pos < n:
        m = match(src, pos)
        pos = m.end()
        if m.lastgroup in TRIVIA:
            continue
        text = m.group()
        if text == b"<" and after_name:
            template_end = _template_arguments_end(src, pos)
            if template_end is not None:
                pos = arg_end = template_end  # (its commas do not split the list)
                continue
        after_name = m.lastgroup == "ident"
        if text == closing:
            if arg_start is not None:
                args.append((arg_start, arg_end))
            elif args:  # a trailing comma: an empty last argument
                args.append((m.start(), m.start()))
            return args, m.end()
        if text in _OPENERS:
            pos = brackets.close_end(m.start())
            if pos is None:
                return None  # a nested bracket never closes, so neither does this list
        elif text in (b")", b"]", b"}", b";"):
            return None  # closes more than was opened, or ends the statement
        elif text == b",":
            args.append((arg_start, arg_end) if arg_start is not None else (m.start(), m.start()))
            arg_start = None
            continue
        if arg_start is None:
            arg_start = m.start()
        arg_end = pos
    return None


def template_arguments(code: bytes, open_angle: int,
                       limit: int = 2000) -> list[tuple[int, int]] | None:
    """(start, end) of each top-level argument of the template argument list opening at
    ``code[open_angle] == '<'``, read a byte at a time over blanked code (comments and
    literals blanked); None when it does not close within ``limit`` bytes, or a ``;``,
    ``{`` or ``}`` ends the statement first."""
    depth, args, begin = 0, [], open_angle + 1
    for i in range(open_angle, min(len(code), open_angle + limit)):
        c = code[i]
        if c in b"<([":
            depth += 1
        elif c in b">)]":
            depth -= 1
            if depth == 0:
                args.append((begin, i))
                return args
        elif c == 0x2C and depth == 1:  # ","
            args.append((begin, i))
            begin = i + 1
        elif c in b";{}":
            return None
    return None


_TEMPLATE_ARGUMENT_LIMIT = 256
_TEMPLATE_ARGUMENT_TOKENS = frozenset({b"::", b",", b"*", b"&", b"<", b">", b">>"})


def _template_arguments_end(src: bytes, pos: int) -> int | None:
    """The offset past the ``>`` closing the template arguments that follow a name and
    a ``<`` ending before ``pos`` (``initRNG<A, B>`` passed as an argument), or None when
    the ``<`` is a comparison. Read as a template only if the brackets hold nothing but
    names, numbers, ``::``, ``*``, ``&`` and nested ``<...>``, and a ``(``, ``)`` or ``,``
    follows the ``>``: ``f(a < b, c > d)`` stays two comparisons. It reads at most
    ``_TEMPLATE_ARGUMENT_LIMIT`` tokens, so many ``<`` in one list stay linear."""
    depth = 1
    n = len(src)
    for _ in range(_TEMPLATE_ARGUMENT_LIMIT):
        if pos >= n:
            break
        m = _TOKEN_RE.match(src, pos)
        pos = m.end()
        if m.lastgroup in TRIVIA:
            continue
        text = m.group()
        if m.lastgroup not in ("ident", "number") and text not in _TEMPLATE_ARGUMENT_TOKENS:
            return None
        depth += {b"<": 1, b">": -1, b">>": -2}.get(text, 0)
        if depth < 0:
            return None
        if depth == 0:
            after = next_token(src, pos)
            return pos if after is not None and after.text in (b"(", b")", b",") else None
    return None


def call_arguments(src: bytes, pos: int, brackets: Brackets | None = None
                   ) -> tuple[list[tuple[int, int]], int] | None:
    """The argument spans of a parenthesised list that follows ``pos`` (after trivia),
    ``[]`` for ``()``, and the offset just past the ``)``; None if no list follows or it
    does not balance."""
    paren = next_token(src, pos)
    if paren is None or paren.text != b"(":
        return None
    parsed = split_arguments(src, paren.start, brackets=brackets)
    if parsed is None:
        return None
    args, close = parsed
    if len(args) == 1 and args[0][0] == args[0][1]:
        args = []
    return args, close


def split_top_level(text: str, opening: str = "([{", closing: str = ")]}") -> list[str]:
    """``text`` cut at the commas outside the brackets given (each part as written,
    blanks kept, the last one too): a parameter list, a PTX instruction's operands."""
    depth, start, parts = 0, 0, []
    for i, ch in enumerate(text):
        if ch in opening:
            depth += 1
        elif ch in closing:
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts
