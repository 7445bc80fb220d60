"""Agent adapters: the registry (base), the CLI adapters, `command`, and the controls."""
