"""``python bot.py verify <export.json> [--head HASH]``, also ``python -m console.verify``: check a roll
log export and print what was found. Needs only Python's standard library (engine/ledger.py and
engine/dice.py; numpy only for the dice of version 1 and 2 exports), so a player checks a log
with a plain Python and a copy of the repository; with nothing at all, the page attached to the
export does the same in a browser (docs/roll-log.md).

Exit status: 0 every check passed, 1 one failed, 2 the file cannot be read as a roll log.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.ledger import LedgerFormatError, verify

OK, FAILED, UNREADABLE = 0, 1, 2


def verify_file(path: str, head: str | None = None) -> int:
    """Print the report of the export at `path` (checked against `head` when given)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        result = verify(data, head=head)
    except OSError as e:
        print(f"Cannot read {path}: {e.strerror}.")
        return UNREADABLE
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        print(f"{path} is not JSON: {e}.")
        return UNREADABLE
    except LedgerFormatError as e:
        print(f"{path}: {e}")
        return UNREADABLE
    print(result.report())
    return OK if result.ok else FAILED


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("export", help="the export's JSON file (/log export, /log reveal, /battle end)")
    parser.add_argument("--head", help="the head hash the bot posted in the channel: the export must end with it")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="verify", description="Check a Bombardier roll log export.")
    add_arguments(parser)
    args = parser.parse_args(argv)
    return verify_file(args.export, args.head)


if __name__ == "__main__":
    sys.exit(main())
