"""The records of the symbol model: declarations, references and who owns a reference.

A reference to a CUDA-spelled name (a rule-table hit or a CUDA-looking unknown) is owned by
the API (CUDA's name: rules apply), by the PROJECT (a name the project declared: left as
it is wherever it resolves to that declaration), by the TARGET (already the target's
spelling), or UNDECIDED (nothing says it is the project's: rules apply, as for the API).
"""

from __future__ import annotations

from typing import NamedTuple

API, PROJECT, TARGET, UNDECIDED = "api", "project", "target", "undecided"

# Roles a reference plays where it stands (a bounded window around it decides).
USE, CALL, MEMBER, QUALIFIED, DECLARATOR, FORWARD, TAG, OPAQUE_POINTER, TEMPLATE_PARAMETER, \
    PARAMETER, ENUMERATOR, MACRO_NAME, MACRO_BODY, UNDECIDED_CALL = (
        "use", "call", "member", "qualified", "declarator", "forward", "tag", "opaque pointer",
        "template parameter", "parameter", "enumerator", "macro name", "macro body",
        "call of an overload not decided")

# Kinds of declaration.
FIELD, METHOD, FUNCTION, VARIABLE, LOCAL, TYPE, ALIAS, FORWARD_DECLARATION, \
    ENUMERATOR_DECL, PARAMETER_DECL, TEMPLATE_PARAMETER_DECL, GLOBAL_ALIAS, GLOBAL_VARIABLE = (
        "field", "method", "function", "variable", "local", "type", "alias",
        "forward declaration", "enumerator", "parameter", "template parameter",
        "global alias", "global variable")


class Decl(NamedTuple):
    """A declaration of a CUDA-spelled name by the project: where its name is, what it
    declares, and the span of text where an unqualified use of the name reaches it."""

    name: bytes
    kind: str
    at: int  # offset of the declared name
    begin: int  # where it becomes visible
    end: int  # where it stops being visible
    namespace: bytes  # the (qualified) namespace it stands in, b"" at global scope
    owner_class: bytes = b""  # the class it is a member of (fields, methods)


class Ref(NamedTuple):
    """One CUDA-spelled token and who owns it."""

    start: int
    name: bytes
    role: str
    owner: str
    why: str = ""  # for PROJECT: what makes it the project's (shown in CP164)
    decl: Decl | None = None
    macro: bytes = b""  # the macro whose body holds it, if any

    @property
    def opaque(self) -> bool:
        """A forward declaration of a type, a pointer to one named ``struct X*``, or a use
        of a type only forward-declared here: nothing but the name is needed of it."""
        return self.role in (FORWARD, OPAQUE_POINTER) or (
            self.decl is not None and self.decl.kind == FORWARD_DECLARATION)
