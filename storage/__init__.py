"""State and indexes kept by the bot: sqlite-utils (the rules index so far)."""
