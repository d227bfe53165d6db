"""Extensible launches (``cudaLaunchKernelEx``/``ExC``): the attribute value's member and the
attributes the target refuses.

The rules rename the launch to the portable header's ``cudaport_launch_kernel_ex`` (which
leaves out the attributes that do not change what a launch computes) and the programmatic
dependent launch id to the header's constant. Two things remain that no rename reaches,
both facts in the target's ``launch_ex`` block (rules/<target>/target.yaml):

- a member of the attribute's value the target's union lacks
  (``attrs[0].val.programmaticStreamSerializationAllowed = on;``) is renamed to a member of
  the same type (``members``), wherever the attribute id it belongs to is ported;
- a launch in a file that names an attribute the target refuses in a launch (any
  ``cudaLaunchAttribute*`` id outside ``accepted``) gets CP172, naming those attributes: the
  launch returns an error and runs nothing where such an attribute is set.
"""

from __future__ import annotations

import re

from ...symbols import scopes
from ..context import FileContext
from ...source.edits import Edit
from .registry import register


@register(31, "launch-ex")
def launch_ex(ctx: FileContext) -> None:
    facts = ctx.compiled.target.extra.get("launch_ex")
    if not facts:
        return
    lookup = ctx.compiled.identifiers
    _rename_members(ctx, facts, lookup)
    launches = {n.encode() for n in facts.get("launches", ())}
    if not ctx.names & launches:
        return
    prefix = facts.get("attribute_prefix", "").encode()
    skip = {n.encode() for n in facts.get("accepted", ()) + facts.get("not_attributes", ())}
    refused = list(dict.fromkeys(
        name for _start, name, where in ctx.scan.idents
        if where == "code" and prefix and name.startswith(prefix) and name not in skip))
    if not refused:
        return
    names = ", ".join(n.decode() for n in refused)
    title = ctx.compiled.target.title
    for start, name, where in ctx.scan.idents:
        if where == "code" and name in launches and lookup[name].renames:
            ctx.find("CP172", start, f"{name.decode()}: this file sets launch attribute "
                     f"{names}, which {title}'s launch refuses: where one is in the launch's "
                     "attrs, the call returns an error and the kernel does not run; leave it "
                     "out of attrs/numAttrs", name.decode(), "runtime")


def _rename_members(ctx: FileContext, facts: dict, lookup) -> None:
    for member, how in (facts.get("members") or {}).items():
        word = member.encode()
        if word not in ctx.src or not lookup[how["with"].encode()].renames:
            continue
        code = ctx.code
        for m in re.finditer(rb"(?<![\w$])" + re.escape(word) + rb"(?![\w$])", code):
            if scopes.is_member(code, m.start()):
                ctx.edits.append(Edit(m.start(), m.end(), how["to"].encode(),
                                      f"{ctx.compiled.target.name}/launch-ex"))
