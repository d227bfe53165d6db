"""The project around a file: its roots, the walk, ignores, configuration and compile database."""
