"""Bytes to tokens, literals, edits and line maps: no C++ meaning."""
