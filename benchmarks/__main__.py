"""``python -m benchmarks`` (or ``make bench``): every figure, with its target."""

from benchmarks import bench_cannon, bench_discord

if __name__ == "__main__":
    bench_cannon.main()
    bench_discord.main()
