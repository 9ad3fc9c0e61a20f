"""The /odds picture: a target shaded by each model's chance of being hit, and bars of the
outcomes. May import renders.canvas and engine."""
