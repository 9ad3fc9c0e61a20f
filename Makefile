.PHONY: test run bench venv

venv:
	@scripts/bootstrap.sh

# The whole test suite (engine, renders, cogs, console, e2e).
test: venv
	.venv/bin/python -m pytest -q $(ARGS)

run: venv
	.venv/bin/python bot.py

# Figures, not pass/fail: see docs/figures.md.
bench: venv
	.venv/bin/python -m benchmarks
