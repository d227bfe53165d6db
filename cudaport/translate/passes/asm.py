"""Inline PTX with a HIP meaning is rewritten; the rest is reported (CP210) by the
instruction that blocks it.

An ``asm`` statement is read into its template, operands and instructions
(:mod:`cudaport.translate.ptx`); it is rewritten only when every instruction in it has a HIP form,
and the rewrite computes what the statement computes: operands are read and written
bit for bit (``__builtin_bit_cast``, as the asm moves register bits), inputs are read
before any output is written, and a statement of several instructions keeps its
registers in locals. Forms come from the target's ``ports/asm/ptx.yaml`` (names, scopes,
caveats; not a rule pack) and the families below (loads, stores, atomics, fences, prmt, lop3, shfl,
bar.sync, cp.async). A form with a caveat (precision, lost overlap, another clock) is a
warning (CP230) that says it; an exact one is information.
"""

from __future__ import annotations

import functools
import os
import re

from .. import ptx
from ...rules.schema import loader, yaml
from ..context import FileContext
from ...source.edits import Edit
from .registry import register
from ...source.lazy_re import lazy

_ASM_WORDS = (b"asm", b"__asm", b"__asm__")
_HOST_SOURCES = (".c", ".cpp", ".cc", ".cxx", ".c++")

_C_TYPES = {"u8": "unsigned char", "s8": "signed char", "b8": "unsigned char",
            "u16": "unsigned short", "s16": "short", "b16": "unsigned short",
            "f16": "unsigned short", "bf16": "unsigned short",
            "u32": "unsigned int", "s32": "int", "b32": "unsigned int", "f32": "float",
            "u64": "unsigned long long", "s64": "long long", "b64": "unsigned long long",
            "f64": "double"}
_BITS = {"u8": 8, "s8": 8, "b8": 8, "u16": 16, "s16": 16, "b16": 16, "f16": 16, "bf16": 16,
         "u32": 32, "s32": 32, "b32": 32, "f32": 32, "u64": 64, "s64": 64, "b64": 64,
         "f64": 64}
# The C type a register of each constraint class holds (its bits).
_REGISTER = {"r": "unsigned int", "l": "unsigned long long", "h": "unsigned short",
             "f": "float", "d": "double"}
_REGISTER_BITS = {"r": 32, "l": 64, "h": 16, "f": 32, "d": 64}
_ORDERS = {"relaxed": "__ATOMIC_RELAXED", "acquire": "__ATOMIC_ACQUIRE",
           "release": "__ATOMIC_RELEASE", "acq_rel": "__ATOMIC_ACQ_REL"}
_SPACES = frozenset(("global", "shared", "shared::cta"))
_CACHE_HINTS = lazy(r"(?:ca|cg|cs|lu|wb|wt|nc|L1::no_allocate|L1::evict_\w+|"
                    r"L2::evict_\w+|L2::(?:64|128|256)B)\Z")
_INT = lazy(r"-?(?:0[xX][0-9a-fA-F]+|\d+)[uU]?\Z")
_DECIMAL = lazy(r"-?(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|-?\d+[eE][+-]?\d+")
_IMPURE = lazy(rb"\+\+|--|(?<![=!<>])=(?!=)|[+\-*/%&|^]=|<<=|>>=")
_OPERAND = lazy(r"\$(\d+)")
_SIMPLE = lazy(rb"[A-Za-z_]\w*(?:(?:\.|->)[A-Za-z_]\w*|\[\w+\])*")


class _NoForm(Exception):
    """An instruction without a HIP form; the message names what blocks it."""


@functools.cache
def _ports(rule_file: str) -> dict:
    path = os.path.join(os.path.dirname(rule_file), "ports", "asm", "ptx.yaml")
    try:
        with open(path, encoding="utf-8") as fh:
            return yaml.load(fh, Loader=loader()) or {}  # (C loader: 0.5 s less per run)
    except OSError:
        return {}


@register(45, "asm")
def asm(ctx: FileContext) -> None:
    if not ctx.options.hazards:
        return
    starts = [start for start, word in ctx.scan.marks if word in _ASM_WORDS]
    if not starts:
        return
    # nvcc hands a C or C++ source to the host compiler: its assembly, in a file with no
    # device code, is the CPU's (cavazos-lab/PolyBench-ACC's polybench.c: RDTSC), not PTX.
    if not ctx.uses_device and ctx.path.endswith(_HOST_SOURCES):
        return
    ports = _ports(ctx.compiled.table.files[0])
    title = ctx.compiled.target.title
    for start in dict.fromkeys(starts):
        # (the hazard pass reports assembly that is not PTX; cudaport/translate/ptx.py tells which)
        read = ctx.read_asm(start)
        if read is None or ptx.dialect(read) != "ptx":
            continue
        stmt = ptx.parse_statement(ctx.src, start, ctx.brackets)
        if stmt is None:
            continue
        if not ctx.uses_device and not _all_ptx_opcodes(stmt):
            continue  # (a file without device code: another processor's assembly)
        if stmt.template is not None:
            outcome = _port(stmt, ports) if ports else "the target has no PTX forms"
        else:
            outcome = f"{stmt.why_not}, which cudaport cannot read"
        if isinstance(outcome, str):
            outcome = outcome.replace(_TARGET, title)
            ctx.find("CP210", start, f"inline assembly (PTX) does not assemble for {title}: "
                     f"{outcome}; replace it with an intrinsic", "asm", "", "error")
            continue
        parts, caveats, shown = outcome
        ctx.edits.append(Edit(stmt.start, stmt.end, parts, f"{ctx.compiled.target.name}/asm"))
        message = f"inline PTX ({shown}) rewritten for {title}"
        if caveats:
            ctx.find("CP230", start, f"{message}; {'; '.join(dict.fromkeys(caveats))}",
                     "asm", "", "warning")
        else:
            ctx.find("CP230", start, f"{message}: same result", "asm", "", "info")


def port_outcome(ctx: FileContext, start: int) -> tuple[str, str] | None:
    """What the target makes of the inline PTX whose ``asm`` keyword is at ``start``, as
    :func:`asm` decides it: ("yes", mnemonics) where it has an exact form, ("differs",
    caveats) where the form has a caveat, ("no", why) where it has none; None when the
    statement is not PTX (the target's own assembly, an empty barrier)."""
    read = ctx.read_asm(start)
    if read is None or ptx.dialect(read) != "ptx":
        return None
    stmt = ptx.parse_statement(ctx.src, start, ctx.brackets)
    if stmt is None:
        return None
    ports = _ports(ctx.compiled.table.files[0])
    title = ctx.compiled.target.title
    if stmt.template is None:
        return "no", f"{stmt.why_not}, which cudaport cannot read"
    outcome = _port(stmt, ports) if ports else "the target has no PTX forms"
    if isinstance(outcome, str):
        return "no", outcome.replace(_TARGET, title)
    _parts_, caveats, shown = outcome
    return ("differs", "; ".join(dict.fromkeys(caveats))) if caveats else ("yes", shown)


# The pipeline primitives, which the rules rename to the portable header's synchronous copy.
_PIPELINE = frozenset((b"__pipeline_memcpy_async", b"__pipeline_commit", b"__pipeline_wait_prior"))


@register(46, "async-copy")
def async_copy(ctx: FileContext) -> None:
    """CP231 where a pipeline primitive is used: the rules make the copy synchronous."""
    if ctx.names.isdisjoint(_PIPELINE):
        return
    caveat = (_ports(ctx.compiled.table.files[0]).get("async_copy") or {}).get("pipeline")
    if not caveat:
        return
    for start, name, where in ctx.scan.idents:
        if where == "code" and name in _PIPELINE:
            ctx.find("CP231", start, f"{name.decode()}: {caveat}", name.decode(), "device")


def _all_ptx_opcodes(stmt: ptx.AsmStatement) -> bool:
    """Whether every instruction of the statement is named like a PTX one (ggml's ET-SoC
    headers have no device code and RISC-V extensions such as ``mova.x.m`` and
    ``fbcx.ps`` beside a ``mov.m.x`` that looks like PTX)."""
    parsed = ptx.instructions(stmt) if stmt.template is not None else "opaque"
    if isinstance(parsed, str):
        return True  # (cannot tell: reported, as before)
    return all(ptx.is_ptx_mnemonic(i.opcode.encode()) and _typed(i.opcode)
               for i in parsed[1])


def _typed(opcode: str) -> bool:
    """mov, ld, st and cvt always name a PTX type (``mov.b32``); ``mov.m.x`` does not."""
    op, _, types = _parts(opcode)
    return op not in ("mov", "ld", "st", "cvt") or bool(types)


def _port(stmt: ptx.AsmStatement, ports: dict) -> tuple[tuple, list[str], str] | str:
    """The rewrite of a statement as edit parts, its caveats and its mnemonics; or why
    there is none."""
    parsed = ptx.instructions(stmt)
    if isinstance(parsed, str):
        return f"{parsed} has no {_TARGET} form"
    regs, found = parsed
    if not found:
        return "it holds no instruction"
    for i, op in enumerate(stmt.operands):
        if op.kind not in _REGISTER and op.kind not in "ni":
            return f"operand {i} has the constraint \"{op.constraint}\", which has no {_TARGET} form"
    gen = _Gen(stmt, ports, regs, found)
    try:
        for ins in found:
            _instruction(gen, ins)
    except _NoForm as e:
        return str(e)
    return gen.parts(), gen.caveats, ", ".join(dict.fromkeys(i.opcode for i in found))


_TARGET = "\x03"  # the target's title, put in by the pass


class _Gen:
    """Builds the C++ for one statement. Operands are read through ``read`` and written
    through ``write``; a statement of one instruction that uses each operand once reads
    and writes the operands' own expressions, others go through locals named like the
    asm's registers (``__ptx_r0``), read first and written last, as the asm does."""

    def __init__(self, stmt: ptx.AsmStatement, ports: dict, regs, found) -> None:
        self.stmt = stmt
        self.ports = ports
        self.caveats: list[str] = []
        self.body: list[str] = []
        self.temps = 0
        self.carry = False  # (an add.cc / sub.cc chain: the carry flag is a local)
        # (a packed-half register holds 32 bits; each instruction says how to read them)
        self.locals = {name: {"f16x2": "b32", "bf16x2": "b32"}.get(decl.ptx_type, decl.ptx_type)
                       for decl in regs for name in decl.names}
        uses = [0] * len(stmt.operands)
        self.error = ""
        for ins in found:
            for text in ins.operands:
                for m in _OPERAND.finditer(text):
                    n = int(m.group(1))
                    if n >= len(uses):
                        self.direct = False
                        self.error = f"the operand %{n}, which it does not declare,"
                        return
                    uses[n] += 1
        self.direct = len(found) == 1 and not self.locals and all(
            u <= 1 or not stmt.operands[i].written for i, u in enumerate(uses))
        if not self.direct:
            for i, op in enumerate(stmt.operands):
                if op.kind in "ni":
                    continue
                if op.constraint.startswith("+") and _IMPURE.search(op.expr):
                    self.error = f"operand {i} ({op.expr.decode(errors='replace')}) is read " \
                                 "and written but has side effects"
                    return
                reg = _REGISTER[op.kind]
                init = f" = {self._bits_of(i, reg)}" if op.read else \
                    " = 0" if any(ins.predicate for ins in found) else ""
                self.body.append(f"{reg} __ptx_r{i}{init}")
        for name, t in self.locals.items():
            if t == "pred":
                self.body.append(f"bool __ptx_v_{name} = false")
                continue
            if t not in _C_TYPES:
                self.error = f"'.reg .{t}' has no {_TARGET} form"
                return
            self.body.append(f"{_C_TYPES[t]} __ptx_v_{name}")

    # -- operands ------------------------------------------------------------------
    def _expr(self, i: int) -> str:
        return f"\x01{i}\x01"  # the operand's source span, put in by parts()

    def _operand(self, i: int) -> str:
        """The operand's expression, parenthesised unless it is a name or member."""
        if _SIMPLE.fullmatch(self.stmt.operands[i].expr):
            return self._expr(i)
        return f"({self._expr(i)})"

    def _bits_of(self, i: int, ctype: str) -> str:
        """Operand i's expression as ``ctype`` (its register's bits)."""
        op = self.stmt.operands[i]
        if op.kind in "ni":
            return f"static_cast<{ctype}>({self._expr(i)})"
        if (op.kind, ctype) in (("f", "float"), ("d", "double")):
            return self._operand(i)
        if ctype in ("unsigned char", "signed char"):  # (a byte: the register's low 8 bits)
            return f"static_cast<{ctype}>(__builtin_bit_cast({_REGISTER[op.kind]}, {self._expr(i)}))"
        return f"__builtin_bit_cast({ctype}, {self._expr(i)})"

    def operand_index(self, text: str) -> int | None:
        m = re.fullmatch(r"\$(\d+)", text)
        return int(m.group(1)) if m else None

    def read(self, text: str, ptx_type: str) -> str:
        """The value of a source operand as the instruction's type."""
        ctype = _C_TYPES.get(ptx_type)
        if ctype is None:
            raise _NoForm(f"the type .{ptx_type} has no {_TARGET} form")
        text = _single(text)
        i = self.operand_index(text)
        if i is not None:
            op = self.stmt.operands[i]
            if self.direct or op.kind in "ni":
                return self._bits_of(i, ctype)
            reg = _REGISTER[op.kind]
            return f"__ptx_r{i}" if reg == ctype else f"__builtin_bit_cast({ctype}, __ptx_r{i})"
        if text in self.locals and self.locals[text] != "pred":
            t = _C_TYPES[self.locals[text]]
            return f"__ptx_v_{text}" if t == ctype else f"__builtin_bit_cast({ctype}, __ptx_v_{text})"
        if _INT.match(text):
            value = int(text.rstrip("uU"), 0)
            if ptx_type.startswith(("f",)):
                raise _NoForm(f"the integer {text} as .{ptx_type}")
            return f"static_cast<{ctype}>({value if value >= 0 else text})"
        if _DECIMAL.fullmatch(text) and ptx_type in ("f32", "f64"):
            return f"static_cast<{ctype}>({text})"  # (a double literal, rounded to f32)
        m = re.fullmatch(r"0[fF]([0-9a-fA-F]{8})", text)
        if m and ptx_type == "f32":
            return f"__builtin_bit_cast(float, 0x{m.group(1)}u)"
        m = re.fullmatch(r"0[dD]([0-9a-fA-F]{16})", text)
        if m and ptx_type == "f64":
            return f"__builtin_bit_cast(double, 0x{m.group(1)}ull)"
        if text.startswith("%"):
            return f"static_cast<{ctype}>({self.special(text[1:])})"
        raise _NoForm(f"the operand '{text}'")

    def predicate(self, text: str) -> str:
        """A predicate register's value (``p`` or ``!p``)."""
        negate = text.startswith("!")
        name = text[1:] if negate else text
        if self.locals.get(name) != "pred":
            raise _NoForm(f"the predicate '{text}'")
        return f"!__ptx_v_{name}" if negate else f"__ptx_v_{name}"

    def special(self, name: str) -> str:
        entry = (self.ports.get("special_registers") or {}).get(name)
        if entry is None:
            raise _NoForm(f"%{name} has no {_TARGET} form")
        if entry.get("caveat"):
            self.caveats.append(entry["caveat"])
        return entry["to"]

    def write(self, text: str, ptx_type: str, value: str) -> None:
        """Assign a value of the instruction's type to a destination operand."""
        if ptx_type == "pred":
            if self.locals.get(text.strip()) != "pred":
                raise _NoForm(f"the predicate destination '{text}'")
            self.body.append(f"__ptx_v_{text.strip()} = {value}")
            return
        ctype = _C_TYPES.get(ptx_type)
        if ctype is None:
            raise _NoForm(f"the type .{ptx_type} has no {_TARGET} form")
        text = _single(text)
        if text == "_":
            self.body.append(f"(void)({value})")
            return
        i = self.operand_index(text)
        if i is not None:
            op = self.stmt.operands[i]
            if not op.written:
                raise _NoForm(f"it writes the input operand %{i}")
            reg = _REGISTER[op.kind]
            ptx_type, ctype, value = _extended(ptx_type, ctype, value, _REGISTER_BITS[op.kind], reg)
            if not self.direct:
                self.body.append(f"__ptx_r{i} = " + (f"static_cast<{ctype}>({value})"
                                 if reg == ctype else
                                 f"__builtin_bit_cast({reg}, static_cast<{ctype}>({value}))"))
                return
            e = self._expr(i)
            if (op.kind, ctype) in (("f", "float"), ("d", "double")):
                self.body.append(f"{e} = {value}")
            else:
                self.body.append(f"{e} = __builtin_bit_cast(__typeof__({e}), "
                                 f"static_cast<{ctype}>({value}))")
            return
        if text in self.locals:
            t = _C_TYPES[self.locals[text]]
            ptx_type, ctype, value = _extended(ptx_type, ctype, value, _BITS[self.locals[text]], t)
            self.body.append(f"__ptx_v_{text} = " + (f"static_cast<{t}>({value})" if t == ctype else
                             f"__builtin_bit_cast({t}, static_cast<{ctype}>({value}))"))
            return
        raise _NoForm(f"the destination '{text}'")

    def address(self, text: str, ctype: str, space: str, const: bool = False) -> str:
        """A pointer to ``ctype`` for a memory operand ``[a]`` or ``[a+imm]``."""
        m = re.fullmatch(r"\[\s*([^\]+\-]+?)\s*(?:([+-])\s*(-?(?:0[xX][0-9a-fA-F]+|\d+)))?\s*\]",
                         text.strip())
        if m is None:
            raise _NoForm(f"the address '{text}'")
        base, sign, offset = m.group(1), m.group(2), m.group(3)
        i = self.operand_index(base)
        if i is not None:
            op = self.stmt.operands[i]
            if op.kind not in "rl":
                raise _NoForm(f"the address '{text}'")
            value = self._operand(i) if self.direct else f"__ptx_r{i}"
            kind = op.kind
        elif base in self.locals and _BITS[self.locals[base]] in (32, 64):
            value, kind = f"__ptx_v_{base}", "r" if _BITS[self.locals[base]] == 32 else "l"
        else:
            raise _NoForm(f"the address '{text}'")
        qual = "const " if const else ""
        if space.startswith("shared"):
            pointee = f"{qual}{ctype} {self.ports['shared_pointer']} *"
            number = f"static_cast<size_t>(static_cast<unsigned int>({value}))"
            value = number
        elif kind == "l":
            pointee = f"{qual}{ctype} *"
            number = value
        else:
            raise _NoForm(f"a 32-bit address in the {space or 'generic'} space")
        if offset is not None:
            delta = int(offset, 0) * (-1 if sign == "-" else 1)
            cq = f"{qual}char" if not space.startswith("shared") else \
                f"{qual}char {self.ports['shared_pointer']}"
            return f"(({pointee})(({cq} *)({number}) + {delta}))"
        return f"(({pointee}){value})"

    def temp(self) -> str:
        self.temps += 1
        return f"__ptx_t{self.temps}"

    # -- output ----------------------------------------------------------------------
    def parts(self) -> tuple:
        if self.error:
            raise _NoForm(self.error)
        body = (["unsigned int __ptx_cc = 0"] if self.carry else []) + self.body
        if not self.direct:
            for i, op in enumerate(self.stmt.operands):
                if op.written:
                    e = self._expr(i)
                    body.append(f"{e} = {self._from_register(i, e)}")
        if not body:
            text = "(void)0"
        elif len(body) == 1 and self.direct:
            text = body[0]
        else:
            text = "do { " + "; ".join(body) + "; } while (0)"
        out: list = []
        for k, piece in enumerate(text.split("\x01")):
            if k % 2:
                out.append(self.stmt.operands[int(piece)].span)
            elif piece:
                out.append(piece.encode("latin-1"))
        return tuple(out)

    def _from_register(self, i: int, e: str) -> str:
        op = self.stmt.operands[i]
        if op.kind in "fd":
            return f"__ptx_r{i}"
        return f"__builtin_bit_cast(__typeof__({e}), __ptx_r{i})"


def _extended(ptx_type: str, ctype: str, value: str, bits: int, into: str) -> tuple[str, str, str]:
    """An integer result narrower than the register it goes to is sign-extended (signed
    types) or zero-extended (PTX ISA, "Operand Size Exceeding Instruction-Type Size"):
    (type, C type, value) as the register's."""
    if ptx_type[0] in "sub" and _BITS[ptx_type] < bits:
        return ptx_type, into, f"static_cast<{into}>(static_cast<{ctype}>({value}))"
    return ptx_type, ctype, value


def _parts(opcode: str) -> tuple[str, list[str], list[str]]:
    """(operation, modifiers, types) of an opcode: ``ld.global.nc.v4.u32`` gives
    ("ld", ["global", "nc", "v4"], ["u32"])."""
    pieces = opcode.split(".")
    mods, types = [], []
    for p in pieces[1:]:
        (types if p in _C_TYPES or p in ("f16x2", "bf16x2", "pred") else mods).append(p)
    return pieces[0], mods, types


def _instruction(gen: _Gen, ins: ptx.Instruction) -> None:
    if gen.error:
        raise _NoForm(gen.error)
    if ins.predicate:
        condition = gen.predicate(ins.predicate[1:])
        before = len(gen.body)
        _instruction(gen, ins._replace(predicate=""))
        guarded = gen.body[before:]
        del gen.body[before:]
        gen.body.append(f"if ({condition}) {{ {'; '.join(guarded)}; }}" if guarded else "(void)0")
        return
    op, mods, types = _parts(ins.opcode)
    ports = gen.ports
    functions = ports.get("functions") or {}
    try:
        if op == "mov" and len(ins.operands) == 2 and ins.operands[1].startswith("%") \
                and len(types) == 1:
            gen.write(ins.operands[0], types[0], gen.special(ins.operands[1][1:]))
            return
        if op == "mov" and len(types) == 1 and "{" in "".join(ins.operands):
            _pack(gen, ins, types[0])
            return
        if ins.opcode in functions:
            entry = functions[ins.opcode]
            _function(gen, ins, entry, types)
            return
        if ins.opcode in (ports.get("packs") or {}):
            _cvt_pack(gen, ins, ports["packs"][ins.opcode])
            return
        statements = ports.get("statements") or {}
        if ins.opcode in (ports.get("nothing") or {}) or ins.opcode in statements:
            if ins.operands:
                raise _NoForm(f"'{ins.text}' has no {_TARGET} form")
            entry = statements.get(ins.opcode) or {}
            gen.body.extend(entry.get("to", ()))
            if entry.get("caveat"):
                gen.caveats.append(entry["caveat"])
            return
        halves = ports.get("half_arithmetic") or {}
        if op in halves.get("operations", ()) and len(types) == 1 and types[0] in halves["types"]:
            _half_arithmetic(gen, ins, mods, types[0])
            return
        family = _FAMILIES.get(op)
        if family is None:
            raise _NoForm(f"'{ins.opcode}' has no {_TARGET} form")
        family(gen, ins, mods, types)
    except _NoForm as e:
        if str(e).startswith("'") or "has no" in str(e):
            raise
        raise _NoForm(f"'{ins.opcode}' ({e}) has no {_TARGET} form") from None


def _function(gen: _Gen, ins: ptx.Instruction, entry: dict, types: list[str]) -> None:
    template = entry["to"]
    src = entry.get("src") or types[-1]
    dst = entry.get("dst") or types[-1]
    count = max(int(n) for n in re.findall(r"\$(\d+)", template))
    if len(ins.operands) != count + 1:
        raise _NoForm(f"'{ins.text}' has another number of operands")
    # (`src` may name each source's type: a list, $1's first)
    value = re.sub(r"\$(\d+)", lambda m: gen.read(ins.operands[int(m.group(1))], src[int(
        m.group(1)) - 1] if isinstance(src, list) else src), template)
    if entry.get("caveat"):
        gen.caveats.append(entry["caveat"])
    gen.write(ins.operands[0], dst, value)


def _single(text: str) -> str:
    """An operand, with the braces of a one-element vector (``{%0}``) taken off."""
    text = text.strip()
    if text.startswith("{") and text.endswith("}") and "," not in text:
        return text[1:-1].strip()
    return text


def _vector(text: str) -> list[str] | None:
    text = text.strip()
    if not (text.startswith("{") and text.endswith("}")):
        return None
    return [t.strip() for t in text[1:-1].split(",")]


def _pack(gen: _Gen, ins: ptx.Instruction, t: str) -> None:
    """``mov.b32 d, {lo, hi}`` packs parts (element 0 in the low bits); ``mov.b32 {lo, hi},
    s`` unpacks them: b32 as 2 b16 or 4 b8, b64 as 2 b32 or 4 b16."""
    if t not in ("b32", "b64") or len(ins.operands) != 2:
        raise _NoForm(f"'{ins.text}' has no {_TARGET} form")
    whole = _C_TYPES[t]
    dst, src = _vector(ins.operands[0]), _vector(ins.operands[1])
    count = len(src if src is not None else dst or ())
    part = {("b32", 2): "b16", ("b32", 4): "b8", ("b64", 2): "b32", ("b64", 4): "b16"}.get(
        (t, count))
    if part is None or (src is None) == (dst is None):
        raise _NoForm(f"'{ins.text}' has no {_TARGET} form")
    bits = _BITS[part]
    if src is not None:
        pieces = [f"static_cast<{whole}>({gen.read(x, part)})" + (f" << {bits * k}" if k else "")
                  for k, x in enumerate(src)]
        gen.write(ins.operands[0], t, " | ".join(pieces))
        return
    tmp = gen.temp()
    gen.body.append(f"{whole} {tmp} = {gen.read(ins.operands[1], t)}")
    for k, d in enumerate(dst):
        if d.strip() != "_":
            gen.write(d, part, f"{tmp} >> {bits * k}" if k else tmp)


def _cvt_pack(gen: _Gen, ins: ptx.Instruction, entry: dict) -> None:
    if len(ins.operands) != 3:
        raise _NoForm(f"'{ins.text}' has another number of operands")
    half = entry["half"]
    a, b = (gen.read(x, "f32") for x in ins.operands[1:])
    hi = f"static_cast<unsigned int>(__builtin_bit_cast(unsigned short, static_cast<{half}>({a})))"
    lo = f"static_cast<unsigned int>(__builtin_bit_cast(unsigned short, static_cast<{half}>({b})))"
    if entry.get("caveat"):
        gen.caveats.append(entry["caveat"])
    gen.write(ins.operands[0], "b32", f"{hi} << 16 | {lo}")


def _memory_mods(mods: list[str]) -> tuple[str, str, str, str, list[str]]:
    """(space, semantics, scope, vector, cache hints) of a load's or store's modifiers."""
    space = sem = scope = vector = ""
    hints = []
    for m in mods:
        if m in ("global", "shared", "shared::cta", "local", "const", "param"):
            space = m
        elif m in ("weak", "relaxed", "acquire", "release", "volatile", "acq_rel", "sc"):
            sem = m
        elif m in ("cta", "gpu", "sys", "cluster"):
            scope = m
        elif m in ("v2", "v4", "v8"):
            vector = m
        elif _CACHE_HINTS.match(m):
            hints.append(m)
        else:
            raise _NoForm(f"the modifier .{m}")
    if space and space not in _SPACES:
        raise _NoForm(f"the .{space} space")
    return space, sem, scope, vector, hints


def _scope(gen: _Gen, scope: str) -> str:
    entry = (gen.ports.get("scopes") or {}).get(scope or "sys")
    if entry is None:
        raise _NoForm(f"the scope .{scope}")
    return entry["scope"]


def _ld(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    space, sem, scope, vector, hints = _memory_mods(mods)
    if len(types) != 1 or len(ins.operands) != 2 or "cv" in hints:
        raise _NoForm("its operands")
    t = types[0]
    ctype = _C_TYPES[t]
    dsts = _vector(ins.operands[0]) if vector else [ins.operands[0]]
    if dsts is None or vector and len(dsts) != int(vector[1:]):
        raise _NoForm("its operands")
    if sem in ("relaxed", "acquire", "volatile"):
        # (the PTX memory model makes a vector access one access per element, in an
        # unspecified order: each element becomes an atomic load of the same order and scope)
        order = _ORDERS["relaxed" if sem == "volatile" else sem]
        where = _scope(gen, "sys" if sem == "volatile" else scope)
        p = gen.address(ins.operands[1], ctype, space, const=False)
        if len(dsts) == 1:
            gen.write(dsts[0], t, f"__hip_atomic_load({p}, {order}, {where})")
            return
        ptr = gen.temp()
        gen.body.append(f"auto {ptr} = {p}")
        for k, d in enumerate(dsts):
            gen.write(d, t, f"__hip_atomic_load({ptr} + {k}, {order}, {where})")
        return
    if sem not in ("", "weak"):
        raise _NoForm(f"the .{sem} load")
    p = gen.address(ins.operands[1], ctype, space, const=True)
    # (a streaming load is a non-temporal one; the other hints only steer caches)
    load = "__builtin_nontemporal_load({})" if "cs" in hints else "*{}"
    if len(dsts) == 1:
        gen.write(dsts[0], t, load.format(p))
        return
    ptr = gen.temp()
    gen.body.append(f"auto {ptr} = {p}")
    for k, d in enumerate(dsts):
        gen.write(d, t, load.format(f"({ptr} + {k})"))


def _st(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    space, sem, scope, vector, hints = _memory_mods(mods)
    if len(types) != 1 or len(ins.operands) != 2:
        raise _NoForm("its operands")
    t = types[0]
    ctype = _C_TYPES[t]
    p = gen.address(ins.operands[0], ctype, space)
    values = _vector(ins.operands[1]) if vector else [ins.operands[1]]
    if values is None or vector and len(values) != int(vector[1:]):
        raise _NoForm("its operands")
    if sem in ("relaxed", "release", "volatile"):
        # (one atomic store per element, as for loads)
        order = _ORDERS["relaxed" if sem == "volatile" else sem]
        where = _scope(gen, "sys" if sem == "volatile" else scope)
        store = f"__hip_atomic_store({{}}, {{}}, {order}, {where})"
    elif sem in ("", "weak"):
        store = ""
    else:
        raise _NoForm(f"the .{sem} store")
    if len(values) == 1:
        v = gen.read(values[0], t)
        gen.body.append(store.format(p, v) if store else f"*{p} = {v}")
        return
    ptr = gen.temp()
    gen.body.append(f"auto {ptr} = {p}")
    for k, v in enumerate(gen.read(v, t) for v in values):
        gen.body.append(store.format(f"{ptr} + {k}", v) if store else f"{ptr}[{k}] = {v}")


_ATOMIC_OPS = {"add": "__hip_atomic_fetch_add", "min": "__hip_atomic_fetch_min",
               "max": "__hip_atomic_fetch_max", "and": "__hip_atomic_fetch_and",
               "or": "__hip_atomic_fetch_or", "xor": "__hip_atomic_fetch_xor",
               "exch": "__hip_atomic_exchange"}


def _atomic(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    """``atom`` (returns the old value) and ``red`` (does not)."""
    returns = ins.opcode.startswith("atom")
    space = sem = scope = operation = ""
    for m in mods:
        if m in ("global", "shared", "shared::cta"):
            space = m
        elif m in ("relaxed", "acquire", "release", "acq_rel"):
            sem = m
        elif m in ("cta", "gpu", "sys"):
            scope = m
        elif m in _ATOMIC_OPS or m in ("cas", "inc", "dec"):
            if operation:
                raise _NoForm(f"the modifier .{m}")
            operation = m
        else:
            raise _NoForm(f"the modifier .{m}")
    if len(types) != 1 or not operation:
        raise _NoForm("its operands")
    t = types[0]
    if t.startswith("f") and operation not in ("add", "exch") or t not in _C_TYPES \
            or _BITS[t] < 32:
        raise _NoForm(f"the type .{t}")
    if t.startswith("b") and operation in ("add", "min", "max") or \
            operation in ("inc", "dec") and (t != "u32" or space.startswith("shared")):
        raise _NoForm(f"the type .{t}" if t != "u32" else f"the .{space} space")
    order = _ORDERS[sem or "relaxed"]
    where = _scope(gen, scope or "gpu")
    ctype = _C_TYPES[t]
    operands = list(ins.operands)
    dst = operands.pop(0) if returns else None
    need = 3 if operation == "cas" else 2
    if len(operands) != need:
        raise _NoForm("its operands")
    p = gen.address(operands[0], ctype, space)
    if operation == "cas":
        if not returns:
            raise _NoForm("red.cas")
        failure = _ORDERS["acquire" if sem in ("acquire", "acq_rel") else "relaxed"]
        tmp = gen.temp()
        expected, desired = gen.read(operands[1], t), gen.read(operands[2], t)
        value = (f"({{ {ctype} {tmp} = {expected}; __hip_atomic_compare_exchange_strong("
                 f"{p}, &{tmp}, {desired}, {order}, {failure}, {where}); {tmp}; }})")
    elif operation in ("inc", "dec"):
        # (clang's wrapping increment and decrement, as PTX's: inc gives 0 at or above b,
        # dec gives b at 0 or above it; HIP's atomicInc is the agent-scope relaxed one)
        name = (gen.ports.get("scopes") or {})[scope or "gpu"]["name"]
        value = (f"__builtin_amdgcn_atomic_{operation}32({p}, {gen.read(operands[1], t)}, {order}, "
                 f"\"{name}\")")
    else:
        value = f"{_ATOMIC_OPS[operation]}({p}, {gen.read(operands[1], t)}, {order}, {where})"
    if returns:
        gen.write(dst, t, value)
    else:
        gen.body.append(f"(void){value}")


def _fence(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    scopes = gen.ports.get("scopes") or {}
    if ins.operands or types:
        raise _NoForm("its operands")
    if ins.opcode.startswith("membar."):
        scope = (gen.ports.get("membar") or {}).get(".".join(mods))
    elif len(mods) == 2 and mods[0] in ("sc", "acq_rel"):
        scope = mods[1]
    else:
        scope = None
    if scope not in scopes:
        raise _NoForm(f"'{ins.opcode}' has no {_TARGET} form")
    gen.body.append(scopes[scope]["fence"])


def _prmt(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    """Default-mode byte permute with an immediate selector: byte i of d is the byte of
    {b, a} (a's bytes 0-3, b's 4-7) that nibble i of c names; the nibble's bit 3 asks for
    that byte's sign bit replicated instead."""
    if mods or types != ["b32"] or len(ins.operands) != 4:
        raise _NoForm(f"'{ins.opcode}' (a mode other than the default) has no {_TARGET} form")
    selector = ins.operands[3]
    a, b = gen.read(ins.operands[1], "b32"), gen.read(ins.operands[2], "b32")
    if not _INT.match(selector):
        # (a run-time selector: the same reading, nibble by nibble; HIP's __byte_perm
        # ignores the sign-replicating bit 3 and is no form of it)
        gen.write(ins.operands[0], "b32", _PRMT_RUNTIME + f"({a}, {b}, {gen.read(selector, 'b32')})")
        return
    c = int(selector.rstrip("uU"), 0) & 0xFFFF
    terms = []
    for i in range(4):
        nibble = (c >> (4 * i)) & 0xF
        k = nibble & 7
        source = a if k < 4 else b
        shift = 8 * (k % 4)
        if nibble & 8:
            terms.append(f"(({source} >> {shift + 7} & 1u) * 0xFFu) << {8 * i}")
        else:
            byte = f"({source} >> {shift} & 0xFFu)" if shift else f"({source} & 0xFFu)"
            terms.append(f"{byte} << {8 * i}" if i else byte)
    _once(gen, ins, [a, b], " | ".join(terms))


_PRMT_RUNTIME = ("[](unsigned int a, unsigned int b, unsigned int c) { unsigned long long v = "
                 "static_cast<unsigned long long>(b) << 32 | a; unsigned int d = 0; "
                 "for (int i = 0; i < 4; ++i) { unsigned int n = c >> 4 * i & 0xFu; "
                 "unsigned int byte = static_cast<unsigned int>(v >> 8 * (n & 7u)) & 0xFFu; "
                 "if (n & 8u) byte = (byte >> 7) * 0xFFu; d |= byte << 8 * i; } return d; }")


def _once(gen: _Gen, ins: ptx.Instruction, sources: list[str], expr: str,
          t: str = "b32") -> None:
    """Write ``expr`` to the destination, reading each source once: a source used
    several times goes through a local first (unless it is a local already)."""
    for s in dict.fromkeys(sources):
        if expr.count(s) > 1 and not re.fullmatch(r"__ptx_\w+", s):
            tmp = gen.temp()
            gen.body.append(f"{_C_TYPES[t]} {tmp} = {s}")
            expr = expr.replace(s, tmp)
    gen.write(ins.operands[0], t, expr)


def _lop3(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    if mods or types != ["b32"] or len(ins.operands) != 5:
        raise _NoForm(f"'{ins.text}' has no {_TARGET} form")
    k = gen.operand_index(ins.operands[4].strip())
    if k is not None and gen.stmt.operands[k].kind in "ni":
        # (a constant the compiler knows, not this pass (CUTLASS's `"n"(immLut)`): bit i of
        # the result is bit 4*a_i + 2*b_i + c_i of it, each term folding away)
        gen.write(ins.operands[0], "b32", _LOP3_CONSTANT + "(" + ", ".join(
            gen.read(x, "b32") for x in ins.operands[1:]) + ")")
        return
    if not _INT.match(ins.operands[4]):
        raise _NoForm(f"'{ins.text}' has no {_TARGET} form")
    lut = int(ins.operands[4].rstrip("uU"), 0)
    if not 0 <= lut <= 0xFF:
        raise _NoForm(f"'{ins.text}' has no {_TARGET} form")
    names = [gen.read(x, "b32") for x in ins.operands[1:4]]
    expr = re.sub(r"\b([abc])\b", lambda m: f"\x02{m.group(1)}\x02", lop3_expression(lut))
    for var, name in zip("abc", names):
        expr = expr.replace(f"\x02{var}\x02", name)
    _once(gen, ins, names, expr)


# lop3 with a LUT the compiler knows but this pass does not: each minterm the LUT names
_LOP3_CONSTANT = "[](unsigned int a, unsigned int b, unsigned int c, unsigned int l) { return " + " | ".join(
    f"(l & 0x{1 << k:02X}u ? " + " & ".join(v if k >> (2 - j) & 1 else f"~{v}" for j, v in enumerate("abc"))
    + " : 0u)" for k in range(7, -1, -1)) + "; }"


@functools.cache
def lop3_expression(lut: int) -> str:
    """A C expression of unsigned ``a``, ``b``, ``c`` whose bit i is bit
    ``4*a_i + 2*b_i + c_i`` of the LUT (PTX's lop3: the LUT is F(0xF0, 0xCC, 0xAA)).
    The shortest form found by combining the inputs with ~, &, | and ^ (up to two binary
    operations deep), else the sum of the LUT's minterms."""
    table = _lop3_table()
    if lut in table:
        return table[lut]
    terms = []
    for k in range(8):
        if lut >> k & 1:
            terms.append("(" + " & ".join(
                (v if k >> (2 - j) & 1 else f"~{v}") for j, v in enumerate("abc")) + ")")
    return " | ".join(terms)


@functools.cache
def _lop3_table() -> dict[int, str]:
    best: dict[int, tuple[int, str]] = {0x00: (0, "0u"), 0xFF: (0, "~0u"),
                                        0xF0: (1, "a"), 0xCC: (1, "b"), 0xAA: (1, "c")}
    for v, (_, e) in list(best.items()):
        if v not in (0, 0xFF):
            best.setdefault(v ^ 0xFF, (2, f"~{e}"))
    for _round in range(2):
        items = list(best.items())
        for x, (cx, ex) in items:
            for y, (cy, ey) in items:
                if cx == 0 or cy == 0 or x >= y:
                    continue
                for value, op in ((x & y, "&"), (x | y, "|"), (x ^ y, "^")):
                    cost = cx + cy + 1
                    ex_, ey_ = (f"({ex})" if " " in ex else ex), (f"({ey})" if " " in ey else ey)
                    expr = f"{ey_} {op} {ex_}"  # (a, b, c in that order, mostly)
                    if value not in best or best[value][0] > cost:
                        best[value] = (cost, expr)
                    inv = value ^ 0xFF
                    if inv not in best or best[inv][0] > cost + 1:
                        best[inv] = (cost + 1, f"~({expr})")
    return {v: e for v, (c, e) in best.items()}


def _shfl(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    """``shfl.sync.MODE.b32 d, a, b, c, mask`` with the full mask and an immediate c."""
    if len(mods) != 2 or mods[0] != "sync" or types != ["b32"] or len(ins.operands) != 5:
        raise _NoForm(f"'{ins.text}' has no {_TARGET} form")
    mode = mods[1]
    function = {"idx": "__shfl", "up": "__shfl_up", "down": "__shfl_down",
                "bfly": "__shfl_xor"}.get(mode)
    d, a, b, c, mask = ins.operands
    if function is None or "|" in d:
        raise _NoForm(f"'{ins.text}' has no {_TARGET} form")
    if not _INT.match(mask) or int(mask.rstrip("uU"), 0) & 0xFFFFFFFF != 0xFFFFFFFF:
        raise _NoForm(f"'{ins.opcode}' with a mask other than the full warp has no "
                      f"{_TARGET} form")
    if not _INT.match(c):
        raise _NoForm(f"'{ins.opcode}' with a run-time clamp has no {_TARGET} form")
    # CUDA's __shfl*_sync(mask, v, x, width) passes c = (32 - width) << 8, or'ed with 0x1f
    # but for up; other values clamp or segment differently
    cv = int(c.rstrip("uU"), 0)
    width = 32 - (cv >> 8)
    if not 1 <= width <= 32 or width & (width - 1) or \
            cv & 0xFF != (0 if mode == "up" else 0x1F):
        raise _NoForm(f"'{ins.opcode}' with the clamp {c} has no {_TARGET} form")
    gen.write(d, "b32", f"{function}({gen.read(a, 'b32')}, {gen.read(b, 'u32')}, {width})")


# redux.sync's operations on the running value v and another lane's o
_REDUX = {"add": "v + o", "min": "o < v ? o : v", "max": "o > v ? o : v", "and": "v & o",
          "or": "v | o", "xor": "v ^ o"}


def _redux(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    """``redux.sync.OP.TYPE d, a, mask`` with the full mask: every lane gets OP over the 32
    lanes of its warp, by a butterfly of ``__shfl_xor`` of width 32 (a 64-lane wavefront
    holds two warps, each reduced on its own); add wraps, so it is summed unsigned."""
    if len(mods) != 2 or mods[0] != "sync" or mods[1] not in _REDUX or len(types) != 1 \
            or len(ins.operands) != 3 or types[0] != ("b32" if mods[1] in ("and", "or", "xor") else
                                                      types[0] if types[0] in ("u32", "s32") else ""):
        raise _NoForm(f"'{ins.text}' has no {_TARGET} form")
    d, a, mask = ins.operands
    if not _INT.match(mask) or int(mask.rstrip("uU"), 0) & 0xFFFFFFFF != 0xFFFFFFFF:
        raise _NoForm(f"'{ins.opcode}' with a mask other than the full warp has no "
                      f"{_TARGET} form")
    t = "u32" if mods[1] == "add" else types[0]
    ctype = _C_TYPES[t]
    gen.write(d, t, f"[]({ctype} v) {{ for (int k = 16; k > 0; k >>= 1) {{ const {ctype} o = "
                    f"__shfl_xor(v, k, 32); v = {_REDUX[mods[1]]}; }} return v; }}({gen.read(a, t)})")


def _bar(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    if mods not in (["sync"], ["sync", "aligned"]) or ins.operands != ("0",):
        raise _NoForm(f"'{ins.text}' (a named barrier or a thread count) has no {_TARGET} form")
    gen.body.append("__syncthreads()")


def _cp(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    """The Ampere async copy, made synchronous (see ``async_copy`` in ptx.yaml)."""
    entry = gen.ports.get("async_copy")
    if entry is None or not mods or mods[0] != "async":
        raise _NoForm(f"'{ins.opcode}' has no {_TARGET} form")
    rest = mods[1:]
    if rest in (["commit_group"], ["wait_all"]) and not ins.operands or \
            rest == ["wait_group"] and len(ins.operands) == 1:
        gen.caveats.append(entry["caveat"])
        return
    # (.shared::cta is the window of the thread's own block, which .shared means)
    if not rest or rest[0] not in ("ca", "cg") or len(rest) < 3 or \
            rest[1] not in ("shared", "shared::cta") or rest[2] != "global" or any(
            not re.fullmatch(r"L2::(?:64|128|256)B", m) for m in rest[3:]):
        raise _NoForm(f"'{ins.opcode}' has no {_TARGET} form")
    if len(ins.operands) not in (3, 4):
        raise _NoForm(f"'{ins.text}' has no {_TARGET} form")
    size_op = gen.operand_index(ins.operands[2].strip())
    if size_op is not None and gen.stmt.operands[size_op].kind in ("n", "i"):
        # (a constant the compiler knows, not this pass: 4, 8 or 16 as PTX requires;
        # the copy is chosen by its value and the other branches fold away)
        size = gen.read(ins.operands[2], "u32")
    elif _INT.match(ins.operands[2]) and int(ins.operands[2].rstrip("uU"), 0) in (4, 8, 16):
        size = int(ins.operands[2].rstrip("uU"), 0)
    else:
        raise _NoForm(f"'{ins.text}' has no {_TARGET} form")
    gen.caveats.append(entry["caveat"])
    if isinstance(size, str) and len(ins.operands) == 3:
        n = gen.temp()
        gen.body.append(f"constexpr unsigned int {n} = {size}")
        branches = []
        for k in (4, 8, 16):
            before = len(gen.body)
            _sync_copy(gen, ins, k)
            branches.append(f"if ({n} == {k}) {{ {'; '.join(gen.body[before:])}; }}")
            del gen.body[before:]
        gen.body.append(" else ".join(branches))
        return
    if len(ins.operands) == 3:
        _sync_copy(gen, ins, size)
        return
    n = gen.read(ins.operands[3], "u32")
    dst = gen.address(ins.operands[0], "unsigned char", "shared")
    src = gen.address(ins.operands[1], "unsigned char", "global", const=True)
    d, s, i, count = gen.temp(), gen.temp(), gen.temp(), gen.temp()
    gen.body.append(f"auto {d} = {dst}")
    gen.body.append(f"auto {s} = {src}")
    gen.body.append(f"unsigned int {count} = {n}")
    # (bytes past the source size are zeros, as cp.async's src-size asks)
    gen.body.append(f"for (unsigned int {i} = 0; {i} < {size}; ++{i}) {d}[{i}] = "
                    f"{i} < {count} ? {s}[{i}] : 0")


def _sync_copy(gen: _Gen, ins: ptx.Instruction, size: int) -> None:
    """``size`` bytes copied at once from global to shared memory."""
    t = "b32" if size == 4 else "b64"
    dst = gen.address(ins.operands[0], _C_TYPES[t], "shared")
    src = gen.address(ins.operands[1], _C_TYPES[t], "global", const=True)
    if size < 16:
        gen.body.append(f"*{dst} = *{src}")
        return
    d, s = gen.temp(), gen.temp()
    gen.body.append(f"auto {d} = {dst}")
    gen.body.append(f"auto {s} = {src}")
    gen.body.append(f"{d}[0] = {s}[0]")
    gen.body.append(f"{d}[1] = {s}[1]")


_COMPARISONS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
                "lo": "<", "ls": "<=", "hi": ">", "hs": ">="}


def _setp(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    """``setp.CMP.TYPE p, a, b``: integer comparisons, and the ordered ones of floats (false
    when an input is NaN, as C's comparisons but ``!=``)."""
    if len(mods) != 1 or len(types) != 1 or len(ins.operands) != 3 or "|" in ins.operands[0]:
        raise _NoForm(f"'{ins.text}' has no {_TARGET} form")
    cmp, t = mods[0], types[0]
    if cmp not in _COMPARISONS or t in ("f16", "bf16", "pred") or t.startswith("f") and \
            cmp in ("lo", "ls", "hi", "hs") or t.startswith("b") and cmp not in ("eq", "ne"):
        raise _NoForm(f"'{ins.opcode}' has no {_TARGET} form")
    a, b = gen.read(ins.operands[1], t), gen.read(ins.operands[2], t)
    if t.startswith("f") and cmp == "ne":
        value = f"({a} < {b} || {a} > {b})"
    else:
        value = f"{a} {_COMPARISONS[cmp]} {b}"
    gen.write(ins.operands[0], "pred", value)


def _selp(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    if mods or len(types) != 1 or len(ins.operands) != 4:
        raise _NoForm(f"'{ins.text}' has no {_TARGET} form")
    t = types[0]
    gen.write(ins.operands[0], t, f"{gen.predicate(ins.operands[3])} ? "
              f"{gen.read(ins.operands[1], t)} : {gen.read(ins.operands[2], t)}")


def _minmax(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    """Floating-point ``max``/``min`` (f32, f16, bf16, x2; .NaN; .xorsign.abs), bit by bit
    as the PTX ISA defines them (``float_formats`` in ptx.yaml); integer ones by C."""
    largest = ins.opcode.startswith("max")
    if len(types) != 1 or len(ins.operands) != 3:
        raise _NoForm(f"'{ins.text}' has no {_TARGET} form")
    t = types[0]
    if t in ("u16", "u32", "u64", "s16", "s32", "s64") and not mods:
        a, b = gen.read(ins.operands[1], t), gen.read(ins.operands[2], t)
        expr = f"{a} {'>' if largest else '<'} {b} ? {a} : {b}"
        _once(gen, ins, [a, b], expr, t)
        return
    element = t[:-2] if t.endswith("x2") else t
    formats = gen.ports.get("float_formats") or {}
    if element not in formats or set(mods) - {"NaN", "xorsign", "abs"} or \
            ("xorsign" in mods) != ("abs" in mods):
        raise _NoForm(f"'{ins.opcode}' has no {_TARGET} form")
    f = formats[element]
    lanes = 2 if t.endswith("x2") else 1
    bits = f["bits"]
    whole = "unsigned int"
    a = gen.read(ins.operands[1], "b32" if bits * lanes == 32 else "b16")
    b = gen.read(ins.operands[2], "b32" if bits * lanes == 32 else "b16")
    sign, exponent, nan = (f"0x{f[k]:X}u" for k in ("sign", "exponent", "nan"))
    mask = f"0x{(1 << bits) - 1:X}u"
    # per lane: x, y the inputs (their magnitudes for .abs, s the XOR of their signs); a
    # NaN's magnitude is above the exponent mask; the NaN cases give the canonical NaN
    lane = ["unsigned int x = a >> i & M, y = b >> i & M".replace("M", mask)]
    xorsign = "xorsign" in mods
    if xorsign:
        lane.append(f"unsigned int s = (x ^ y) & {sign}; x &= ~{sign} & {mask}; "
                    f"y &= ~{sign} & {mask}")
        xn, yn = f"x > {exponent}", f"y > {exponent}"
        better = f"x {'>' if largest else '<'} y"  # (magnitudes order as integers)
        pick = f"({better} ? x : y) | s"
        x_, y_ = "x | s", "y | s"
    else:
        xn, yn = f"(x & ~{sign}) > {exponent}", f"(y & ~{sign}) > {exponent}"
        # ordered as integers: negative values reversed below the positive ones (+0 > -0)
        key = f"(v & {sign} ? ~v & {mask} : v | {sign})"
        better = f"{key.replace('v', 'x')} {'>' if largest else '<'} {key.replace('v', 'y')}"
        pick = f"({better} ? x : y)"
        x_, y_ = "x", "y"
    if "NaN" in mods:
        result = f"{xn} || {yn} ? {nan} : {pick}"
    else:
        result = f"{xn} ? ({yn} ? {nan} : {y_}) : {yn} ? {x_} : {pick}"
    lane.append(f"unsigned int r = {result}")
    lane.append("d |= r << i")
    body = "; ".join(lane)
    function = (f"[]({whole} a, {whole} b) {{ {whole} d = 0; for (int i = 0; i < {bits * lanes}; "
                f"i += {bits}) {{ {body}; }} return d; }}({a}, {b})")
    gen.write(ins.operands[0], "b32" if bits * lanes == 32 else "b16", function)


def _half_arithmetic(gen: _Gen, ins: ptx.Instruction, mods: list[str], t: str) -> None:
    """add, sub, mul, fma on f16/bf16 values and pairs (``half_arithmetic`` in ptx.yaml):
    each element in its type, a NaN result canonical; .rn turns contraction off."""
    entry = gen.ports["half_arithmetic"]
    op = ins.opcode.split(".")[0]
    form = entry["operations"][op]
    names = "xyz"[:3 if op == "fma" else 2]
    if mods not in ([], ["rn"]) or t not in form.get("types", [t]) or \
            form.get("rounding") == "required" and not mods or len(ins.operands) != len(names) + 1:
        raise _NoForm(f"'{ins.opcode}' has no {_TARGET} form")
    half = entry["types"][t]
    pair = t.endswith("x2")
    whole = "unsigned int" if pair else "unsigned short"
    params = ", ".join(f"{whole} {n}" for n in names)
    operation = re.sub(r"\b([xyz])\b", lambda m: f"__builtin_bit_cast({half}, static_cast<unsigned short>"
                       f"({m.group(1)} >> k))", form["op"])
    fence = '_Pragma("clang fp contract(off)") ' if mods else ""
    value = (f"[]({params}) {{ {fence}unsigned int d = 0; for (int k = 0; k < {32 if pair else 16}; "
             f"k += 16) {{ {half} r = {operation}; d |= static_cast<unsigned int>(r != r ? {entry['nan']} : "
             f"__builtin_bit_cast(unsigned short, r)) << k; }} return static_cast<{whole}>(d); }}("
             + ", ".join(gen.read(x, "b32" if pair else "b16") for x in ins.operands[1:]) + ")")
    gen.write(ins.operands[0], "b32" if pair else "b16", value)


def _trap(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    if mods or types or ins.operands:
        raise _NoForm(f"'{ins.text}' has no {_TARGET} form")
    gen.body.append("__builtin_trap()")


def _cvta(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    """cvta.to.shared: the generic address's offset in shared memory (LDS, address space 3,
    32-bit; clang's address space conversion); cvta.shared: the way back."""
    if types not in (["u64"], ["u32"]) or len(ins.operands) != 2 or mods not in (
            ["to", "shared"], ["shared"]):
        raise _NoForm(f"'{ins.opcode}' has no {_TARGET} form")
    t = types[0]
    lds = gen.ports["shared_pointer"]
    value = gen.read(ins.operands[1], t)
    if mods[0] == "to":
        if t != "u64":
            raise _NoForm(f"'{ins.opcode}' has no {_TARGET} form")
        gen.write(ins.operands[0], t, f"(unsigned long long)(const void {lds} *)(const void *)({value})")
    else:
        gen.write(ins.operands[0], "u64", f"(unsigned long long)(const void *)(const void {lds} *)"
                  f"static_cast<unsigned int>({value})")


def _carry(gen: _Gen, ins: ptx.Instruction, mods: list[str], types: list[str]) -> None:
    """Extended-precision add and subtract on 32 bits: add.cc/sub.cc set the carry flag
    (CC.CF: the carry out, or the borrow), addc/subc add it in (subtract it), .cc on them
    sets it again; clang's __builtin_addc/__builtin_subc compute exactly that."""
    op = ins.opcode.split(".")[0]
    cc = mods == ["cc"]
    if types not in (["u32"], ["s32"]) or mods not in ([], ["cc"]) or len(ins.operands) != 3 \
            or op in ("add", "sub") and not cc:
        raise _NoForm(f"'{ins.opcode}' has no {_TARGET} form")
    if op.endswith("c") and not gen.carry:
        raise _NoForm(f"'{ins.opcode}' reads a carry flag set outside the statement and has no {_TARGET} form")
    gen.carry = gen.carry or cc
    a, b = gen.read(ins.operands[1], "u32"), gen.read(ins.operands[2], "u32")
    carry_in = "__ptx_cc" if op.endswith("c") else "0u"
    builtin = "__builtin_addc" if op.startswith("add") else "__builtin_subc"
    if cc:
        value = f"{builtin}({a}, {b}, {carry_in}, &__ptx_cc)"
    else:
        out = gen.temp()
        gen.body.append(f"unsigned int {out}")
        value = f"{builtin}({a}, {b}, {carry_in}, &{out})"
    gen.write(ins.operands[0], "u32", value)


_FAMILIES = {"add": _carry, "addc": _carry, "sub": _carry, "subc": _carry, "trap": _trap,
             "cvta": _cvta, "setp": _setp, "selp": _selp, "max": _minmax, "min": _minmax,
             "ld": _ld, "st": _st, "atom": _atomic, "red": _atomic, "fence": _fence,
             "membar": _fence, "prmt": _prmt, "lop3": _lop3, "shfl": _shfl, "redux": _redux, "bar": _bar,
             "barrier": _bar, "cp": _cp}
