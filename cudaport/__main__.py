"""``python -m cudaport`` runs the CLI."""

from .cli.entry import main

main()
