"""Discord adapters: one cog per game area (options -> engine -> embed + picture), the shared
reply path, and the offline console that drives the same command tree."""
