"""The command plumbing every cog shares: the reply path and its errors, the dice source, the roll log
wiring, permissions and the buttons on results. May import engine, storage and config; never a game package."""
