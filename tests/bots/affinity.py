#!/usr/bin/env python3
"""A bot that plays the first legal move and logs the CPUs it may run on (for the pin tests)."""

import json
import os
import sys

print("cpus", sorted(os.sched_getaffinity(0)), file=sys.stderr, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        reply = {"type": "ready", "name": "affinity"}
    elif message["type"] == "request":
        reply = {"type": "move", "id": message["id"], "move": message["legal"][0]}
    elif message["type"] == "bye":
        break
    else:
        continue
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
