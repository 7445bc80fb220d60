"""The GitHub Action's glue: settings from the environment → the library → outputs and exit code.

Nothing here decides anything about scores or publishing; see `specsnap.runs`,
`specsnap.publish` and `specsnap.bot` for the behaviour.
"""
