"""How /roll and the roll log read: embeds, summaries and --json fields, pure functions of engine and
storage records. May import engine, storage records and cogs.common.replies."""
