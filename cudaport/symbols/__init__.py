"""Whose name is this: one model of a file's scopes, declarations and references to
CUDA-spelled names, built once per file and consulted by every pass."""
