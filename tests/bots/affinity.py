#!/usr/bin/env python3
"""A bot that plays the first legal move and logs the CPUs it may run on (for the pin tests)."""

import json
import os
import sys

# One write: two copies of this bot (--jobs 2) append to the same log, and
# print() would write the words one at a time, to interleave with the other's.
sys.stderr.write(f"cpus {json.dumps(sorted(os.sched_getaffinity(0)))}\n")
sys.stderr.flush()
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
