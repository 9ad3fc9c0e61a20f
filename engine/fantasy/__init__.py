"""Warhammer Fantasy Battles: war machines and the rolls around them. Inches throughout."""
