"""Live play: websockets, broadcasts, drivers, clocks; the servers and Redis outages (marked slow)."""
