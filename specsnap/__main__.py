"""`python -m specsnap` is the `specsnap` command."""

from specsnap.cli import main

main()
