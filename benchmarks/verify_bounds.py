"""The anonymous ``POST /api/v1/verify`` under the audit's amplification (issue 13, item 6).

The audit sent a 0.6 MB record of 200,000 cards and got 12.5 MB back after 2.4 s of CPU. This
sends, in-process through Django's test client (no server; a throwaway test database holds the
attempt counter of the route's throttle):

- the audit's record: 200,000 entries in `play`, none a card ("xx"), compact JSON;
- the same play cut to 12,000 cards, so that it fits in the route's 64 KB body limit;
- 48 unknown tokens and four hands of 12 unknown tokens (every token of a record of the right
  sizes wrong: 97 problems, all listed);
- 48 unknown tokens, four hands of 48 and ten keys that are not seats (more problems than a
  verdict lists);
- one 60,000-character token (the echo).

Prints, one figure a line: the request and answer sizes in bytes, the status, the number of
problems in the verdict, and the CPU seconds of the request (process time, median of 5).

Usage: DEBUG=1 python benchmarks/verify_bounds.py
"""

import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

import logging  # noqa: E402

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from tournaments.models import AttemptCounter  # noqa: E402

setup_test_environment()  # the test client's host is allowed
logging.disable(logging.WARNING)  # one "Bad Request" line per refused request otherwise


def body(play: list[str], hands: dict[str, list[str]] | None = None) -> bytes:
    record = {
        "format": "botifarra-play/1",
        "deal": {"dealer": "N", "hands": hands or {}},
        "choice": {"delegated": False, "trump": "oros"},
        "play": play,
    }
    return json.dumps({"record": record}, separators=(",", ":")).encode()


def measure(name: str, data: bytes) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    cpu = []
    for _ in range(5):
        AttemptCounter.objects.all().delete()  # the verify throttle
        start = time.process_time()
        response = client.post("/api/v1/verify", data, content_type="application/json")
        cpu.append(time.process_time() - start)
    problems = len(response.json().get("problems", [])) if response.status_code == 200 else 0
    print(f"{name}_request_bytes: {len(data)} B")
    print(f"{name}_status: {response.status_code}")
    print(f"{name}_answer_bytes: {len(response.content)} B")
    print(f"{name}_problems: {problems} problems")
    print(f"{name}_cpu_s: {statistics.median(cpu):.4f} s")


def main() -> int:
    database = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        measure("verify_200000_cards", body(["xx"] * 200_000))
        measure("verify_12000_cards", body(["xx"] * 12_000))
        hands = {seat: [f"x{i}" for i in range(12)] for seat in "NESW"}
        measure("verify_every_token_wrong", body([f"y{i}" for i in range(48)], hands))
        hands = {seat: [f"x{i}" for i in range(48)] for seat in "NESW"}
        hands.update({f"Q{i}": [] for i in range(10)})
        measure("verify_most_problems", body([f"y{i}" for i in range(48)], hands))
        measure("verify_60000_char_token", body(["z" * 60_000]))
    finally:
        connection.creation.destroy_test_db(database, verbosity=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
