"""Warhammer 40,000 (3rd edition trial vehicle rules): vehicles and ordnance, in inches."""
