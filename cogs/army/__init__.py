"""Army lists: /army import, list, show and remove (commands.py), and how lists read (words.py).
The roster reader is engine/roster.py, the store storage/armies.py, and ``target:`` on the game
commands cogs/common/target.py."""
