.PHONY: test run bench fuzz venv

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

# The fuzz of every command and option, far past CI's examples (issue 19): counts per command.
fuzz: venv
	BOMBARDIER_FUZZ_EXAMPLES=$${BOMBARDIER_FUZZ_EXAMPLES:-300} .venv/bin/python -m benchmarks fuzz
