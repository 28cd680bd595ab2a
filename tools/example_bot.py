import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "bye":
        break
    # Keep the high cards for the last trick: play the lowest legal card.
    card = min(message["legal"], key=lambda c: "23456789TJQKA".index(c[0]))
    print(json.dumps({"card": card}), flush=True)
