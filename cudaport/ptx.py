"""Find inline PTX: ``asm("...")`` statements whose text is NVIDIA's virtual ISA.

No AMD GPU assembles PTX, and a compiler's syntax check never looks inside the string,
so both the translation report and ``cudaport verify`` find it lexically.
"""

from __future__ import annotations

import bisect
import re

from . import lexer

PTX_MESSAGE = ("inline PTX assembly: AMD GPUs cannot assemble it; rewrite it with HIP "
               "intrinsics or portable C++")
_ASM = re.compile(rb"(?:__asm__|__asm|asm)(?![\w$])\s*(?:(?:volatile|__volatile__|goto|inline)\s*)*\(")
_PTX = re.compile(
    rb"%%(?:laneid|warpid|smid|clock|globaltimer|tid|ntid|ctaid|lanemask)"
    rb"|\.(?:[usbf](?:8|16|32|64)|f16x2|bf16x2|pred|reg|global|shared|local|param|sync|"
    rb"aligned|approx|ftz|sat|rn|rz|rm|rp|relaxed|acquire|release|gpu|cta|sys)\b"
    rb"|\b(?:mov|ld|st|cvt|shfl|bar|vote|prmt|lop3|mma|ldmatrix|cp\.async)\.")


def inline_ptx(src: bytes) -> list[int]:
    """Offsets of the ``asm`` keyword of each statement whose template looks like PTX.

    A cheap regex finds candidates; those inside comments or string literals are dropped,
    and only the tokens right after a real one are read.
    """
    if b"asm" not in src:
        return []
    candidates = [m.start() for m in _ASM.finditer(src)
                  if m.start() == 0 or not (src[m.start() - 1:m.start()].isalnum()
                                            or src[m.start() - 1:m.start()] in (b"_", b"$"))]
    if not candidates:
        return []
    spans = lexer.literal_spans(src)
    starts = [a for a, _ in spans]
    found = []
    for offset in candidates:
        i = bisect.bisect_right(starts, offset) - 1
        if i >= 0 and spans[i][0] <= offset < spans[i][1]:
            continue  # in a comment or string
        tok = lexer.next_token(src, offset)
        pos = tok.end
        tok = lexer.next_token(src, pos)
        while tok is not None and tok.text in (b"volatile", b"__volatile__", b"goto", b"inline"):
            tok = lexer.next_token(src, tok.end)
        if tok is None or tok.text != b"(":
            continue
        text = b""
        tok = lexer.next_token(src, tok.end)
        while tok is not None and tok.kind == "string":
            text += tok.text
            tok = lexer.next_token(src, tok.end)
        if _PTX.search(text):
            found.append(offset)
    return found
