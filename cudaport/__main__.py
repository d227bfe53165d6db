"""``python -m cudaport`` runs the CLI."""

from .cli import main

main()
