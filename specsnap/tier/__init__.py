"""The tier: its model, loading, seeded values and their draw, prompts, reference solutions, module
boundaries (wiring.yaml) and mutants."""
