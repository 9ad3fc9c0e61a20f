"""/rules and /help: look up any rule, profile or chart of the three games (commands.py), and how an
answer reads (words.py). May import cogs.common, config, storage.rules_index."""
