"""Stage II: the stage a run plays, the perturbations between sessions, the ticket tracker that
is their recovery channel, and the checks `tiers validate` makes of a tier's Stage II material."""
