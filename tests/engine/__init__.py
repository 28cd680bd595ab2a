"""The rules engine, the computer players and the engine's tools: pure Python, no database."""
