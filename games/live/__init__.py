"""Live play: websockets, presence and the computer players' and clocks' drivers.

Every change still goes through ``games.services`` under the session row lock; this package
only tells connections about changes and renders each viewer's table from a snapshot that is
read once per table and sequence number in each process. What the services and this package
share sits below both, so neither imports the other back: ``games.announcements`` (changes told
after commit), ``games.snapshots`` (this process's table snapshots) and ``games.threads`` (the
database threads of async code).
"""
