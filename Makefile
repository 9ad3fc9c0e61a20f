.PHONY: test run bench fuzz venv dev docs

venv:
	@scripts/bootstrap.sh

# The test and benchmark packages (requirements-dev.lock) on top of the bot's own.
dev:
	@scripts/bootstrap.sh --dev

# The whole test suite (engine, renders, cogs, console, e2e).
test: dev
	.venv/bin/python -m pytest -q $(ARGS)

run: venv
	.venv/bin/python bot.py

# Figures, not pass/fail: see docs/figures.md.
bench: dev
	.venv/bin/python -m benchmarks

# The generated parts of the docs: docs/commands.md from the command tree and the pictures of
# docs/img drawn by the bot (look at them before committing); tests fail when either is stale.
docs: dev
	.venv/bin/python bot.py commands --markdown > docs/commands.md.new && mv docs/commands.md.new docs/commands.md
	.venv/bin/python scripts/readme_pictures.py

# The fuzz of every command and option, far past CI's examples (issue 19): counts per command.
fuzz: dev
	BOMBARDIER_FUZZ_EXAMPLES=$${BOMBARDIER_FUZZ_EXAMPLES:-300} .venv/bin/python -m benchmarks fuzz
