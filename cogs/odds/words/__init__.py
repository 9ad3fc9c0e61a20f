"""How /odds reads: what each outcome of a procedure is called, the chances summed, the embed,
the summary and the --json fields. Pure functions of engine records. May import engine and
cogs.common.replies."""
