#!/usr/bin/env bash
# Makes .venv with the pinned packages of requirements.lock: the bot's own, all a host needs
# (./bombardier). With --dev (make test) it adds requirements-dev.lock: the test and benchmark
# packages. Idempotent: it reinstalls only when a lock file changes, and a .venv that already holds
# every pinned version is kept as it is. Safe to run by hand.
#
# Python: the first of python3.13, python3.12, python3.11 (then python3) that runs and is 3.11 or
# newer, or the one named by PYTHON= (e.g. PYTHON=/usr/bin/python3.12 ./bombardier). If the pinned
# packages cannot be installed for it (no wheel and no way to build one), the next one is tried.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv
dev=0
if [ "${1:-}" = "--dev" ]; then dev=1; fi
stamp="$venv/.lock-$(sha256sum requirements.lock | cut -c1-16)"
dev_stamp="$venv/.dev-lock-$(sha256sum requirements-dev.lock | cut -c1-16)"
sources=(bot.py cogs console engine renders config storage)

compile_project() {
  # The project's bytecode, compiled once and again only after a source changes, so no start
  # recompiles it where writing bytecode is turned off (PYTHONDONTWRITEBYTECODE).
  local compiled="$venv/.compiled"
  if [ ! -f "$compiled" ] || [ -n "$(find "${sources[@]}" -name '*.py' -newer "$compiled" -print -quit 2>/dev/null)" ]; then
    "$venv/bin/python" -m compileall -q "${sources[@]}" >/dev/null 2>&1 && touch "$compiled" || true
  fi
}

say() { printf '%s\n' "$*" >&2; }

holds() {  # whether .venv's Python has exactly the versions lock file $1 pins
  [ -x "$venv/bin/python" ] && "$venv/bin/python" - "$1" <<'PY' 2>/dev/null
import re, sys
from importlib import metadata
for line in open(sys.argv[1]):
    if "==" in line and not line.startswith("#"):
        name, version = line.strip().split("==")
        if metadata.version(name) != version:
            sys.exit(1)
PY
}

dev_packages() {  # the test and benchmark packages on top of the bot's
  [ "$dev" = 1 ] || return 0
  if [ -f "$dev_stamp" ] || holds requirements-dev.lock; then touch "$dev_stamp"; return 0; fi
  say "bombardier: adding the test and benchmark packages of requirements-dev.lock to $venv."
  "$venv/bin/python" -m pip install --disable-pip-version-check --progress-bar off -q -r requirements-dev.lock >&2
  "$venv/bin/python" -c 'import pytest, hypothesis, shapely' && touch "$dev_stamp"
}

if [ -f "$stamp" ] || holds requirements.lock; then
  touch "$stamp"
  dev_packages
  compile_project
  exit 0
fi
version_of() { "$1" -c 'import sys; v = sys.version_info; print(f"{v[0]}.{v[1]}.{v[2]}") if v[:2] >= (3, 11) else sys.exit(1)' 2>/dev/null; }

if [ -n "${PYTHON:-}" ]; then
  candidates=("$PYTHON")
else
  candidates=(python3.13 python3.12 python3.11 python3)
fi
found=()
for candidate in "${candidates[@]}"; do
  if command -v "$candidate" >/dev/null 2>&1 && version_of "$candidate" >/dev/null; then found+=("$candidate"); fi
done
if [ ${#found[@]} -eq 0 ]; then
  if [ -n "${PYTHON:-}" ]; then
    say "bombardier: PYTHON=$PYTHON is not a Python 3.11 or newer that runs here."
  else
    say "bombardier needs Python 3.11 or newer (python3.13, python3.12, python3.11 or python3 on PATH, or PYTHON=...)."
  fi
  exit 1
fi

total=$(grep -cE '^[A-Za-z0-9_.-]+==' requirements.lock)

progress() {  # pip's own lines, one per package, turned into a short count on stderr
  local n=0 line
  while IFS= read -r line; do
    case "$line" in
      Collecting\ *|Processing\ *)
        line=${line#Collecting }; line=${line#Processing }; line=${line%% (from *}; line=${line##*/}
        case "$line" in *.whl) line=$(printf '%s' "$line" | cut -d- -f1,2 | sed 's/-/==/') ;; esac
        n=$((n + 1)); printf '  [%2d/%d] %s\n' "$n" "$total" "$line" >&2 ;;
      Installing\ collected*) printf '  installing...\n' >&2 ;;
    esac
  done
}

imports_work() {
  "$venv/bin/python" -c 'import discord, numpy, PIL, sqlite_utils, rapidfuzz' 2>/dev/null
}

for py in "${found[@]}"; do
  version=$(version_of "$py")
  say "bombardier: first run: setting up $venv with Python $version ($py) and the $total pinned packages"
  say "  of requirements.lock (about 20-90 s, depending on the network; later runs start at once)."
  rm -rf "$venv"
  if ! "$py" -m venv "$venv" >&2; then
    say "  $py cannot make a virtual environment (on Debian: apt-get install python3-venv); trying the next Python."
    continue
  fi
  start=$SECONDS
  log=$(mktemp)
  if "$venv/bin/python" -m pip install --disable-pip-version-check --progress-bar off -r requirements.lock 2>"$log" | progress &&
     imports_work; then
    touch "$stamp"
    dev_packages
    compile_project
    rm -f "$log"
    say "bombardier: ready in $((SECONDS - start)) s (Python $version)."
    exit 0
  fi
  say "  The pinned packages did not install for Python $version:"
  grep -E '^ERROR' "$log" | head -5 | sed 's/^/    /' >&2 || true
  rm -f "$log"
done
rm -rf "$venv"
say "bombardier: the pinned packages of requirements.lock could not be installed with: ${found[*]}."
exit 1
