"""cudaport: port CUDA C++ to other GPU back ends (HIP first), edit by edit."""

__version__ = "0.1.0"

from .options import Options  # noqa: E402
from .translate import InputError, Result, translate_bytes, translate_source  # noqa: E402

__all__ = ["InputError", "Options", "Result", "__version__", "translate_bytes", "translate_source"]
