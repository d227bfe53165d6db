"""The package version, in a module of its own so any module can read it without
importing the package's public API (and through it the translator)."""

__version__ = "0.1.0"
