"""Find inline PTX: ``asm("...")`` statements whose text is NVIDIA's virtual ISA.

No AMD GPU assembles PTX, and a compiler's syntax check never looks inside the string,
so both the translation report and ``cudaport verify`` find it lexically.
"""

from __future__ import annotations

import re

from . import lexer

PTX_MESSAGE = ("inline PTX assembly: AMD GPUs cannot assemble it; rewrite it with HIP "
               "intrinsics or portable C++")
_ASM = re.compile(rb"\b(?:asm|__asm__|__asm)\b\s*(?:(?:volatile|__volatile__|goto|inline)\s*)*\(")
_PTX = re.compile(
    rb"%%(?:laneid|warpid|smid|clock|globaltimer|tid|ntid|ctaid|lanemask)"
    rb"|\.(?:[usbf](?:8|16|32|64)|f16x2|bf16x2|pred|reg|global|shared|local|param|sync|"
    rb"aligned|approx|ftz|sat|rn|rz|rm|rp|relaxed|acquire|release|gpu|cta|sys)\b"
    rb"|\b(?:mov|ld|st|cvt|shfl|bar|vote|prmt|lop3|mma|ldmatrix|cp\.async)\.")


def inline_ptx(src: bytes) -> list[int]:
    """Offsets of the ``asm`` keyword of each statement whose template looks like PTX.

    A cheap regex finds candidates; only then is the file tokenized, so that ``asm(``
    inside comments and string literals is not taken for code.
    """
    if b"asm" not in src or _ASM.search(src) is None:
        return []
    found = []
    tokens = [t for t in lexer.tokenize(src) if t.kind not in lexer.TRIVIA]
    for i, tok in enumerate(tokens):
        if tok.kind != "ident" or tok.text not in (b"asm", b"__asm__", b"__asm"):
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].text in (b"volatile", b"__volatile__", b"goto",
                                                      b"inline"):
            j += 1
        if j >= len(tokens) or tokens[j].text != b"(":
            continue
        j += 1
        text = b""
        while j < len(tokens) and tokens[j].kind == "string":
            text += tokens[j].text
            j += 1
        if _PTX.search(text):
            found.append(tok.start)
    return found
