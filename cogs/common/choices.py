"""Fixed values offered by autocomplete instead of Discord choices.

Discord counts every choice's name and value towards a command's 4,000 schema characters; a
short list repeated on every subcommand (a unit's facing, its base width) is cheaper offered by
autocomplete. :func:`offer` builds that autocomplete; it keeps the values on the callback
(``.offered``) so ``bot.py commands --json`` still lists them as the option's choices. Discord
does not hold an autocompleted option to its list, so the command checks the value itself (a
RulesError naming the values).
"""

from __future__ import annotations

from collections.abc import Iterable

from discord.app_commands import Choice


def offer(values: Iterable[str | int]):
    """An autocomplete offering `values`: those starting with what is typed, else all of them."""
    offered = tuple(Choice(name=str(v), value=v) for v in values)

    async def complete(interaction, current: str) -> list[Choice]:
        typed = str(current).strip().lower()
        return [c for c in offered if c.name.lower().startswith(typed)] or list(offered)

    complete.offered = offered
    return complete


RETIRED = "bombardier.retired_options"
"""``Command.extras`` key: options a command no longer offers Discord, still read by the console
so that scripts written against it keep working. Maps the old option's name to the option and
value that say the same when it was ``true``: ``{"war_machine": ("troop", "war-machine")}``
(``/combat attacks`` gave its 25th option to Frenzy: the target's troop type already says it)."""
