"""Warhammer 40,000 commands: /40k vehicles and ordnance (vehicles.py) and, in words/, how they read.
May import cogs.common, engine, renders.wh40k, config."""
