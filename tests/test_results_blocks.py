"""How a checked load cuts a results file into blocks for its workers (issue 23 item 6): each
block is whole lines, the blocks tile the file up to its last newline (a last line cut short by
a killed run is left out), and a line's number is counted from the start of the file."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from huescues.tournament import _results_file as _results

lines = st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"x")), max_size=30)


@settings(max_examples=200, deadline=None)
@given(lines, st.binary(max_size=20), st.integers(min_value=1, max_value=64))
def test_blocks_are_whole_lines_that_tile_the_file_up_to_its_last_newline(
    tmp_path_factory: pytest.TempPathFactory, body: list[bytes], tail: bytes, size: int
) -> None:
    path = tmp_path_factory.mktemp("b") / "r.jsonl"
    complete = b"".join(line + b"\n" for line in body)
    tail = tail.replace(b"\n", b"x")  # a last line cut short: no newline
    path.write_bytes(complete + tail)
    blocks = list(_results._blocks(path, size))
    at = 0
    for start, length in blocks:
        assert start == at and length > 0
        chunk = complete[start : start + length]
        assert chunk.endswith(b"\n")
        # At least the size asked for, unless it is the last block.
        assert length >= size or start + length == len(complete)
        # No newline before the block's last byte at or past the size asked for.
        assert b"\n" not in chunk[size - 1 : -1]
        at += length
    assert at == len(complete)
    for k in range(len(body) + 1):
        offset = sum(len(line) + 1 for line in body[:k])
        assert _results._line_at(path, offset) == k + 1
