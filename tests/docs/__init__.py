"""The README and docs/: links that resolve, and settings that are documented."""
