"""/roll and /log: any dice of the games and the channel's verifiable roll log, with how they read in
words/. May import cogs.common, engine, storage."""
