"""How Warhammer 40,000 results read: embeds, summaries and --json fields, pure functions of engine
records. May import engine and cogs.common.replies only."""
