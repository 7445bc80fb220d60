"""`python -m specsnap` is the `specsnap` command."""

from specsnap.cli.main import main

main()
