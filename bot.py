"""Bombardier: a Discord referee for tabletop war machines.

    python bot.py                 Discord when DISCORD_TOKEN is set, else the offline console
    python bot.py play [--json] [--details] [--seed N] ["/fire cannon distance:30"]
    python bot.py commands [--json | --markdown]
    python bot.py verify <export.json> [--head HASH]   check a roll log export (exit 0 ok, 1 failed,
                                  2 unreadable); needs only Python's standard library
    python bot.py migrate-store --from data/bombardier.sqlite3 --to postgresql://... [--replace]
                                  copy the SQLite store into PostgreSQL, counted and verified

:func:`create_bot` builds the configured bot without connecting (tests and the Discord stand-in
use it).
"""

from __future__ import annotations

import sys

if __name__ == "__main__" and sys.argv[1:2] == ["verify"]:
    # Before discord.py, numpy and the database are imported: a player checks a log with a
    # plain Python (console/verify.py).
    from console.verify import main as _verify

    sys.exit(_verify(sys.argv[2:]))

import argparse
import asyncio
import gc
import logging
import logging.handlers
import os
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import cached_property

import aiohttp
import discord
import numpy as np
from discord import app_commands
from discord.ext import commands

from cogs.common import ledger, render_pool
from cogs.common.dice_source import odds_dice, serving
from cogs.common.replies import APOLOGY, received, send_error, stored
from config.settings import Settings, SettingsError, load_settings
from engine.dice import Dice, RandomDice
from engine.errors import RulesError
from storage import claims
from storage.database import Store, StoreError
from storage.migrations import is_database_error, open_store, unusable_store

log = logging.getLogger("bombardier")

EXTENSIONS = (
    "cogs.fantasy.fire", "cogs.fantasy.shoot", "cogs.fantasy.combat",
    "cogs.warmaster.wm", "cogs.warmaster.siege",
    "cogs.wh40k.vehicles",
    "cogs.dice.roll", "cogs.rules.commands", "cogs.campaign.commands", "cogs.army.commands", "cogs.odds.commands",
    "cogs.common.buttons",
)

COMMAND_EXTENSIONS: dict[str, tuple[str, ...]] = {
    "fire": ("cogs.fantasy.fire",), "misfire": ("cogs.fantasy.fire",),
    "shoot": ("cogs.fantasy.shoot",), "breath": ("cogs.fantasy.shoot",),
    "combat": ("cogs.fantasy.combat",),
    "wm": ("cogs.warmaster.wm",), "siege": ("cogs.warmaster.siege",),
    "40k": ("cogs.wh40k.vehicles",),
    "roll": ("cogs.dice.roll",), "log": ("cogs.dice.roll",),
    "rules": ("cogs.rules.commands",),
    "settings": ("cogs.campaign.commands",), "campaign": ("cogs.campaign.commands",),
    "battle": ("cogs.campaign.commands",), "machine": ("cogs.campaign.commands",),
    "army": ("cogs.army.commands",),
    "odds": EXTENSIONS[:-1],  # it reads any command line, so it knows every command (and says which have no odds)
}
"""The extension that defines each top-level command, so the console's one-shot ``play`` loads
only what its command needs (every cog costs start-up time). A command that walks the whole tree
(/help) or is not listed loads them all; tests/test_startup.py checks this map against the tree.
The buttons extension is always loaded: it adds the buttons every reply may carry."""


class BombardierTree(app_commands.CommandTree):
    """The command tree, with the one error handler every command shares."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        serving.set(interaction)  # the dice of this task's command know whom they roll for
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, RulesError):
            await send_error(interaction, str(original))
            return
        if isinstance(original, StoreError):  # the database is away or busy: say so, nothing was saved
            log.warning("command /%s: %s", interaction.command.qualified_name if interaction.command else "?", original)
            await send_error(interaction, str(original), failure=True)
            return
        if isinstance(error, app_commands.TransformerError):
            await send_error(interaction, f"'{error.value}' is not a valid {error.type.name} here.")
            return
        if isinstance(error, app_commands.CheckFailure):
            await send_error(interaction, "You cannot use this command here.")
            return
        name = interaction.command.qualified_name if interaction.command else "?"
        log.error("command /%s failed", name, exc_info=(type(original), original, original.__traceback__))
        await send_error(interaction, APOLOGY, failure=True)


class BombardierBot(commands.AutoShardedBot):
    """The bot, given its settings; extensions are loaded in :meth:`setup_hook`.

    Sharded as the settings say (issue 15): by default one process runs every shard Discord
    recommends; ``shard_count`` and ``shard_ids`` (or ``BOMBARDIER_SHARDS=0-3/8``) give this process
    some of them, the other processes the rest, all sharing one PostgreSQL store (docs/hosting.md)."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(
            shard_count=settings.shard_count,
            shard_ids=None if settings.shard_ids is None else list(settings.shard_ids),
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=BombardierTree,
            help_command=None,
            # No message pings anyone unless it says so itself (issue 19): a mention in an embed
            # or in text a player typed shows as a name and notifies nobody.
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self._seeds = np.random.default_rng(settings.dice_seed)
        self.claims_holder: str | None = None
        """This process's name in the store's claims (storage/claims.py), when it claims each
        interaction and leases its shards (``run_discord``); None: it answers everything it gets."""
        self._claiming: set[asyncio.Task] = set()
        self._claims_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bombardier-claims")
        """The claims' own threads: a claim never waits behind the commands' store calls (asyncio's
        default executor), nor they behind claims stuck on a store that is away."""
        self._heartbeat: asyncio.Task | None = None
        self.freeze_when_ready = False
        """Freeze the heap (``gc.freeze``) once the bot is first ready: set by ``run_discord``, so a real
        bot's full garbage collections never walk its modules, commands and caches again (issue 26:
        some 95,000 objects, 60-70 ms a collection on whichever thread triggers it, to 15-30 ms). Off for
        bots a test process starts by the hundred: each would keep its heap in the permanent
        generation for the life of the process."""
        self.heap_frozen = 0
        """How many objects :attr:`freeze_when_ready` froze (0: not frozen)."""
        self._stamp_arrivals()

    def _stamp_arrivals(self) -> None:
        """Note when each INTERACTION_CREATE arrives from the gateway, before discord.py starts
        its tasks: they inherit the stamp (cogs/common/replies.py, ``received``), so a command
        defers in time counted from its arrival, however long it waited for the event loop."""
        parsers = self._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def handle(data, stamp: float) -> None:
            token = received.set(stamp)
            try:
                parse(data)
            finally:
                received.reset(token)

        async def claimed(data, stamp: float) -> None:
            """Handle the interaction only if this process claims it first (storage/claims.py): a
            second process started with the same shard leaves it to the first. A claim not made
            within :data:`claims.CLAIM_WAIT_S` of the arrival (the store slow or away) is given up and
            the interaction answered, so that it still gets its first response in time."""
            loop = asyncio.get_running_loop()

            def claim() -> bool | None:
                if loop.time() - stamp > claims.CLAIM_WAIT_S:  # waited for a thread too long: answered already
                    return None
                return claims.claim_interaction(self.store, data.get("id"), self.claims_holder)

            attempt = loop.run_in_executor(self._claims_pool, claim)
            try:
                mine = await asyncio.wait_for(asyncio.shield(attempt),
                                              max(0.0, stamp + claims.CLAIM_WAIT_S - loop.time()))
            except asyncio.TimeoutError:
                attempt.add_done_callback(lambda f: f.cancelled() or f.exception())  # its outcome, read and dropped
                log.warning("interaction %s could not be claimed within %.1f s (the database is slow or away); "
                            "answering it", data.get("id"), claims.CLAIM_WAIT_S)
                mine = True
            except (StoreError, sqlite3.Error) as e:  # no store to claim in: answer it (it says the store is away)
                log.warning("interaction %s could not be claimed in the store (%s); answering it", data.get("id"), e)
                mine = True
            if mine is not False:  # None: the claim was given up as it started (too late)
                handle(data, stamp)
            else:
                log.info("interaction %s is answered by another process on this shard", data.get("id"))

        def stamped(data) -> None:
            stamp = asyncio.get_running_loop().time()
            if self.claims_holder is None:
                handle(data, stamp)
                return
            task = asyncio.get_running_loop().create_task(claimed(data, stamp))
            self._claiming.add(task)
            task.add_done_callback(self._claiming.discard)

        parsers["INTERACTION_CREATE"] = stamped

    def new_dice(self) -> Dice:
        """The bot's dice for the command being served: its roll number's dice in the roll log
        (``RandomDice(HMAC(secret, N))``, cogs/common/ledger.py; a "Resolve wounds" re-run gets the
        first run's dice back first), logged when it replies. Outside any interaction (a
        benchmark, a script) a generator from the bot's seed sequence, not logged."""
        priced = odds_dice.get()
        if priced is not None:  # /odds is driving this command's procedure: its dice, nothing logged
            return priced
        interaction = serving.get()
        if interaction is None:
            return RandomDice(int(self._seeds.integers(0, 2**63)))
        return ledger.draw(self, interaction)

    def new_secret(self) -> bytes:
        """32 bytes to seed a roll log chain (engine/ledger.py): from the OS; from the bot's seed
        sequence when a dice seed is set (console ``--seed``, tests), so such a session replays
        exactly from a fresh database."""
        if self.settings.dice_seed is None:
            return os.urandom(32)
        return self._seeds.bytes(32)

    async def channel_game(self, interaction: discord.Interaction) -> str | None:
        """The game the interaction's channel (or server) has chosen with ``/settings game``, as the
        rules index names games (``warhammer-fantasy``, ``warmaster``, ``wh40k``); None outside a
        server, when none is chosen, or when the store cannot be read (a lookup never fails for
        it). /rules ranks that game's entries first. The read runs off the event loop."""
        from cogs.campaign.words import SYSTEMS
        from storage.settings import chosen_game

        if interaction.guild_id is None:
            return None
        try:
            game = await stored(interaction, chosen_game, self.store, interaction.guild_id, interaction.channel_id)
        except (StoreError, sqlite3.Error):
            log.warning("the channel's default game could not be read", exc_info=True)
            return None
        return None if game is None else SYSTEMS.get(game)

    throwaway_log = False
    """Keep the roll log in memory for this run only (the console with ``--seed``): the same seed
    then gives the same dice on every run, whatever the data folder's log holds."""

    @cached_property
    def roll_store(self) -> Store:
        """The roll log's database: :attr:`store`, or a private in-memory one with
        :attr:`throwaway_log`."""
        return open_store(":memory:") if self.throwaway_log else self.store

    @cached_property
    def store(self) -> Store:
        """The database (settings.database_path), opened and migrated on first use."""
        return open_store(self.settings.database_path)

    async def close(self) -> None:
        if not hasattr(self, "_AutoShardedClient__queue"):
            # never logged in (the console, tests): AutoShardedClient.close() posts to the event
            # queue that only its setup hook creates
            self._AutoShardedClient__queue = asyncio.PriorityQueue()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        if self.claims_holder is not None and "store" in self.__dict__:
            try:
                await asyncio.to_thread(claims.release, self.store, self.claims_holder)
            except (StoreError, sqlite3.Error):
                log.warning("the shard lease could not be given up; it lapses in %d s", claims.LEASE_S)
        await super().close()
        render_pool.stop()
        self._claims_pool.shutdown(wait=False, cancel_futures=True)
        if "roll_store" in self.__dict__ and self.throwaway_log:
            self.roll_store.close()
        if "store" in self.__dict__:
            self.store.close()

    async def load_cogs(self, command: str | None = None) -> None:
        """Loads every extension, or, given a top-level command name (``fire``), only the one that
        defines it and the buttons (see :data:`COMMAND_EXTENSIONS`)."""
        wanted = EXTENSIONS
        if command is not None and command in COMMAND_EXTENSIONS:
            wanted = (*COMMAND_EXTENSIONS[command], "cogs.common.buttons")
        for name in wanted:
            if name not in self.extensions:
                await self.load_extension(name)

    def lease_shards(self) -> None:
        """Lease this process's shards in the store, or raise :class:`claims.ShardsHeld` naming the live
        process that runs one of them; from then on each interaction is claimed before it is answered."""
        holder = claims.this_process()
        claims.take_shards(self.store, self.settings.shard_count, self.settings.shard_ids, holder)
        self.claims_holder = holder

    async def _renew_leases(self) -> None:
        while True:
            await asyncio.sleep(claims.HEARTBEAT_S)
            try:
                await asyncio.to_thread(claims.renew, self.store, self.claims_holder)
            except (StoreError, sqlite3.Error) as e:
                log.warning("the shard lease could not be renewed: %s", e)

    async def setup_hook(self) -> None:
        if self.claims_holder is not None:
            self._heartbeat = asyncio.get_running_loop().create_task(self._renew_leases())
        await self.load_cogs()
        render_pool.start()  # connected: pictures drawn in worker processes (the console draws in-process)
        if not self.settings.sync_commands:
            return
        if not self.settings.sync_guilds:
            await self.tree.sync()
            return
        # Listed guilds only: their commands show at once, and never twice beside global ones.
        for guild_id in self.settings.sync_guilds:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d server(s)", self.user, len(self.guilds))
        if self.freeze_when_ready and not self.heap_frozen:
            gc.collect()  # what is garbage now is collected, not frozen with the rest
            gc.freeze()
            self.heap_frozen = gc.get_freeze_count()
            log.debug("froze %d objects of the heap: full collections leave them out", self.heap_frozen)


def create_bot(settings: Settings) -> BombardierBot:
    """The configured bot, not connected."""
    return BombardierBot(settings)


def for_the_operator(record: logging.LogRecord) -> bool:
    """What the terminal shows in Discord mode: the bot's own lines and discord.py's warnings, less
    the voice-support notices (the bot has no voice); everything still goes to the log file."""
    if record.name.startswith("discord"):
        return record.levelno >= logging.WARNING and "voice will NOT be supported" not in record.getMessage()
    return True


def setup_logging(settings: Settings, *, to_stderr: bool) -> None:
    """Discord mode logs to stderr and the log file; the console logs only to the file, so no
    traceback ever reaches the console user."""
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    handlers: list[logging.Handler] = [
        logging.handlers.RotatingFileHandler(settings.log_file, maxBytes=2_000_000, backupCount=3, encoding="utf-8")
    ]
    if to_stderr:
        stderr = logging.StreamHandler()
        stderr.addFilter(for_the_operator)
        handlers.append(stderr)
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    root = logging.getLogger()
    for h in handlers:
        h.setFormatter(fmt)
        root.addHandler(h)
    root.setLevel(settings.log_level)


def run_discord(settings: Settings) -> int:
    """Connects to Discord and serves until stopped. Whatever keeps it from starting (an unusable
    data folder or database, a refused token, no way to reach Discord) is one line on stderr and a
    non-zero exit, never a traceback; the details go to the log file."""
    try:
        setup_logging(settings, to_stderr=True)
    except OSError as e:
        print(f"The data folder {settings.data_dir} cannot be used: {e.strerror}.", file=sys.stderr)
        return 2
    bot = create_bot(settings)
    bot.freeze_when_ready = True
    try:
        bot.store
        bot.lease_shards()  # never two live processes on one shard (storage/claims.py)
    except (StoreError, claims.ShardsHeld) as e:
        log.error("%s", e)
        return 2
    except Exception as e:  # the database's own error, unforeseen by the store: one line, not a traceback
        if not is_database_error(e):
            raise
        log.debug("opening the store failed", exc_info=True)
        log.error("%s", unusable_store(settings.database_path, e))
        return 2
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        log.error(REFUSED_TOKEN)
        return 1
    except discord.ConnectionClosed as e:  # the gateway closed for good: say why in one line
        log.debug("the gateway closed the connection", exc_info=True)
        if e.code == 4004:  # Authentication failed: the token the gateway was given is not the bot's
            log.error(REFUSED_TOKEN)
        else:
            log.error("Discord closed the gateway connection (code %s%s) and the bot stopped: %s", e.code,
                      f", {e.reason}" if e.reason else "", GATEWAY_CLOSES.get(e.code, "see the log for the details."))
        return 1
    except discord.PrivilegedIntentsRequired:
        log.error("Discord refused an intent the bot asked for: the bot needs no privileged intent, so update it.")
        return 1
    except (OSError, aiohttp.ClientError, asyncio.TimeoutError, discord.GatewayNotFound, discord.HTTPException) as e:
        log.debug("connecting to Discord failed", exc_info=True)
        log.error("Cannot reach Discord (%s): check the network, or unset DISCORD_TOKEN for the offline console.",
                  unreachable_reason(e))
        return 1
    return 0


REFUSED_TOKEN = "Discord refused the token: check DISCORD_TOKEN (or the token file) for the bot's current token."
GATEWAY_CLOSES = {
    4010: "the shard settings are wrong (check shard_count and BOMBARDIER_SHARDS).",
    4011: "the bot is in too many servers for its shard count: give it more shards (shard_count).",
    4013: "an intent is not one Discord knows: update the bot.",
    4014: "an intent is not enabled for this bot in the developer portal.",
}
"""What the gateway's closing codes the bot cannot come back from tell the operator to do."""


def unreachable_reason(error: BaseException) -> str:
    """One short phrase for why Discord could not be reached, without the token or a traceback."""
    if isinstance(error, aiohttp.ClientConnectorDNSError):
        return "its address could not be looked up"
    if isinstance(error, aiohttp.ClientConnectorError):
        return f"the connection was refused or failed: {error.os_error.strerror or error.os_error}"
    if isinstance(error, asyncio.TimeoutError):
        return "it did not answer in time"
    if isinstance(error, discord.HTTPException):
        return f"it answered HTTP {error.status}"
    if isinstance(error, discord.GatewayNotFound):
        return "its gateway could not be found"
    return str(error) or type(error).__name__


def verify_export(path: str, head: str | None = None) -> int:
    """``python bot.py verify <export.json>``: console/verify.py's report and exit status."""
    from console.verify import verify_file

    return verify_file(path, head)


def migrate_store_command(source: str, target: str, *, replace: bool) -> int:
    """``bot.py migrate-store``: the copy, its counts and checks on stdout; a refusal in one line."""
    from config.settings import database_setting
    from storage.migrate import MigrateError, migrate_store

    try:
        copied = migrate_store(database_setting(source), database_setting(target), replace=replace, progress=print)
    except (MigrateError, SettingsError) as e:
        print(e, file=sys.stderr)
        return 2
    epochs = "roll log epoch verifies" if copied.chains == 1 else "roll log epochs verify"
    print(f"Copied {copied.total} rows in {len(copied.rows)} tables; every count matches and {copied.chains} "
          f"{epochs} on the target. Point the bot's database setting at it.")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bot.py", description="Bombardier, a referee for tabletop war machines.")
    sub = parser.add_subparsers(dest="mode")
    play = sub.add_parser("play", help="the offline console: slash commands without Discord")
    play.add_argument("command", nargs="?", help='one command to run, e.g. "/fire cannon distance:30"; none opens a prompt')
    play.add_argument("--json", action="store_true", help="print one JSON object per command")
    play.add_argument("--details", action="store_true", help="print the full breakdown after the glance")
    play.add_argument("--seed", type=int, help="make the bot's dice reproducible")
    listing = sub.add_parser("commands", help="print the registered command tree")
    listing.add_argument("--json", action="store_true", help="as JSON")
    listing.add_argument("--markdown", action="store_true", help="as Markdown (docs/commands.md)")
    check = sub.add_parser("verify", help="check a roll log export (/log export, /log reveal, a battle's end)")
    from console.verify import add_arguments

    add_arguments(check)
    move = sub.add_parser("migrate-store", help="copy a SQLite store into PostgreSQL (docs/hosting.md)")
    move.add_argument("--from", dest="source", required=True, metavar="SQLITE_PATH",
                      help="the SQLite file to copy (the bot's data/bombardier.sqlite3, or its database setting)")
    move.add_argument("--to", dest="target", required=True, metavar="postgresql://...",
                      help="the PostgreSQL database to copy into (a SQLite path also works)")
    move.add_argument("--replace", action="store_true", help="delete what the target holds first (never by default)")
    args = parser.parse_args(argv)

    if args.mode == "verify":
        return verify_export(args.export, args.head)
    if args.mode == "migrate-store":
        return migrate_store_command(args.source, args.target, replace=args.replace)

    try:
        settings = load_settings()
    except SettingsError as e:
        print(e, file=sys.stderr)
        return 2

    if args.mode is None and settings.token:
        return run_discord(settings)

    from console import offline as console

    try:
        setup_logging(settings, to_stderr=False)
    except OSError as e:
        print(f"The data folder {settings.data_dir} cannot be used: {e.strerror}.", file=sys.stderr)
        return 2
    if args.mode == "commands":
        return console.list_commands(create_bot(settings), as_json=args.json, as_markdown=args.markdown)
    seed = getattr(args, "seed", None)
    bot = create_bot(replace(settings, dice_seed=seed, sync_commands=False))
    bot.throwaway_log = seed is not None  # a seed's dice must not depend on the data folder's log
    try:
        bot.store
    except StoreError as e:
        print(e, file=sys.stderr)
        return 2
    return console.run(bot, getattr(args, "command", None), as_json=getattr(args, "json", False),
                       details=getattr(args, "details", False))


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
