"""Warhammer 40,000 (3rd edition trial vehicle rules): vehicles and ordnance, in inches. Pure functions
over frozen records; imports only engine modules and numpy."""
