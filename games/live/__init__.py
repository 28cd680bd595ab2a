"""Live play: websockets, broadcasts, the shared table snapshots and the computer players' drivers.

Every change still goes through ``games.services`` under the session row lock; this package
only tells connections about changes and renders each viewer's table from a snapshot that
is read once per table and sequence number in each process.
"""
