"""Campaign play: /settings, /campaign, /battle and /machine (commands.py), roster machines behind
/fire machine: (machines.py), and how they read (words.py). May import cogs.common, engine, renders.campaign, storage."""
