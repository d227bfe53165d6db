"""Source encodings whose two-byte characters may end in an ASCII byte.

In GBK/GB18030, Big5 and Shift-JIS the second byte of a character can be 0x5C, the
backslash (Shift-JIS's 表 is 0x95 0x5C). Read byte by byte, that byte would escape the
closing quote of a string or continue a ``//`` comment onto the next line, hiding code
from the translation. A compiler reading the file in its own encoding sees no backslash.

So such files are lexed through a *mask*: a copy of the same length in which every
second byte that is a backslash or a quote is replaced by a placeholder byte the file
does not contain (a control byte, inert to the lexer). The passes run on the mask; the
output and edits are turned back with one ``bytes.translate``, so the result is
byte-exact. The second bytes of these encodings are never quotes in practice, but a
quote is masked the same way should an encoding have one.

Detection (``encoding="auto"``) costs one regex search on most files: only text with a
byte above 0x80 right before a backslash or quote can need a mask. Such text that is
valid UTF-8, or starts with a UTF-8 byte order mark, is UTF-8; otherwise the first of
GB18030, Big5 and Shift-JIS that decodes the whole file strictly is taken. Latin-1 text
rarely decodes strictly as any of them; when it does (a lone ``é\\`` in a file),
``--encoding latin-1`` says what the file is.
"""

from __future__ import annotations

import codecs
import re
from .lazy_re import lazy

AUTO = "auto"
AUTO_ORDER = ("gb18030", "big5", "shift_jis")
_LEAD = rb"[\x81-\xfe]"
# Each character of two or more bytes, by encoding family (lead byte, trail byte ranges).
_CHARACTERS = {
    "gb18030": re.compile(_LEAD + rb"[\x30-\x39]" + _LEAD + rb"[\x30-\x39]|"
                          + _LEAD + rb"[\x40-\x7e\x80-\xfe]"),
    "gbk": re.compile(_LEAD + rb"[\x40-\x7e\x80-\xfe]"),
    "big5": re.compile(_LEAD + rb"[\x40-\x7e\xa1-\xfe]"),
    "shift_jis": re.compile(rb"[\x81-\x9f\xe0-\xfc][\x40-\x7e\x80-\xfc]"),
}
_FAMILY = {"gb18030": "gb18030", "gbk": "gbk", "gb2312": "gbk", "big5": "big5",
           "big5hkscs": "big5", "cp950": "big5", "shift_jis": "shift_jis",
           "cp932": "shift_jis", "shift_jis_2004": "shift_jis", "shift_jisx0213": "shift_jis"}
_RISKY = lazy(rb"[\x81-\xfe][\\\"']")
_MASKED = b"\\\"'"
# Placeholders, in order of preference: control bytes no source file has any use for,
# then bytes above 0x7e (the lexer never reads those either).
_PLACEHOLDERS = bytes([*range(1, 9), *range(14, 32), *range(127, 256)])


def check_name(name: str) -> str:
    """``name`` as Python spells the codec (``cp936`` -> ``gbk``); ValueError if unknown."""
    if name == AUTO:
        return name
    try:
        return codecs.lookup(name).name
    except LookupError:
        raise ValueError(f"unknown encoding {name!r} (try auto, utf-8, gbk, gb18030, "
                         "big5, shift_jis or latin-1)") from None


def detect(src: bytes) -> str | None:
    """The multibyte encoding ``src`` needs a mask for, or None (ASCII, UTF-8, other)."""
    if src.isascii() or src.startswith(codecs.BOM_UTF8) or _RISKY.search(src) is None:
        return None  # (a UTF-8 byte order mark says what the file is, even if a byte
        # after it is not UTF-8: its three bytes would otherwise be read as GB18030
        # characters with the first byte of the text, and a header inserted before
        # that text, in the first run, would change the second run's answer)
    try:
        src.decode("utf-8")
        return None
    except UnicodeDecodeError:
        pass
    for name in AUTO_ORDER:
        try:
            src.decode(name)
            return name
        except UnicodeDecodeError:
            continue
    return None


def mask(src: bytes, encoding: str = AUTO) -> tuple[bytes, bytes | None]:
    """(text to lex, table that turns lexed bytes back into the file's); the table is
    None when the text is ``src`` itself."""
    name = detect(src) if encoding == AUTO else check_name(encoding)
    family = _FAMILY.get(name or "")
    if family is None or _RISKY.search(src) is None:
        return src, None
    masked = bytearray(src)
    used: dict[int, int] = {}  # masked byte -> its placeholder
    free = iter(b for b in _PLACEHOLDERS if src.find(bytes([b])) < 0)
    for m in _CHARACTERS[family].finditer(src):
        trail = m.end() - 1
        byte = src[trail]
        if byte in _MASKED:
            if byte not in used:
                placeholder = next(free, None)
                if placeholder is None:
                    return src, None  # every placeholder occurs in the file: lex as bytes
                used[byte] = placeholder
            masked[trail] = used[byte]
    if not used:
        return src, None
    return bytes(masked), bytes.maketrans(bytes(used.values()), bytes(used.keys()))
