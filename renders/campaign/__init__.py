"""The /battle status board: turn track, machines and the channel's siege.
May import renders.canvas and drawing libraries only."""
