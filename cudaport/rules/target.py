"""Read and validate a target's ``target.yaml`` into a :class:`TargetInfo`."""

from __future__ import annotations

import re
from pathlib import Path

from . import schema as S
from .schema import yaml
from .model import TargetInfo, VariantGroup


def decode(path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise S.RuleError(path, line, "rule files must be UTF-8") from None


def read_target(path: Path, data: bytes) -> TargetInfo:
    p = str(path)
    node = S.compose(path, decode(path, data))
    if node is None:
        raise S.RuleError(p, 1, "target.yaml is empty")

    def variants(pth: str, n: yaml.Node, what: str) -> dict[str, VariantGroup]:
        groups = {}
        for gname, gnode, at in S.mapping(pth, n, what):
            g = S.fields(pth, gnode, f"{what}.{gname}", {
                "libraries": lambda a, b, c: S.string_list(a, b, c),
                "default": S.text,
                "choices": lambda a, b, c: S.string_list(a, b, c),
            }, required=("libraries", "default", "choices"))
            if g["default"] not in g["choices"]:
                raise at.error(f"{what}.{gname}: default {g['default']!r} is not among the choices")
            groups[gname] = VariantGroup(gname, tuple(g["libraries"]), g["default"],
                                         tuple(g["choices"]))
        return groups

    def launch(pth: str, n: yaml.Node, what: str) -> dict[str, str]:
        return S.fields(pth, n, what, {"function": S.identifier, "template_wrapper": S.identifier})

    def extensions(pth: str, n: yaml.Node, what: str) -> dict[str, str]:
        return {k: S.scalar(pth, v, f"{what}.{k}") for k, v, _ in S.mapping(pth, n, what)}

    def patterns(pth: str, n: yaml.Node, what: str) -> list[str]:
        out = S.string_list(pth, n, what)
        for item in out:
            try:
                re.compile(item)
            except re.error as exc:
                raise S.where(pth, n).error(f"{what}: bad regular expression {item!r}: {exc}")
        return out

    def integer(pth: str, n: yaml.Node, what: str) -> int:
        value = S.scalar(pth, n, what)
        if not value.isdigit():
            raise S.where(pth, n).error(f"{what} must be a whole number")
        return int(value)

    def patterns_one(pth: str, n: yaml.Node, what: str) -> str:
        text = S.text(pth, n, what)
        try:
            re.compile(text)
        except re.error as exc:
            raise S.where(pth, n).error(f"{what}: bad regular expression {text!r}: {exc}")
        return text

    def macro_list(pth: str, n: yaml.Node, what: str) -> list[str]:
        if not isinstance(n, yaml.SequenceNode):
            raise S.where(pth, n).error(f"{what}: expected a list of macro names")
        return [S.identifier(pth, item, what) for item in n.value]

    def companions(pth: str, n: yaml.Node, what: str) -> dict[str, list[str]]:
        if not isinstance(n, yaml.MappingNode):
            raise S.where(pth, n).error(f"{what}: expected a mapping of header: [names]")
        return {S.header(pth, k, what): S.string_list(pth, v, what) for k, v in n.value}

    def retired(pth: str, n: yaml.Node, what: str) -> dict[str, dict[str, str]]:
        out = {}
        for name, node, _at in S.mapping(pth, n, what):
            out[name] = S.fields(pth, node, f"{what}.{name}", {"until": S.version,
                                                                "now": S.identifier},
                                 required=("until", "now"))
        return out

    def macro_values(pth: str, n: yaml.Node, what: str) -> dict[str, int]:
        out = {}
        for name, node, _at in S.mapping(pth, n, what):
            out[name] = integer(pth, node, f"{what}.{name}")
        return out

    def library_versions(pth: str, n: yaml.Node, what: str) -> dict[str, dict[str, int]]:
        out = {}
        for name, node, _at in S.mapping(pth, n, what):
            values = {}
            for version, value, at in S.mapping(pth, node, f"{what}.{name}"):
                if not S.VERSION.match(version):
                    raise at.error(f"{what}.{name}: {version!r} is not a version like 7.2.0")
                values[version] = integer(pth, value, f"{what}.{name}.{version}")
            out[name] = values
        return out

    def function_macros(pth: str, n: yaml.Node, what: str) -> dict[str, tuple]:
        out = {}
        for name, node, _at in S.mapping(pth, n, what):
            d = S.fields(pth, node, f"{what}.{name}", {
                "params": lambda a, b, c: S.string_list(a, b, c, S.identifier),
                "body": S.text}, required=("params", "body"))
            out[name] = (tuple(d["params"]), d["body"])
        return out

    def anything(pth: str, n: yaml.Node, what: str) -> object:
        # (the node's values as the safe loader makes them, without writing the node
        # out as YAML and reading it back: that cost a one-file check 20 ms)
        return yaml.constructor.SafeConstructor().construct_document(n)

    def absent_headers(pth: str, n: yaml.Node, what: str) -> dict[str, dict[str, str]]:
        out = {}
        for name, node, _at in S.mapping(pth, n, what):
            out[name] = S.fields(pth, node, f"{what}.{name}", {
                "component": S.text, "why": S.text, "instead": S.text},
                required=("component", "why"))
        return out

    def integer_handles(pth: str, n: yaml.Node, what: str) -> dict[str, dict[str, str]]:
        out = {}
        for name, node, _at in S.mapping(pth, n, what):
            out[name] = S.fields(pth, node, f"{what}.{name}", {
                "cuda": S.text, "to": S.identifier, "target": S.text},
                required=("cuda", "to", "target"))
        return out

    spec = {
        "name": S.identifier, "title": S.text, "description": S.text,
        "aliases": lambda a, b, c: S.string_list(a, b, c), "version": S.version,
        "newest_described": S.version,
        "warp_size": integer, "main_header": S.header, "launch": launch,
        "extensions": extensions, "variants": variants, "unknown_patterns": patterns,
        "source": S.text, "compiler": anything, "header_extensions": anything,
        "experimental": S.boolean, "warp_sizes": anything,
        "unknown_libraries": extensions, "hazards": anything, "launch_ex": anything,
        "platform_macros": macro_list, "platform_macro_pattern": patterns_one,
        "portable_guards": lambda a, b, c: S.string_list(a, b, c),
        "portable_headers": lambda a, b, c: S.string_list(a, b, c),
        "portable_prefixes": lambda a, b, c: S.string_list(a, b, c),
        "api_namespaces": lambda a, b, c: S.string_list(a, b, c),
        "main_header_companions": companions, "struct_tags": extensions,
        "library_companions": companions, "library_brings": anything,
        "dim3_needs_fields": lambda a, b, c: S.string_list(a, b, c),
        "host_only_runtime": lambda a, b, c: S.string_list(a, b, c),
        "predefined_macros": macro_list, "compiler_macros": macro_list,
        "cuda_version_macros": macro_list,
        "cuda_arch_macros": macro_list, "cuda_arch_macro_pattern": patterns_one,
        "cuda_compiler_macros": macro_list,
        "retired_macros": retired, "header_macros": macro_list,
        "cuda_version_values": macro_values, "gate_macro": S.identifier,
        "device_gate_macro": S.identifier, "gate_facts": S.text,
        "library_version_macros": library_versions, "function_macros": function_macros,
        "device_printf_global": S.boolean, "offload_arch": S.text,
        "absent_headers": absent_headers, "integer_handles": integer_handles,
    }
    d = S.fields(p, node, "target", spec, required=("name", "main_header"))
    if d["name"] != path.parent.name:
        raise S.where(p, node).error(
            f"target name {d['name']!r} differs from its folder {path.parent.name!r}")
    launch_d = d.get("launch", {})
    return TargetInfo(
        name=d["name"], title=d.get("title", d["name"]), aliases=tuple(d.get("aliases", ())),
        version=d.get("version"), warp_size=d.get("warp_size", 32),
        main_header=d["main_header"], launch_function=launch_d.get("function"),
        launch_template_wrapper=launch_d.get("template_wrapper"),
        extensions=d.get("extensions", {}), variant_groups=d.get("variants", {}),
        unknown_patterns=tuple(d.get("unknown_patterns", ())),
        extra={k: d[k] for k in ("compiler", "header_extensions", "description", "source",
                                 "experimental", "warp_sizes", "unknown_libraries", "hazards", "launch_ex",
                                 "platform_macros", "platform_macro_pattern",
                                 "portable_guards", "portable_headers", "portable_prefixes",
                                 "api_namespaces", "main_header_companions", "struct_tags",
                                 "library_companions", "library_brings",
                                 "dim3_needs_fields", "host_only_runtime",
                                 "predefined_macros", "compiler_macros", "header_macros",
                                 "cuda_version_macros", "cuda_arch_macros",
                                 "cuda_compiler_macros",
                                 "cuda_arch_macro_pattern", "retired_macros",
                                 "cuda_version_values", "gate_macro",
                                 "device_gate_macro", "gate_facts",
                                 "library_version_macros", "function_macros",
                                 "device_printf_global", "offload_arch", "absent_headers",
                                 "integer_handles")
               if k in d},
        newest_described=d.get("newest_described"),
    )
