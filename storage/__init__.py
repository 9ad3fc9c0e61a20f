"""What lasts between commands, in one SQLite file (see storage/database.py)."""
