"""Renderers of translation results: they format, they never compute findings."""
