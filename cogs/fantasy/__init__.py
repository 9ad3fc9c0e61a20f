"""Warhammer Fantasy commands (/fire, /misfire, /shoot, /breath, /combat) and, in words/, how their
results read. May import cogs.common, engine, renders.fantasy, config, storage."""
