"""Speed and memory figures, printed, not pass/fail: these machines are shared and noisy."""
