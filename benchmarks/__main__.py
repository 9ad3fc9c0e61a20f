"""``python -m benchmarks`` (or ``make bench``): every figure, with its target."""

from benchmarks import (
    bench_campaign, bench_cannon, bench_discord, bench_fire_thrower, bench_rules, bench_stone_thrower, bench_warmaster,
    bench_roll, bench_verifier_page, bench_wh40k,
)

if __name__ == "__main__":
    bench_cannon.main()
    bench_stone_thrower.main()
    bench_fire_thrower.main()
    bench_warmaster.main()
    bench_wh40k.main()
    bench_rules.main()
    bench_discord.main()
    bench_campaign.main()
    bench_roll.main()
    bench_verifier_page.main()
