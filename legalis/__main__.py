"""``python -m legalis`` runs the CLI."""

from legalis.cli import main

main()
