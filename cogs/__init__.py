"""Discord adapters: a package per game area (fantasy, warmaster, wh40k, campaign, dice, rules), each
holding thin command callbacks and, in words/, how results read. May import engine, renders, storage, config."""
