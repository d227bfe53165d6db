"""Translating one file: the pipeline, its context, the passes and what they share."""
