"""The `specsnap` command line (click): `main` parses, calls the library, maps results to exit
codes; `progress` shows a run as it goes."""
