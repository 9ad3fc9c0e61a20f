"""Settings (environment + a TOML file) and game data (profiles, charts, template sizes)."""
