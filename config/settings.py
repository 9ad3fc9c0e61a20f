"""Bot settings: environment variables over an optional TOML file over defaults.

The TOML file is ``bombardier.toml`` in the project folder, or the path in ``BOMBARDIER_CONFIG``.
Keys (all optional)::

    token_file = "/run/secrets/discord_token"   # read when DISCORD_TOKEN is not set
    data_dir = "data"                           # logs, console pictures, the database
    database = "data/bombardier.sqlite3"        # the SQLite file (default: bombardier.sqlite3 in data_dir),
                                                # or a server several bot processes share:
                                                # "postgresql://user:password@host/dbname" (docs/hosting.md)
    sync_guilds = [123456789012345678]          # sync commands to these guilds only (instant), not globally
    sync_commands = true                        # sync the command tree with Discord at start
    shard_count = 8                             # Discord shards in all (default: as Discord recommends)
    shard_ids = [0, 1, 2, 3]                    # the shards this process runs (default: all of them)
    log_level = "INFO"

``BOMBARDIER_SHARDS=0-3/8`` sets both shard keys at once (shards 0 to 3 of 8; ``1,5/8``; ``8``
for all 8 in this process): see docs/hosting.md for running shards as processes.

The token is never logged and never part of ``repr(settings)``.
"""

from __future__ import annotations

import difflib
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent

KNOWN_KEYS = ("token_file", "data_dir", "database", "sync_guilds", "sync_commands", "log_level", "shard_count",
              "shard_ids")
"""Every key bombardier.toml may hold: any other is refused at start, by name (a typo such as
``sync_guild`` would otherwise be ignored without a word). A new setting adds its key here."""


class SettingsError(Exception):
    """A settings file or variable that cannot be used; the message says which and why."""


@dataclass(frozen=True)
class Settings:
    token: str | None = field(default=None, repr=False)
    """Discord bot token; None runs the offline console."""
    data_dir: Path = PROJECT / "data"
    """Where logs, console pictures and the database live."""
    sync_guilds: tuple[int, ...] = ()
    """Guilds to sync the command tree to at start instead of globally (they show at once)."""
    log_level: str = "INFO"
    sync_commands: bool = True
    """Sync the command tree with Discord at start."""
    dice_seed: int | None = None
    """Seed for the bot's dice; None draws from the OS (the console's --seed sets it)."""

    database: Path | str | None = None
    """The SQLite file (a path, or ``sqlite:`` and a path); None means ``bombardier.sqlite3`` in the
    data folder. A ``postgresql://`` URL (a str) selects the PostgreSQL store instead."""

    shard_count: int | None = None
    """Discord shards in all; None lets Discord recommend how many (discord.py's AutoShardedBot)."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs; None runs every one (needs :attr:`shard_count` when given)."""

    @property
    def log_file(self) -> Path:
        return self.data_dir / "bombardier.log"

    @property
    def database_path(self) -> Path | str:
        """The SQLite file's path, or the PostgreSQL URL."""
        return self.database if self.database is not None else self.data_dir / "bombardier.sqlite3"


def load_settings(env: dict[str, str] | None = None) -> Settings:
    env = dict(os.environ if env is None else env)
    path = Path(env.get("BOMBARDIER_CONFIG", PROJECT / "bombardier.toml"))
    raw: dict = {}
    if path.exists():
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, OSError) as e:
            raise SettingsError(f"Settings file {path} cannot be read: {e}") from None
    elif "BOMBARDIER_CONFIG" in env:
        raise SettingsError(f"Settings file {path} (BOMBARDIER_CONFIG) does not exist.")
    unknown = [key for key in raw if key not in KNOWN_KEYS]
    if unknown:
        raise SettingsError(f"Settings file {path} has {unknown_words(unknown)}; the keys it may hold are "
                            f"{', '.join(KNOWN_KEYS)}.")

    token = env.get("DISCORD_TOKEN", "").strip() or None
    if token is None and raw.get("token_file"):
        try:
            token = Path(raw["token_file"]).read_text(encoding="utf-8").strip() or None
        except OSError as e:
            raise SettingsError(f"Token file {raw['token_file']} cannot be read: {e.strerror}.") from None
    data_dir = Path(env.get("BOMBARDIER_DATA", raw.get("data_dir", PROJECT / "data")))
    if not data_dir.is_absolute():
        data_dir = PROJECT / data_dir
    database = env.get("BOMBARDIER_DATABASE", raw.get("database"))
    if database is not None:
        database = database_setting(str(database))
    try:
        guilds = tuple(int(g) for g in raw.get("sync_guilds", ()))
    except (TypeError, ValueError):
        raise SettingsError(f"sync_guilds in {path} must be a list of guild ids.") from None
    if env.get("BOMBARDIER_SHARDS", "").strip():
        shard_count, shard_ids = shards_setting(env["BOMBARDIER_SHARDS"], "BOMBARDIER_SHARDS")
    else:
        shard_count, shard_ids = raw.get("shard_count"), raw.get("shard_ids")
        if shard_count is not None and (isinstance(shard_count, bool) or not isinstance(shard_count, int)):
            raise SettingsError(f"shard_count in {path} must be a whole number of shards, not {shard_count!r}.")
        if shard_ids is not None:
            if not isinstance(shard_ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in shard_ids):
                raise SettingsError(f"shard_ids in {path} must be a list of shard numbers, e.g. [0, 1].")
            shard_ids = tuple(shard_ids)
        check_shards(shard_count, shard_ids, str(path))
    return Settings(
        token=token, data_dir=data_dir, sync_guilds=guilds, log_level=str(raw.get("log_level", "INFO")).upper(),
        sync_commands=bool(raw.get("sync_commands", True)), database=database, shard_count=shard_count,
        shard_ids=shard_ids,
    )


def shards_setting(text: str, where: str) -> tuple[int, tuple[int, ...] | None]:
    """``BOMBARDIER_SHARDS``: ``0-3/8`` (shards 0 to 3 of 8), ``1,5/8``, or ``8`` (all 8 here)."""
    text = text.strip()
    ids_text, _, count_text = text.rpartition("/")
    example = "e.g. 0-3/8 for shards 0 to 3 of 8, or 8 for all eight in this process"
    shown = text if len(text) <= 40 else f"{text[:40]}... ({len(text):,} characters)"
    try:
        count = int(count_text)
        check_shards(count, None, where)  # the count bounded first: a range is never built past it
        ids: list[int] = []
        if ids_text:
            for part in ids_text.split(","):
                first, dash, last = part.strip().partition("-")
                low, high = int(first), int(last) if dash else int(first)
                if high < low:
                    raise SettingsError(f"{where}: the range {low}-{high} runs backwards: write {high}-{low}.")
                for shard in (low, high):
                    if not 0 <= shard < count:
                        raise SettingsError(f"{where}: shard {shard} does not exist among {count} shards "
                                            f"(they are 0 to {count - 1}).")
                ids.extend(range(low, high + 1))
                if len(ids) > count:
                    raise SettingsError(f"{where}: a shard is listed twice in '{shown}'.")
    except ValueError:
        raise SettingsError(f"{where}='{shown}' is not a list of shards: {example}.") from None
    shard_ids = tuple(ids) if ids_text else None
    check_shards(count, shard_ids, where)
    return count, shard_ids


MAX_SHARDS = 10_000
"""The most shards a bot may name: Discord gives each shard up to 2,500 servers, so this is room for
25 million servers; a larger number is a typo, refused at once rather than read for minutes."""


def check_shards(count: int | None, ids: tuple[int, ...] | None, where: str) -> None:
    if count is not None and count < 1:
        raise SettingsError(f"{where}: a bot has at least 1 shard, not {count}.")
    if count is not None and count > MAX_SHARDS:
        number = f"{count:,}" if count < 10**15 else f"a {len(str(count)):,}-digit number of"
        raise SettingsError(f"{where}: {number} shards is more than a bot can have here (at most {MAX_SHARDS:,}, "
                            "room for 25 million servers): check the number.")
    if ids is None:
        return
    if count is None:
        raise SettingsError(f"{where}: shard_ids needs shard_count (how many shards there are in all).")
    if not ids:
        raise SettingsError(f"{where}: shard_ids is empty; leave it out to run every shard here.")
    wrong = sorted({i for i in ids if not 0 <= i < count})
    if wrong:
        raise SettingsError(f"{where}: shard {wrong[0]} does not exist among {count} shards (they are 0 to {count - 1}).")
    if len(set(ids)) != len(ids):
        raise SettingsError(f"{where}: a shard is listed twice in {list(ids)}.")


POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""How a ``database`` setting that names a PostgreSQL server begins."""


def is_postgres(target: object) -> bool:
    """Whether a ``database`` setting (as :func:`database_setting` reads it) names a PostgreSQL
    server rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def database_setting(text: str) -> Path | str:
    """``database`` as written: a ``postgresql://`` URL stays a URL; ``sqlite:``, ``sqlite://`` or
    ``sqlite:///`` before a path, or a bare path, is the SQLite file (relative to the project)."""
    text = text.strip()
    if is_postgres(text):
        return text
    if text.lower().startswith("sqlite:"):
        text = text[len("sqlite:"):]
        if text.startswith("///"):
            text = text[2:]
        elif text.startswith("//"):
            text = text[2:]
    if not text:
        raise SettingsError("database is empty: give a SQLite file's path or a postgresql:// URL.")
    if "://" in text:
        raise SettingsError(f"database '{text.split('://')[0]}://...' is not a store Bombardier knows: give a "
                            "SQLite file's path or a postgresql:// URL.")
    path = Path(text)
    return path if path.is_absolute() else PROJECT / path


def unknown_words(keys: list[str]) -> str:
    """``an unknown key 'sync_guild' (did you mean 'sync_guilds'?)``, for each unknown key."""
    words = []
    for key in keys:
        near = difflib.get_close_matches(str(key), KNOWN_KEYS, n=1, cutoff=0.6)
        words.append(f"'{key}'" + (f" (did you mean '{near[0]}'?)" if near else ""))
    return ("an unknown key " if len(words) == 1 else "unknown keys ") + ", ".join(words)
