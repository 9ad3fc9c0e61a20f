#!/usr/bin/env bash
# Makes .venv with the pinned packages of requirements.lock. Idempotent: it reinstalls only
# when the lock file changes. Used by ./bombardier and `make test`; safe to run by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv
stamp="$venv/.lock-$(sha256sum requirements.lock | cut -c1-16)"
[ -f "$stamp" ] && exit 0

py=""
for candidate in python3.11 python3 python; do
  if command -v "$candidate" >/dev/null 2>&1 &&
     "$candidate" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' 2>/dev/null; then
    py="$candidate"; break
  fi
done
if [ -z "$py" ]; then
  echo "bombardier needs Python 3.11 (python3.11 or python3 on PATH)." >&2
  exit 1
fi

echo "Setting up $venv with the pinned packages (first run only)..." >&2
rm -rf "$venv"
"$py" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r requirements.lock >&2
touch "$stamp"
