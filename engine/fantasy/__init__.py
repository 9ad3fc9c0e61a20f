"""Warhammer Fantasy Battles: war machines and the rolls around them, in inches. Pure functions over
frozen records; imports only engine modules and numpy."""
