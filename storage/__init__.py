"""What lasts between commands, in one SQLite file (see storage/database.py), and the rules
index built in memory when the bot starts (storage/rules_index.py)."""
