"""cudaport: port CUDA C++ to other GPU back ends (HIP first), edit by edit."""

from .options import Options
from .translate.pipeline import InputError, Result, translate_bytes, translate_source
from .version import __version__

__all__ = ["InputError", "Options", "Result", "__version__", "translate_bytes", "translate_source"]
