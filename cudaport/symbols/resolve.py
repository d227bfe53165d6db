"""Who owns each CUDA-spelled token of a file: :class:`FileSymbols`, built once.

Two passes over the file's CUDA-spelled tokens (table hits and CUDA-looking unknowns):
the first finds each one's role (:mod:`.roles`) and collects the declarations the project
makes of such names; the second resolves every other token the way C++ looks names up,
closely enough: a qualifier decides a qualified name (an API namespace makes it the API's,
any other the project's), a member is the project's, and an unqualified name is the
project's where one of its declarations is visible there (a block's locals, a function's
parameters, a template's parameters, a class's members, a namespace's names in this file
or another file of the run, what a using-directive brings in). Every ref bound to one
declaration gets the same owner. Macro bodies are charged to their macro.

Queries are dict lookups and bisects; building is linear in the number of tokens.
"""

from __future__ import annotations

import bisect
import re
from typing import Iterable

from ..source import lexer
from . import model as M
from .roles import Role, namespace_aliases, role
from ..preprocessor.branches import BranchTree
from .overloads import PROJECT as PROJECT_CALL
from .overloads import UNDECIDED as UNDECIDED_CALL
from .overloads import Callee
from .skeleton import EXTERN, FUNCTION, Skeleton
from ..source.lazy_re import lazy

_DEFINE = lazy(rb"#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)\n]*\))?(" + lexer.REST_OF_LINE + b")")
_USING_NAMESPACE = lazy(rb"using(?<![\w$]using)\s+namespace\s+((?:[A-Za-z_]\w*\s*::\s*)*"
                        rb"[A-Za-z_]\w*)\s*;")


class Macros:
    """The file's ``#define`` lines: where each defined name is, and which macro's body
    (or parameter list) an offset stands in."""

    def __init__(self, code: bytes) -> None:
        self.names: dict[int, bytes] = {}  # offset of a defined name -> the name
        self.starts: list[int] = []  # body spans, in order
        self.spans: list[tuple[int, int, bytes, frozenset[bytes]]] = []
        if b"define" not in code:
            return
        for m in _DEFINE.finditer(code):
            if not lexer.starts_logical_line(code, m.start()):
                continue
            self.names[m.start(1)] = m.group(1)
            params = frozenset(p.strip() for p in (m.group(2) or b"()")[1:-1].split(b",")
                               if p.strip())
            begin = m.start(2) if m.group(2) else m.start(3)
            self.starts.append(begin)
            self.spans.append((begin, m.end(3), m.group(1), params))

    def at(self, offset: int) -> tuple[bytes, frozenset[bytes]] | None:
        """(macro, its parameters) whose parameter list or body holds ``offset``."""
        i = bisect.bisect_right(self.starts, offset) - 1
        if i >= 0 and offset < self.spans[i][1]:
            return self.spans[i][2], self.spans[i][3]
        return None


class _Visible:
    """The declarations of one name, by where they are visible: the innermost one around
    an offset is a bisect and a walk out through the ones around it."""

    def __init__(self, decls: list[M.Decl]) -> None:
        decls.sort(key=lambda d: (d.begin, -d.end))
        self.decls = decls
        self.begins = [d.begin for d in decls]
        self.parent: list[int] = []
        stack: list[int] = []
        for i, d in enumerate(decls):
            while stack and decls[stack[-1]].end <= d.begin:
                stack.pop()
            self.parent.append(stack[-1] if stack else -1)
            stack.append(i)

    def at(self, offset: int) -> M.Decl | None:
        i = bisect.bisect_right(self.begins, offset) - 1
        while i >= 0 and self.decls[i].end <= offset:
            i = self.parent[i]
        return self.decls[i] if i >= 0 else None


class FileSymbols:
    """The owner of every CUDA-spelled token of a file.

    ``src``: the file's bytes; ``code``: the same with comments and literals blanked; ``hits``: (offset, name) of its
    CUDA-spelled tokens in code, in order; ``api``: the API's namespaces (a qualifier
    naming one makes a name the API's); ``project``: (namespace, name) pairs other files
    of the run declare (a use inside that namespace reaches them); ``target``: the names
    the rules translate CUDA's into (read like CUDA's, so that a second translation
    decides as the first did)."""

    def __init__(self, src: bytes, code: bytes, hits: Iterable[tuple[int, bytes]],
                 skeleton: Skeleton,
                 api: frozenset[bytes], project: frozenset[tuple[bytes, bytes]] = frozenset(),
                 branches: BranchTree | None = None,
                 api_members: frozenset[bytes] = frozenset(),
                 target: frozenset[bytes] = frozenset()) -> None:
        self.code = code
        self.skeleton = skeleton
        self.api = api | namespace_aliases(code, api)
        self.macros = Macros(code)
        self.api_members = api_members
        self.refs: dict[int, M.Ref] = {}
        # offsets whose owner clang's AST set -> where the project declares it ("" for CUDA's)
        self.by_clang: dict[int, str] = {}
        self.decls: list[M.Decl] = []
        roles: list[tuple[int, bytes, Role]] = []
        by_name: dict[bytes, list[M.Decl]] = {}
        namespaced = set(project)  # (namespace, name) the project declares
        members: set[tuple[bytes, bytes]] = set()  # (class, name)
        hits = list(hits)
        for i, (start, name) in enumerate(hits):
            if start in self.macros.names:
                roles.append((start, name, Role(M.MACRO_NAME)))
                continue
            found = role(src, code, start, name, skeleton)
            if found.decl is not None and found.decl.kind in _GLOBAL and found.decl.namespace \
                    == b"" and not _unconditional(branches, start):
                # (a global name of its own under #if: the other branch may take CUDA's)
                found = Role(found.role)
            elif found.decl is not None and found.decl.kind == M.GLOBAL_ALIAS and \
                    _names_api_type(code, hits, i, skeleton):
                # (`using CUDA_ARRAY3D_DESCRIPTOR = CUDA_ARRAY3D_DESCRIPTOR_v2;`: CUDA's own
                # alias, copied: it stays the API's, renamed with it)
                found = Role(found.role)
            roles.append((start, name, found))
            decl = found.decl
            if decl is not None:
                self.decls.append(decl)
                by_name.setdefault(name, []).append(decl)
                if decl.kind in (M.FUNCTION, M.VARIABLE, M.TYPE, M.ALIAS, M.ENUMERATOR_DECL) \
                        and decl.namespace and not decl.owner_class:
                    namespaced.add((decl.namespace, name))
                if decl.owner_class:
                    members.add((decl.owner_class, name))
        # (the last component of a declaration's namespace or its class -> it, for
        # `detail::name` and `Class::name`)
        self._qualified = {((d.owner_class or d.namespace.rpartition(b"::")[2]), d.name): d
                           for d in self.decls if d.owner_class or d.namespace}
        self._visible = {name: _Visible(found) for name, found in by_name.items()}
        self._namespaced = frozenset(namespaced)
        self._names_in_namespaces = frozenset(n for _, n in namespaced)
        self._declaring: dict[bytes, list[bytes]] = {}  # name -> namespaces declaring it
        for ns, n in namespaced:
            self._declaring.setdefault(n, []).append(ns)
        self._members = frozenset(members)
        self._member_names = frozenset(n for _, n in members)
        self._using = self._using_directives() if self._names_in_namespaces else {}
        # the project's overloads of CUDA functions for its own types (global declarations
        # with a parameter of such a type)
        self.callee = Callee(code, skeleton, frozenset(n for _, n in hits), target)
        overloaded: set[int] = set()
        for start, name, found in roles:
            if found.role == M.DECLARATOR and found.decl is None \
                    and skeleton.namespace_at(start) == b"" and skeleton.kind_at(start) in (
                        None, EXTERN) and self.callee.declare(name, start):
                overloaded.add(start)
        for start, name, found in roles:
            if start in overloaded:
                self.refs[start] = M.Ref(start, name, M.DECLARATOR, M.PROJECT,
                                         "the project's overload for its own type")
                continue
            self.refs[start] = self._resolve(start, name, found)
            if found.role == M.CALL and self.callee.overloads and name in self.callee.overloads \
                    and self.refs[start].owner != M.PROJECT:
                self.refs[start] = self._overloaded_call(self.refs[start])

    def adopt_clang(self, shadowed: dict[int, str], resolved: set[int]) -> None:
        """Take clang's answers where it parsed the file: a token clang binds to a
        declaration of the project's (``shadowed``: offset -> where declared) is the
        project's, one it binds to CUDA's headers (``resolved``) is the API's, whatever the
        text suggested; tokens clang did not bind (inactive branches, macro bodies never
        expanded, undeclared names) keep the lexical answer. Called before the passes, so
        nothing is edited and withdrawn after them."""
        for start, ref in self.refs.items():
            where = shadowed.get(start)
            if where is not None:
                role = M.CALL if ref.role == M.UNDECIDED_CALL else ref.role
                self.refs[start] = ref._replace(role=role, owner=M.PROJECT,
                                                why=f"clang: declared at {where}")
                self.by_clang[start] = where
            elif start in resolved and (ref.owner != M.API or ref.role == M.UNDECIDED_CALL):
                role = M.CALL if ref.role == M.UNDECIDED_CALL else ref.role
                self.refs[start] = ref._replace(role=role, owner=M.API, why="", decl=None)
                self.by_clang[start] = ""

    # -- queries ----------------------------------------------------------------------

    def ref(self, offset: int) -> M.Ref | None:
        return self.refs.get(offset)

    def owner(self, offset: int) -> str:
        r = self.refs.get(offset)
        return r.owner if r is not None else M.UNDECIDED

    def is_project(self, offset: int) -> bool:
        return self.owner(offset) == M.PROJECT

    def project_refs(self) -> list[M.Ref]:
        return [r for r in self.refs.values() if r.owner == M.PROJECT]

    def undecided_calls(self) -> list[M.Ref]:
        """Calls of a CUDA function the project overloads whose arguments do not tell
        which one they reach: left as written, with a warning."""
        return [r for r in self.refs.values() if r.role == M.UNDECIDED_CALL]

    def opaque_refs(self) -> list[M.Ref]:
        """References that need nothing of a type but its name (:attr:`Ref.opaque`)."""
        return [r for r in self.refs.values() if r.owner != M.PROJECT and r.opaque]

    def references_to(self, decl: M.Decl) -> list[M.Ref]:
        return [r for r in self.refs.values() if r.decl is decl]

    # -- building ---------------------------------------------------------------------

    def _resolve(self, start: int, name: bytes, found: Role) -> M.Ref:
        macro = self.macros.at(start)
        macro_name = macro[0] if macro is not None else b""
        if macro is not None and name in macro[1]:
            return M.Ref(start, name, M.MACRO_BODY, M.PROJECT, "a macro parameter",
                         macro=macro_name)
        r = found.role
        if found.decl is not None:
            # (a forward declaration is opaque: whose it is follows from what the target
            # has of the name, see Ref.opaque)
            owner = M.UNDECIDED if found.decl.kind == M.FORWARD_DECLARATION else M.PROJECT
            return M.Ref(start, name, r, owner, _why_declared(found.decl), found.decl,
                         macro_name)
        if r == M.MEMBER:
            if name in self.api_members:  # (a framework's class: `t.is_cuda()`)
                return M.Ref(start, name, r, M.API, macro=macro_name)
            return M.Ref(start, name, r, M.PROJECT, "a member", macro=macro_name)
        if r == M.QUALIFIED:
            q = found.qualifier
            if q and q not in self.api:
                decl = self._qualified.get((q, name))
                if decl is not None:  # (one decision per declaration)
                    return M.Ref(start, name, r, M.PROJECT, _why_declared(decl), decl,
                                 macro_name)
                return M.Ref(start, name, r, M.PROJECT, f"qualified by {q.decode()}::",
                             macro=macro_name)
            return M.Ref(start, name, r, M.UNDECIDED, macro=macro_name)
        if r in (M.MACRO_NAME, M.DECLARATOR, M.OPAQUE_POINTER):
            return M.Ref(start, name, r, M.UNDECIDED, macro=macro_name)
        decl = self._lookup(start, name)
        if decl is not None:
            owner = M.UNDECIDED if decl.kind == M.FORWARD_DECLARATION else M.PROJECT
            return M.Ref(start, name, r, owner, _why_declared(decl), decl, macro_name)
        why = self._namespace_lookup(start, name)
        if why:
            return M.Ref(start, name, r, M.PROJECT, why, macro=macro_name)
        return M.Ref(start, name, r, M.UNDECIDED, macro=macro_name)

    def _overloaded_call(self, ref: M.Ref) -> M.Ref:
        """A call of a CUDA function the project overloads: the project's when its
        arguments reach the overload, left undecided (and marked) when no shape tells."""
        whose, overload = self.callee.call(ref.name, ref.start)
        if whose == PROJECT_CALL:
            return ref._replace(owner=M.PROJECT, why="a call of the project's overload for "
                                "its own type")
        if whose == UNDECIDED_CALL:
            return ref._replace(role=M.UNDECIDED_CALL)
        return ref

    def _lookup(self, start: int, name: bytes) -> M.Decl | None:
        visible = self._visible.get(name)
        if visible is None:
            return None
        decl = visible.at(start)
        if decl is not None and decl.kind not in _SCOPES and (
                self.code[start + len(name):start + len(name) + 8].lstrip().startswith(b"::")
                or self.code[max(0, start - 16):start].rstrip().endswith(b"namespace")):
            return None  # (`cub::X`, `using namespace cub`: a namespace's or a type's name)
        if decl is not None and decl.kind in (M.LOCAL, M.VARIABLE, M.FORWARD_DECLARATION,
                                              M.ALIAS, M.TYPE, M.FUNCTION, M.GLOBAL_ALIAS,
                                              M.GLOBAL_VARIABLE) \
                and not decl.owner_class and decl.at > start:
            return None  # (a block's name is visible from its declaration on)
        return decl

    def _namespace_lookup(self, start: int, name: bytes) -> str:
        """What makes ``name`` at ``start`` a namespace's or class's name of the project:
        the namespace around it declares it (here or in another file of the run), a
        using-directive brings it in, or the function around it is a member of a class
        that declares it."""
        skeleton = self.skeleton
        if name in self._names_in_namespaces:
            ns = skeleton.namespace_at(start)
            while ns:
                if (ns, name) in self._namespaced:
                    return f"declared in namespace {ns.decode()}"
                ns = ns.rpartition(b"::")[0]
            used = self._using_before(start, name)
            if used:
                return f"declared in namespace {used.decode()}, used here"
        if name in self._member_names:
            i = skeleton.at(start)
            while i >= 0:
                b = skeleton.blocks[i]
                if b.kind == FUNCTION and b"::" in b.name:
                    owner = b.name.rpartition(b"::")[0].rpartition(b"::")[2]
                    if (owner, name) in self._members:
                        return f"a member of {owner.decode()}"
                    break
                i = b.parent
        return ""

    def _using_directives(self) -> dict[tuple[int, bytes], int]:
        """(block, namespace) -> offset of the first ``using namespace`` of it in that
        block."""
        out: dict[tuple[int, bytes], int] = {}
        if b"using" not in self.code:
            return out
        for m in _USING_NAMESPACE.finditer(self.code):
            ns = re.sub(rb"\s+", b"", m.group(1)).lstrip(b":")
            out.setdefault((self.skeleton.at(m.start()), ns), m.start())
        return out

    def _using_before(self, start: int, name: bytes) -> bytes:
        """A namespace declaring ``name`` that a using-directive before ``start``, in a
        block around it, brings in; b"" if none."""
        if not self._using:
            return b""
        chain = self.skeleton.chain(self.skeleton.at(start)) + [-1]
        for ns in self._declaring.get(name, ()):
            for block in chain:
                if self._using.get((block, ns), start) < start:
                    return ns
        return b""


_GLOBAL = (M.GLOBAL_ALIAS, M.GLOBAL_VARIABLE, M.FORWARD_DECLARATION, M.TYPE, M.ENUMERATOR_DECL)
_SCOPES = (M.TYPE, M.ALIAS, M.GLOBAL_ALIAS, M.FORWARD_DECLARATION, M.TEMPLATE_PARAMETER_DECL)


def _names_api_type(code: bytes, hits: list[tuple[int, bytes]], i: int,
                    skeleton: Skeleton) -> bool:
    """Whether the alias declared at hit ``i`` names another CUDA-spelled type other than
    through an elaborated, opaque ``struct X*`` (the hits up to the alias's ``;``)."""
    start = hits[i][0]
    end = code.find(b";", start, start + 400)
    if end < 0:
        return False
    low = max(0, start - 400)
    begin = max(code.rfind(b";", low, start), code.rfind(b"{", low, start),
                code.rfind(b"}", low, start)) + 1  # (a typedef names its type before)
    j = i
    while j > 0 and hits[j - 1][0] >= begin:
        j -= 1
    for k in range(j, len(hits)):
        at = hits[k][0]
        if at >= end:
            break
        if k == i:
            continue
        before = code[max(0, at - 16):at].rstrip()
        if not before.endswith((b"struct", b"class", b"union", b"enum")):
            return True
    return False


def _unconditional(branches: BranchTree | None, offset: int) -> bool:
    """Whether ``offset`` stands in no ``#if`` branch but a header's include guard (the
    file's first group, opened by ``#ifndef``/``#if !defined`` and closed by its last
    directive)."""
    if branches is None or not branches.branches:
        return True
    path = branches.path(offset)
    if not path:
        return True
    if len(path) > 1 or path[0] != 0:
        return False
    first = branches.branches[0]
    group = branches.groups[0]
    last = branches.branches[-1].end if branches.branches else -1
    return len(group.branches) == 1 and group.endif >= 0 and \
        (first.word == b"ifndef" or branches.condition(0).lstrip().startswith(b"!")) and \
        all(g.endif <= group.endif for g in branches.groups) and last <= group.endif


def _why_declared(decl: M.Decl) -> str:
    if decl.owner_class:
        return f"a member of {decl.owner_class.decode()}" if decl.kind != M.ENUMERATOR_DECL \
            else f"an enumerator of {decl.owner_class.decode()}"
    where = f" in namespace {decl.namespace.decode()}" if decl.namespace else ""
    article = "an" if decl.kind[:1] in "aeiou" else "a"
    return f"declared as {article} {decl.kind}{where}"
