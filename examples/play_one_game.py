"""Play one game between random agents and print it round by round."""

from __future__ import annotations

import huescues as hc
from huescues.agents import RandomAgent


def main() -> None:
    record, final = hc.play_game([RandomAgent() for _ in range(5)], seed=42)
    print(hc.describe_game(final))
    # The record replays to the identical final state, from JSON too (R27).
    assert hc.GameRecord.from_json(record.to_json()).replay() == final
    print(f"{len(record.actions)} actions; the record is {len(record.to_json())} bytes of JSON")


if __name__ == "__main__":
    main()
