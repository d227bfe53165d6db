"""Read inline assembly and tell NVIDIA PTX from AMD GCN/CDNA assembly by its instructions.

No AMD GPU assembles PTX, and a compiler's syntax check never looks inside the string,
so both the translation report and ``cudaport verify`` find it lexically. But HIP code has
assembly of its own (ROCm/aiter: ``s_waitcnt``, ``v_pk_mul_f32``, ``ds_bpermute_b32``),
symbol aliases of LLVM's AMD intrinsics (``__asm("llvm.amdgcn.raw.buffer.load.v4i32")``)
and empty compiler barriers (``asm volatile("" : "+v"(x))``): none of those is PTX.

:func:`read_asm` parses one statement (template pieces, operand constraints, whether it is
a declaration's symbol label) and :func:`dialect` classifies it from its instructions:

- ``ptx``: an instruction is PTX (``mov.u32``, ``ld.global.nc.v4.f32``, ``.reg .pred p;``,
  ``%%laneid``);
- ``amdgcn``: every instruction is an AMD GPU one (``s_*``, ``v_*``, ``ds_*``,
  ``buffer_*``, ``global_*``, ``flat_*``, ``scratch_*``, ``image_*``), or the statement is
  a symbol label naming an LLVM AMDGPU intrinsic;
- ``barrier``: no instruction at all (an empty template: it only constrains the
  optimiser); it compiles for AMD when its constraints do (:func:`amd_constraints`);
- ``label``: a declaration's symbol label (``void f() __asm("my_f");``), not assembly;
- ``unknown``: anything else (``nop``, ``RDTSC``, a template built by a macro).
"""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple

from ..source import lexer
from ..source.lazy_re import lazy

PTX_MESSAGE = ("inline PTX assembly: AMD GPUs cannot assemble it; rewrite it with HIP "
               "intrinsics or portable C++")
_ASM = lazy(rb"(?:__asm__|__asm|asm)(?![\w$])\s*(?:(?:volatile|__volatile__|goto|inline)\s*)*\(")
_QUALIFIERS = (b"volatile", b"__volatile__", b"goto", b"inline")
# PTX spellings no other assembly uses: special registers, type and state-space suffixes,
# and the instructions that always carry a suffix.
_PTX = lazy(
    rb"%%(?:laneid|warpid|smid|clock|globaltimer|tid|ntid|ctaid|lanemask)"
    rb"|\.(?:[usbf](?:8|16|32|64)|f16x2|bf16x2|pred|reg|global|shared|local|param|sync|"
    rb"aligned|approx|ftz|sat|rn|rz|rm|rp|relaxed|acquire|release|gpu|cta|sys)\b"
    rb"|\b(?:ld|st|cvt|shfl|bar|vote|prmt|lop3|mma|ldmatrix|cp\.async)\."
    rb"|\bmov\.(?:[usbf](?:8|16|32|64)|b128|f16x2|bf16x2|pred)\b")
# PTX instruction names (PTX ISA 9.0, "Instructions"); a PTX mnemonic is one of these,
# maybe followed by ``.suffix``es. None has an underscore before its first dot.
_PTX_OPCODES = frozenset(b"""
abs activemask add addc alloca and applypriority atom bar barrier bfe bfi bfind bmsk bra
brev brkpt brx call clusterlaunchcontrol clz cnot copysign cos cp createpolicy cvt cvta
discard div dp2a dp4a elect ex2 exit fence fma fns getctarank griddepcontrol isspacep
istypep ld ldmatrix ldu lg2 lop3 mad mad24 madc mapa match max mbarrier membar min mma
mov movmatrix mul mul24 multimem nanosleep neg not or pmevent popc prefetch prefetchu prmt
rcp red redux rem ret rsqrt sad selp set setmaxnreg setp shf shfl shl shr sin slct sqrt st
stackrestore stacksave stmatrix sub subc suld suq sured sust szext tanh tcgen05 tensormap
testp tex tld4 trap txq vabsdiff vadd vote vshl wgmma wmma xor
""".split())
_PTX_BARE = frozenset((b"trap", b"exit", b"ret", b"brkpt", b"pmevent"))  # no suffix needed
# AMD GPU (GCN, CDNA, RDNA) instruction names: an encoding prefix and an underscore
# (LLVM's AMDGPU assembler: SOP*/VOP*/DS/MUBUF/MTBUF/FLAT/GLOBAL/SCRATCH/MIMG).
_AMD_MNEMONIC = lazy(rb"(?:s|v|ds|buffer|tbuffer|global|flat|scratch|image)_[a-z0-9_]+\Z")
_MNEMONIC = lazy(rb"[A-Za-z_.][\w.$]*")
_LABEL = lazy(rb"[A-Za-z_.$][\w.$]*:(?!:)")  # (not PTX's `mbarrier::complete_tx`)
# What an empty template may hold: blanks, escapes of them, and comments.
_EMPTY = lazy(rb"(?:\s|\\[ntr]|//[^\n]*|/\*.*?\*/)*\Z", re.S)
_PREDICATE = lazy(rb"@!?%?\w+\s*")
_SYMBOL = lazy(rb"\s*[A-Za-z_.$][\w.$]*\s*\Z")
_LAST_WORD = lazy(rb"[A-Za-z_$][\w$]*\Z")
_STATEMENT_HEADS = frozenset((b"if", b"while", b"for", b"switch", b"catch"))
_STATEMENT_WORDS = frozenset((b"else", b"do", b"return", b"volatile", b"__volatile__"))
# LLVM's AMDGPU intrinsics, reachable from C++ as a function declared with this symbol.
AMD_INTRINSIC_PREFIX = b"llvm.amdgcn."
# Constraint letters only NVPTX has (register classes of 16/64-bit ints, floats,
# doubles, bytes): clang rejects them for AMD GPUs (checked with ROCm 7.2's hipcc: "+l",
# "+f", "+h", "+d" are "invalid output constraint"; "+v", "+s", "+a", "+r" compile).
NVPTX_ONLY_CONSTRAINTS = frozenset(b"lfhdc")


class Asm(NamedTuple):
    offset: int  # the asm keyword
    template: bytes  # the string pieces joined (escapes as written)
    opaque: bool  # part of the template is not a string literal (a macro)
    constraints: tuple[bytes, ...]  # of the output and input operands
    label: bool  # a declaration's symbol label, not a statement


def _string_value(token: bytes) -> bytes:
    """The characters of a string literal token (prefixes and quotes removed)."""
    quote = token.find(b'"')
    if token[:quote].endswith(b"R"):
        open_paren = token.find(b"(", quote)
        return token[open_paren + 1:token.rfind(b")")]
    return token[quote + 1:-1] if token.endswith(b'"') else token[quote + 1:]


def read_asm(src: bytes, offset: int, brackets: lexer.Brackets | None = None) -> Asm | None:
    """The asm statement or label whose keyword is at ``offset``; None if no ``(`` follows."""
    tok = lexer.next_token(src, lexer.next_token(src, offset).end)
    qualified = False
    while tok is not None and tok.text in _QUALIFIERS:
        qualified = True
        tok = lexer.next_token(src, tok.end)
    if tok is None or tok.text != b"(":
        return None
    brackets = brackets or lexer.Brackets(src)
    close = brackets.close_end(tok.start)
    end = close - 1 if close is not None and close > 0 else len(src)
    pieces, opaque, constraints, section = [], False, [], 0
    pos = tok.end
    last = None  # the previous token in an operand section
    while pos < end:
        tok = lexer.next_token(src, pos)
        if tok is None or tok.start >= end:
            break
        pos = tok.end
        if tok.text == b"(":
            if section in (1, 2) and last is not None and last.kind == "string":
                constraints.append(_string_value(last.text))
            pos = brackets.close_end(tok.start) or end
        elif tok.text == b":" or tok.text == b"::":
            section += len(tok.text)
        elif section == 0:
            if tok.kind == "string":
                pieces.append(_string_value(tok.text))
            else:
                opaque = True
        last = tok
    template = b"".join(pieces)
    label = (not qualified and section == 0 and not opaque
             and _SYMBOL.match(template) is not None and _after_declarator(src, offset))
    return Asm(offset, template, opaque, tuple(constraints), label)


def _after_declarator(src: bytes, offset: int) -> bool:
    """``int f(int) asm("sym")``, ``int v asm("sym")``: the asm follows a declarator (a
    parameter list that is no statement's condition, or a name), not a statement."""
    before = src[max(0, offset - 4096):offset]
    code = lexer.blank_comments_and_literals(before).rstrip()
    if code.endswith(b")"):
        depth = 0
        for i in range(len(code) - 1, -1, -1):
            depth += {0x29: 1, 0x28: -1}.get(code[i], 0)
            if depth == 0:
                code = code[:i].rstrip()
                break
        else:
            return False
        word = _LAST_WORD.search(code)
        return word is not None and word.group() not in _STATEMENT_HEADS
    word = _LAST_WORD.search(code)
    return word is not None and word.group() not in _STATEMENT_WORDS


def _instructions(template: bytes) -> list[bytes]:
    """The mnemonics of the template's instructions (labels, predicates, braces and
    comments stripped; ``;`` ends a PTX instruction and begins an AMD comment, so each
    instruction's first word is read from each piece)."""
    text = template.replace(b"\\n", b"\n").replace(b"\\t", b" ")
    out = []
    for line in re.split(rb"[\n;]", text):
        line = line.split(b"//", 1)[0].strip().strip(b"{} \t")
        while True:
            label = _LABEL.match(line)
            if label is None:
                break
            line = line[label.end():].lstrip()
        predicate = _PREDICATE.match(line)
        if predicate is not None:
            line = line[predicate.end():]
        m = _MNEMONIC.match(line)
        if m is not None:
            out.append(m.group())
    return out


def is_ptx_mnemonic(mnemonic: bytes) -> bool:
    """Whether a mnemonic is a PTX instruction's name (with its suffixes)."""
    return _is_ptx(mnemonic)


# (PTX's mov takes a type and nothing else: `mov.m.x` is another assembly's, such as the
# RISC-V vector extension of ggml's ET backend)
_MOV_TYPES = lazy(rb"mov\.(?:[usbf](?:8|16|32|64)|b128|f16x2|bf16x2|pred)\Z")


def _is_ptx(mnemonic: bytes) -> bool:
    head, dot, _ = mnemonic.partition(b".")
    if head == b"mov" and dot:
        return _MOV_TYPES.match(mnemonic) is not None
    return head in _PTX_OPCODES and (bool(dot) or head in _PTX_BARE)


def dialect(asm: Asm) -> str:
    """``ptx``, ``amdgcn``, ``barrier``, ``label`` or ``unknown`` (see the module doc)."""
    if asm.label:
        return "amdgcn" if asm.template.strip().startswith(AMD_INTRINSIC_PREFIX) else "label"
    if _PTX.search(asm.template):
        return "ptx"
    mnemonics = _instructions(asm.template)
    if any(_is_ptx(m) for m in mnemonics):
        return "ptx"
    # (assembler directives such as .p2align are neither's alone; a piece of the template
    # that a macro supplies may be a mnemonic, so only a template whose own instructions
    # are all AMD ones counts as AMD's)
    kinds = {"amd" if _AMD_MNEMONIC.match(m) else "directive" if m.startswith(b".")
             else "other" for m in mnemonics}
    if "other" in kinds:
        return "unknown"
    if "amd" in kinds:
        return "amdgcn"
    # (only an empty template is a barrier: `%0 = dmpoll` is some other assembly)
    return "barrier" if not asm.opaque and _EMPTY.match(asm.template) else "unknown"


def amd_constraints(asm: Asm) -> bool:
    """Whether AMD's compiler accepts every operand constraint (no NVPTX-only class)."""
    return not any(set(c) & NVPTX_ONLY_CONSTRAINTS for c in asm.constraints)


def asm_statements(src: bytes) -> list[Asm]:
    """Every asm statement or label of ``src`` in code (not in comments or strings)."""
    if b"asm" not in src:
        return []
    candidates = [m.start() for m in _ASM.finditer(src)
                  if m.start() == 0 or not (src[m.start() - 1:m.start()].isalnum()
                                            or src[m.start() - 1:m.start()] in (b"_", b"$"))]
    if not candidates:
        return []
    spans = lexer.literal_spans(src)
    starts = [a for a, _ in spans]
    brackets = lexer.Brackets(src)
    found = []
    for offset in candidates:
        i = bisect.bisect_right(starts, offset) - 1
        if i >= 0 and spans[i][0] <= offset < spans[i][1]:
            continue  # in a comment or string
        asm = read_asm(src, offset, brackets)
        if asm is not None:
            found.append(asm)
    return found


def inline_ptx(src: bytes) -> list[int]:
    """Offsets of the ``asm`` keyword of each statement whose template is PTX."""
    return [a.offset for a in asm_statements(src) if dialect(a) == "ptx"]


# ---------------------------------------------------------------------------------------
# Parsing an asm statement: its template, operands and the PTX instructions in it.

class AsmOperand(NamedTuple):
    constraint: str  # as written: "=r", "+l", "r", "n"
    expr: bytes  # the C expression between the parentheses
    name: str  # the [name] given, else ""
    span: tuple[int, int] = (0, 0)  # where expr is in the source

    @property
    def kind(self) -> str:
        """The register class: r (32-bit), l (64-bit), h (16-bit), f, d, n (immediate)."""
        return self.constraint.lstrip("=+&")[:1]

    @property
    def written(self) -> bool:
        return self.constraint.startswith(("=", "+"))

    @property
    def read(self) -> bool:
        return not self.constraint.startswith("=")


class AsmStatement(NamedTuple):
    start: int  # the asm keyword
    end: int  # just past the closing parenthesis
    template: str | None  # the text of the string literals; None when not all literals
    extended: bool  # has a ':' section (so % is special in the template)
    operands: tuple[AsmOperand, ...]  # outputs, then inputs
    clobbers: tuple[str, ...]
    why_not: str  # why the statement could not be read (when template is None)


class Instruction(NamedTuple):
    text: str  # as written, for messages
    predicate: str  # "@p" or ""
    opcode: str  # "ld.global.nc.v4.u32"
    operands: tuple[str, ...]  # "$0", "[$1+8]", "{$0, $1}", "%laneid", "0x1f", "t1"


class RegDecl(NamedTuple):
    ptx_type: str
    names: tuple[str, ...]


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "0": "\0",
            "a": "\a", "v": "\v", "f": "\f", "?": "?"}


def parse_statement(src: bytes, start: int, brackets: lexer.Brackets | None = None
                    ) -> AsmStatement | None:
    """The asm statement whose keyword is at ``start``; None when no ``(`` follows or the
    parentheses do not close."""
    tok = lexer.next_token(src, start)
    if tok is None:
        return None
    tok = lexer.next_token(src, tok.end)
    while tok is not None and tok.text in _QUALIFIERS:
        tok = lexer.next_token(src, tok.end)
    if tok is None or tok.text != b"(":
        return None
    brackets = brackets or lexer.Brackets(src)
    end = brackets.close_end(tok.start)
    if end is None:
        return None
    pos = tok.end
    sections: list[list[tuple[int, int]]] = [[]]  # token spans per ':' section
    depth = 0
    for t in lexer.tokenize(src, pos, end - 1):
        if t.kind in lexer.TRIVIA:
            continue
        if t.kind in ("directive", "include"):
            return AsmStatement(start, end, None, False, (), (), "a directive inside it")
        if t.text in (b"#", b"##", b"%:", b"%:%:"):
            # (not C++ outside a macro body; a rewrite would move it to a line's start,
            # where the next pass reads it as a directive: bench/fuzz.py's fourth run)
            return AsmStatement(start, end, None, False, (), (), "a '#' outside its strings")
        if depth == 0 and t.text in (b":", b"::"):
            sections.extend([] for _ in range(len(t.text)))
            continue
        if t.text in (b"(", b"[", b"{"):
            depth += 1
        elif t.text in (b")", b"]", b"}"):
            depth -= 1
        sections[-1].append((t.start, t.end))
    template, why = _template(src, sections[0])
    if template is None:
        return AsmStatement(start, end, None, len(sections) > 1, (), (), why)
    operands: list[AsmOperand] = []
    for section in sections[1:3]:
        for item in _split_commas(src, section):
            operand = _operand(src, item)
            if operand is None:
                return AsmStatement(start, end, None, True, (), (), "an operand it cannot read")
            operands.append(operand)
    clobbers = tuple(_unquote(src[a:b]) for section in sections[3:4]
                     for item in _split_commas(src, section) for a, b in item)
    return AsmStatement(start, end, template, len(sections) > 1, tuple(operands), clobbers, "")


def _template(src: bytes, spans: list[tuple[int, int]]) -> tuple[str | None, str]:
    text = []
    for a, b in spans:
        literal = src[a:b]
        if not literal.startswith(b'"'):
            if literal[:1].isalpha() or literal[:1] == b"_":
                return None, f"its text is built with {literal.decode(errors='replace')}"
            return None, "its text is not a string literal"
        text.append(_unquote(literal))
    if not text:
        return None, "it has no text"
    return "".join(text), ""


def _unquote(literal: bytes) -> str:
    body = literal.decode("latin-1")[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


def _split_commas(src: bytes, spans: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    items: list[list[tuple[int, int]]] = [[]]
    depth = 0
    for a, b in spans:
        t = src[a:b]
        if t in (b"(", b"[", b"{"):
            depth += 1
        elif t in (b")", b"]", b"}"):
            depth -= 1
        elif t == b"," and depth == 0:
            items.append([])
            continue
        items[-1].append((a, b))
    return [item for item in items if item]


def _operand(src: bytes, item: list[tuple[int, int]]) -> AsmOperand | None:
    name = ""
    i = 0
    if src[item[0][0]:item[0][1]] == b"[":
        if len(item) < 3:
            return None
        name = src[item[1][0]:item[1][1]].decode("latin-1")
        i = 3
    if i >= len(item) or not src[item[i][0]:item[i][1]].startswith(b'"'):
        return None
    constraint = _unquote(src[item[i][0]:item[i][1]])
    rest = item[i + 1:]
    if len(rest) < 2 or src[rest[0][0]:rest[0][1]] != b"(" or src[rest[-1][0]:rest[-1][1]] != b")":
        return None
    if len(rest) == 2:
        return None  # "r"() holds no expression
    a, b = rest[1][0], rest[-2][1]
    return AsmOperand(constraint, src[a:b], name, (a, b))


_COMMENT = lazy(r"//[^\n]*|/\*.*?\*/", re.S)
_OPERAND_REF = lazy(r"%(?:(\d+)|\[(\w+)\]|(%))")


def instructions(stmt: AsmStatement) -> tuple[list[RegDecl], list[Instruction]] | str:
    """The template's ``.reg`` declarations and instructions, with operand references
    written ``$N``; or a string saying what in it cannot be read (a label, a directive)."""
    text = stmt.template or ""
    if stmt.extended:
        names = {op.name: i for i, op in enumerate(stmt.operands) if op.name}

        def ref(m: re.Match[str]) -> str:
            if m.group(3):
                return "%"
            if m.group(2) is not None:
                if m.group(2) not in names:
                    return "\0"
                return f"${names[m.group(2)]}"
            return f"${m.group(1)}"

        text = _OPERAND_REF.sub(ref, text)
        if "\0" in text:
            return "an operand name it does not declare"
    text = _COMMENT.sub(" ", text)
    regs: list[RegDecl] = []
    found: list[Instruction] = []
    for piece in text.split(";"):
        piece = piece.strip()
        while piece.startswith(("{", "}")):  # (scope braces; a vector operand follows an opcode)
            piece = piece[1:].strip()
        if not piece:
            continue
        if piece.startswith(".reg"):
            m = re.fullmatch(r"\.reg\s*\.(\w+)\s+(.+)", piece, re.S)
            if m is None:
                return f"the declaration '{piece}'"
            names_ = tuple(n.strip() for n in m.group(2).split(","))
            if not all(re.fullmatch(r"[A-Za-z_]\w*", n) for n in names_):
                return f"the declaration '{piece}'"
            regs.append(RegDecl(m.group(1), names_))
            continue
        if piece.startswith(".") or re.match(r"[\w$]+\s*:", piece):
            return f"'{piece.split()[0]}'"
        predicate = ""
        if piece.startswith("@"):
            predicate, _, piece = piece.partition(" ")
            piece = piece.strip()
        opcode, rest = (piece.split(None, 1) + [""])[:2]
        found.append(Instruction(" ".join(piece.split()), predicate, opcode,
                                 tuple(_split_ptx_operands(rest.strip()))))
    return regs, found


def _split_ptx_operands(text: str) -> list[str]:
    return [part.strip() for part in lexer.split_top_level(text, "{[", "}]") if part.strip()]
