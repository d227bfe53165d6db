"""Rule tables: loading, validation, caching and per-options compilation."""

from .compiled import Compiled, get_compiled, offload_arch
from .loader import default_rules_root, load_table, target_names
from .model import Entry, HeaderEntry, Mapping, Table, TargetInfo
from .schema import RuleError

__all__ = [
    "Compiled", "Entry", "HeaderEntry", "Mapping", "RuleError", "Table", "TargetInfo",
    "default_rules_root", "get_compiled", "load_table", "offload_arch", "target_names",
]
