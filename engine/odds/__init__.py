"""The odds of a shot before it is taken (``/odds``), from the same procedures the referee runs.

:mod:`engine.odds.enumeration` drives a procedure with every combination of dice it can ask for
(exact, as fractions: the scatter die's hit and its 360 whole-degree directions included) or, past
a budget of combinations, with many seeded throws (an estimate with its standard error). No second model
of the rules: the procedure is the engine's own."""
