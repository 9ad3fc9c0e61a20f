"""The rules of Bombardier: pure functions over frozen records.

Nothing here does I/O, talks to Discord or draws global randomness: chance comes in through a
:class:`engine.dice.Dice` source and every procedure returns a frozen record holding each die it
rolled and every figure it derived.
"""
