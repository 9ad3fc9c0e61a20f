"""The offline console: an adapter beside Discord that walks the same app_commands tree the bot
registers, prints the reply as text or --json and writes the picture. May import cogs, config, storage."""
