"""The command line: click commands over the run and the public API."""
