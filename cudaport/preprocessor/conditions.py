"""Evaluate a ``#if`` condition as far as the target's build is known.

Three-valued: a condition is true, false, or unknown (None) for the target. What is known
comes from the target's facts and the user: macros the target's compiler defines, CUDA's
macros it does not define (``CUDART_VERSION``, ...), ``-D`` switches, and which headers
``__has_include`` finds there; every other name
is unknown, so ``!defined(GGML_USE_HIP) && __CUDA_ARCH__ >= 800`` is false with
``-D GGML_USE_HIP`` and unknown without it. No macro is expanded: a name the file defines
itself counts as unknown unless a fact or ``-D`` says otherwise.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Callable
from ..source.lazy_re import lazy

_TOKEN = lazy(rb"\s*(?:(0[xX][0-9a-fA-F]+|\d+)[uUlL]*|([A-Za-z_]\w*)|(&&|\|\||<<|>>|<=|>="
              rb"|==|!=|[-+*/%<>&|^!~?:(),]))")
_SPLICE = lazy(rb"\\\r?\n")
# `__has_include(<name>)`, `__has_include("name")` (and `_next`): group 1 or 2 is the name
HAS_INCLUDE = lazy(rb"__has_include(?:_next)?\s*\(\s*(?:<([^>\n]*)>|\"([^\"\n]*)\")\s*\)")


@dataclass(frozen=True)
class Known:
    """What a build for the target is known to define (name -> value) and not define."""

    defined: tuple[tuple[bytes, int], ...] = ()
    undefined: frozenset[bytes] = frozenset()
    # header name -> whether ``__has_include`` finds it on the target (None: not known)
    header: Callable[[bytes], bool | None] | None = None
    # names of a family the target never defines (``__CUDA_ARCH_FEAT_SM90_ALL``), beside
    # ``undefined``; ``defined`` wins over it
    undefined_family: Callable[[bytes], bool] | None = None
    # function-like macros of the target's headers: (name, parameters, body), the body as
    # those headers write it (RCCL's ``NCCL_VERSION(X,Y,Z)``)
    functions: tuple[tuple[bytes, tuple[bytes, ...], bytes], ...] = ()

    def has_header(self, name: bytes) -> bool | None:
        return None if self.header is None else self.header(name)

    @functools.cached_property
    def _outcomes(self) -> dict[bytes, bool | None]:
        return {}  # condition -> what :func:`evaluate` says with these facts

    @functools.cached_property
    def _values(self) -> dict[bytes, int]:
        # (facts derived with another ``undefined`` share their ``defined``: its dict is
        # read once; a run's constants make it long)
        defined = self.defined
        found = _VALUES.get(id(defined))
        if found is not None and found[0] is defined:
            return found[1]
        values = dict(reversed(defined))  # (the first of a name wins, as before)
        if len(_VALUES) >= 64:
            _VALUES.clear()
        _VALUES[id(defined)] = (defined, values)  # (kept alive with it: the id stays its)
        return values

    @property
    def defined_names(self):
        """The names ``defined`` gives a value (a view: membership, read once)."""
        return self._values.keys()

    def defining(self, before: tuple[tuple[bytes, int], ...] = (),
                 after: tuple[tuple[bytes, int], ...] = (), **changes) -> Known:
        """These facts with ``before`` first in ``defined`` (their values win) and ``after``
        last (a name known already keeps its value), and the other ``changes``: what they
        define is read from these facts' once read (a run's constants make it long)."""
        new = dataclasses.replace(self, defined=before + self.defined + after, **changes)
        values = dict(self._values)
        for name, value in reversed(before):
            values[name] = value
        for name, value in after:
            values.setdefault(name, value)
        new.__dict__["_values"] = values  # (the cached property, as reading it would fill it)
        return new

    def value(self, name: bytes) -> int | None:
        v = self._values.get(name)
        if v is not None:
            return v
        return 0 if self._undefined(name) else None

    def is_defined(self, name: bytes) -> bool | None:
        if name in self._values:
            return True
        return False if self._undefined(name) else None

    def _undefined(self, name: bytes) -> bool:
        return name in self.undefined or (self.undefined_family is not None
                                          and self.undefined_family(name))


_VALUES: dict[int, tuple[tuple, dict[bytes, int]]] = {}


class _Unparsed(Exception):
    pass


def evaluate(cond: bytes, known: Known) -> bool | None:
    """True or False where ``#if cond`` has that outcome in every build the facts describe,
    None where it depends on something unknown or the condition is not understood."""
    memo = known._outcomes
    if cond in memo:
        return memo[cond]
    tree = _parsed(cond)
    try:
        value = None if tree is None else tree(known)
    except (_Unparsed, IndexError, ZeroDivisionError):
        value = None
    outcome = None if value is None else value != 0
    if len(memo) >= _MEMO:
        memo.clear()
    memo[cond] = outcome
    return outcome


# Outcomes kept per set of facts (a ``Known`` is immutable; a new set is a new object):
# the same conditions are read for each branch query, pass and fixed-point step.
_MEMO = 8192


@functools.lru_cache(maxsize=8192)
def _parsed(cond: bytes):
    """``cond`` parsed once into a function of the facts; None where it is not understood
    (a character literal, a string, a syntax the grammar does not read). The parse never
    depends on the facts: 41k evaluations over the corpus read 4k conditions."""
    tokens = _condition_tokens(cond)
    if tokens is None:
        return None
    try:
        return _tree(tokens, 0)
    except (_Unparsed, IndexError):
        return None


@functools.lru_cache(maxsize=4096)
def _condition_tokens(cond: bytes) -> tuple[tuple[int, bytes], ...] | None:
    """The tokens of a condition, kept: the same few conditions are evaluated for every
    branch query and set of facts (no caller changes them)."""
    tokens = _tokens(_SPLICE.sub(b" ", cond).strip())
    return None if tokens is None else tuple(tokens)


def _tokens(text: bytes) -> list[tuple[int, bytes]] | None:
    """(kind, text) of each token: 0 number, 1 name, 2 operator, 3 ``__has_include``."""
    tokens = []
    pos = 0
    while pos < len(text):
        while text[pos:pos + 1].isspace():
            pos += 1
        m = HAS_INCLUDE.match(text, pos)
        if m is not None:
            tokens.append((3, m.group(1) if m.group(1) is not None else m.group(2)))
            pos = m.end()
            continue
        m = _TOKEN.match(text, pos)
        if m is None:
            return None
        kind = 0 if m.group(1) else 1 if m.group(2) else 2
        tokens.append((kind, m.group(kind + 1)))
        pos = m.end()
    return tokens


def _tree(tokens, depth: int):
    """The function of the facts that ``tokens`` compute (raises _Unparsed or IndexError
    where they do not parse); ``depth``: of macro expansions around them."""
    parser = _Parser(tokens, depth)
    tree = parser.ternary()
    if parser.i != len(tokens):
        raise _Unparsed
    return tree


def _expand(body: bytes, params: tuple[bytes, ...], args: list[list[tuple[int, bytes]]]):
    """The tokens of ``body`` with each parameter replaced by its argument, parenthesized."""
    tokens = _tokens(body)
    if tokens is None or len(args) != len(params):
        raise _Unparsed
    given = dict(zip(params, args))
    out = []
    for kind, text in tokens:
        if kind == 1 and text in given:
            out += [(2, b"(")] + given[text] + [(2, b")")]
        else:
            out.append((kind, text))
    return out


# binary operators by precedence, loosest first
_LEVELS = ((b"||",), (b"&&",), (b"|",), (b"^",), (b"&",), (b"==", b"!="),
           (b"<", b">", b"<=", b">="), (b"<<", b">>"), (b"+", b"-"), (b"*", b"/", b"%"))


class _Parser:
    """Recursive descent over the tokens; each node it returns is a function of the facts
    that evaluates its operands left to right, all of them (an error in any, such as a
    division by zero, leaves the whole condition unknown)."""

    def __init__(self, tokens, depth: int = 0) -> None:
        self.tokens, self.i, self.depth = tokens, 0, depth

    def peek(self) -> bytes | None:
        return self.tokens[self.i][1] if self.i < len(self.tokens) and \
            self.tokens[self.i][0] == 2 else None

    def take(self, op: bytes) -> None:
        if self.peek() != op:
            raise _Unparsed
        self.i += 1

    def ternary(self):
        c = self.binary(0)
        if self.peek() != b"?":
            return c
        self.i += 1
        a = self.ternary()
        self.take(b":")
        b = self.ternary()

        def choose(known):
            cv, av, bv = c(known), a(known), b(known)
            if cv is None:
                return av if av == bv and av is not None else None
            return av if cv else bv
        return choose

    def binary(self, level: int):
        if level == len(_LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in _LEVELS[level]:
            op = self.peek()
            self.i += 1
            right = self.binary(level + 1)
            left = _node(_OPERATIONS[op], left, right)
        return left

    def unary(self):
        op = self.peek()
        if op in (b"!", b"-", b"+", b"~"):
            self.i += 1
            return _unary(op, self.unary())
        if op == b"(":
            self.i += 1
            v = self.ternary()
            self.take(b")")
            return v
        kind, text = self.tokens[self.i]
        self.i += 1
        if kind == 3:  # __has_include(<text>)
            return functools.partial(_header, text)
        if kind == 0:
            value = integer_literal(text)
            if value is None:  # (`08`: no octal number, the compiler's error)
                raise _Unparsed
            return lambda _known: value
        if kind != 1:
            raise _Unparsed
        if text == b"defined":
            paren = self.peek() == b"("
            if paren:
                self.i += 1
            kind, name = self.tokens[self.i]
            if kind != 1:
                raise _Unparsed
            self.i += 1
            if paren:
                self.take(b")")
            return functools.partial(_defined, name)
        if self.peek() == b"(":  # a function-like macro: unknown unless the target's
            depth, args = 0, [[]]  # headers define it (then its body, with the arguments)
            while True:
                t = self.tokens[self.i]
                self.i += 1
                depth += (t[1] == b"(") - (t[1] == b")")
                if depth == 0:
                    break
                if depth == 1 and t[1] == b"," and t[0] == 2:
                    args.append([])
                elif depth > 1 or t[1] != b"(":
                    args[-1].append(t)
            return functools.partial(_call, text, args, self.depth)
        return functools.partial(_name, text)


def _header(text: bytes, known: Known) -> int | None:
    found = known.has_header(text)
    return None if found is None else int(found)


def _defined(name: bytes, known: Known) -> int | None:
    d = known.is_defined(name)
    return None if d is None else int(d)


def _name(name: bytes, known: Known) -> int | None:
    return known.value(name)


def _call(name: bytes, args, depth: int, known: Known) -> int | None:
    macro = next((f for f in known.functions if f[0] == name), None)
    if macro is None or depth > 8:
        return None
    return _tree(_expand(macro[2], macro[1], args), depth + 1)(known)


def _unary(op: bytes, operand):
    def run(known):
        v = operand(known)
        if v is None:
            return None
        return int(not v) if op == b"!" else -v if op == b"-" else ~v if op == b"~" else v
    return run


def _node(operation, left, right):
    return lambda known: operation(left(known), right(known))


def _and(a, b):
    return 0 if a == 0 or b == 0 else None if a is None or b is None else 1


def _or(a, b):
    return 1 if (a is not None and a != 0) or (b is not None and b != 0) else \
        None if a is None or b is None else 0


def _arithmetic(op: bytes):
    operation = _ARITHMETIC[op]

    def run(a, b):
        return None if a is None or b is None else operation(a, b)
    return run


def _divide(a: int, b: int) -> int:
    if b == 0:
        raise _Unparsed
    try:
        return int(a / b)
    except OverflowError:  # (beyond a float: beyond the preprocessor's intmax_t too)
        raise _Unparsed from None


def _remainder(a: int, b: int) -> int:
    return a - b * _divide(a, b)


_ARITHMETIC = {
    b"|": lambda a, b: a | b, b"^": lambda a, b: a ^ b, b"&": lambda a, b: a & b,
    b"==": lambda a, b: int(a == b), b"!=": lambda a, b: int(a != b),
    b"<": lambda a, b: int(a < b), b">": lambda a, b: int(a > b),
    b"<=": lambda a, b: int(a <= b), b">=": lambda a, b: int(a >= b),
    b"<<": lambda a, b: a << b if 0 <= b < 64 else None,
    b">>": lambda a, b: a >> b if 0 <= b < 64 else None,
    b"+": lambda a, b: a + b, b"-": lambda a, b: a - b, b"*": lambda a, b: a * b,
    b"/": _divide, b"%": _remainder}
_OPERATIONS = {op: _and if op == b"&&" else _or if op == b"||" else _arithmetic(op)
               for level in _LEVELS for op in level}


def integer_literal(text: bytes) -> int | None:
    """An integer literal's value as C reads it (``010`` is octal 8, ``0x10`` 16); None
    for one the compiler rejects (``08``)."""
    try:
        if text[:2] in (b"0x", b"0X"):
            return int(text, 16)
        return int(text, 8) if len(text) > 1 and text.startswith(b"0") else int(text)
    except ValueError:
        return None
