"""``python -m cudaport`` runs the CLI."""

from .entry import main

main()
