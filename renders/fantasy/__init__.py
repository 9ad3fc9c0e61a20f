"""Pictures of Warhammer Fantasy results (cannon, bolt thrower, stone thrower, fire thrower) and the
units they land on. May import engine records, renders.canvas and drawing libraries only."""
