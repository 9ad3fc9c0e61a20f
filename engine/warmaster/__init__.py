"""Warmaster (seeds 001 and 002): artillery, machines and sieges, in centimetres. Pure functions over
frozen records; imports only engine modules and numpy."""
