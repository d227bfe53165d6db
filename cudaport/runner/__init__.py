"""Running the pipeline over many files: writing outputs (``io``)."""
