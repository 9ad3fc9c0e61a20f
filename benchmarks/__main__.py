"""``python -m benchmarks`` (or ``make bench``): every figure, with its target."""

from benchmarks import bench_cannon, bench_discord, bench_roll, bench_stone_thrower

if __name__ == "__main__":
    bench_cannon.main()
    bench_stone_thrower.main()
    bench_discord.main()
    bench_roll.main()
