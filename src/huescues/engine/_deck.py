"""Cue cards (R3): the standard deck of 100 cards as fixed data, and decks for other boards."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Self

import numpy as np

from ._cell import ROW_LETTERS, STANDARD_COLS, STANDARD_ROWS, Cell
from ._random import shuffled

__all__ = ["STANDARD_DECK_ID", "Card", "Deck"]

#: The id of :meth:`Deck.standard`.
STANDARD_DECK_ID = "huescues-standard-deck-v1"
#: R3: no two squares of a card within this Chebyshev distance.
CARD_MIN_APART = 5

#: A cue card's squares (four on every card of a deck).
Card = tuple[Cell, ...]
_GENERATED = re.compile(r"generated-(\d+)x(\d+)-(\d+)-s(\d+)")
#: The most cards a deck rebuilt from its id may have (it takes about a second to deal): a
#: record's deck id is read from a file, and an id of a billion cards would never finish.
_MAX_GENERATED_CARDS = 100_000
#: The most columns a board has (R1: squares are named A1 to Z999).
_MAX_COLS = 999


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck of cue cards, each showing four squares of the board (R3)."""

    id: str
    cards: tuple[Card, ...]
    #: ``(rows, cols)`` of the smallest board that holds every square of the deck.
    extent: tuple[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.cards:
            raise ValueError("a deck needs at least one card (R3)")
        for i, card in enumerate(self.cards):
            if len(card) != 4 or len(set(card)) != 4:
                raise ValueError(f"card {i} of deck {self.id!r} must show 4 different squares (R3)")
            if not all(type(c) is Cell for c in card):
                raise TypeError(
                    f"card {i} of deck {self.id!r} shows {card!r:.80}, not 4 Cells (R3)"
                )
        rows = 1 + max(c.row for card in self.cards for c in card)
        cols = 1 + max(c.col for card in self.cards for c in card)
        object.__setattr__(self, "extent", (rows, cols))

    def __len__(self) -> int:
        return len(self.cards)

    @classmethod
    def standard(cls) -> Deck:
        """The standard deck of 100 cards for the 16 x 30 board (R3), the same in every game."""
        return _standard_deck()

    @classmethod
    def generate(cls, rows: int, cols: int, *, n_cards: int = 100, seed: int = 0) -> Self:
        """A deck for a ``rows`` x ``cols`` board, made deterministically from ``seed``.

        A card's squares are at least 5 apart where the board allows (R3). Each pass over the
        shuffled board deals cards of distinct squares; a square repeats only when one pass
        cannot deal enough cards. ``n_cards`` is how many cards the deck holds (default 100, the
        standard deck's count); the deck's id names the size, ``n_cards`` and ``seed``.
        """
        if rows < 1 or cols < 1 or rows * cols < 4:
            raise ValueError(f"a {rows} x {cols} board has too few squares for a card (R3)")
        cells = [Cell(r, c) for r in range(rows) for c in range(cols)]
        stream = np.random.PCG64(np.random.SeedSequence([seed, rows, cols, n_cards]))
        cards: list[Card] = []
        apart = min(CARD_MIN_APART, max(1, (max(rows, cols) - 1) // 3))
        while len(cards) < n_cards:
            batch = _deal(shuffled(stream, cells), apart)
            if not batch:
                apart -= 1  # the board is too small for cards this far apart
                continue
            cards.extend(batch[: n_cards - len(cards)])
        return cls(f"generated-{rows}x{cols}-{n_cards}-s{seed}", tuple(cards))

    @classmethod
    def for_board(cls, rows: int, cols: int) -> Deck:
        """The deck a game uses by default: the standard one on a 16 x 30 board."""
        if (rows, cols) == (STANDARD_ROWS, STANDARD_COLS):
            return cls.standard()
        return cls.generate(rows, cols)

    @classmethod
    def from_id(cls, deck_id: str) -> Deck:
        """The standard deck or a generated one, rebuilt from its id (for replays). An id no
        board could have (R1), or of more than 100,000 cards, is refused: pass such a deck in."""
        if deck_id == STANDARD_DECK_ID:
            return cls.standard()
        m = _GENERATED.fullmatch(deck_id)
        if m is None:
            raise ValueError(
                f"deck {deck_id!r} is neither the standard deck nor a generated one: pass it in"
            )
        rows, cols, n, seed = (int(g) for g in m.groups())
        if not (rows <= len(ROW_LETTERS) and cols <= _MAX_COLS and 1 <= n <= _MAX_GENERATED_CARDS):
            raise ValueError(
                f"deck {deck_id!r} is not one this library generates: a board has at most "
                f"{len(ROW_LETTERS)} x {_MAX_COLS} squares (R1) and a generated deck 1 to "
                f"{_MAX_GENERATED_CARDS:,} cards; pass the deck in"
            )
        return cls.generate(rows, cols, n_cards=n, seed=seed)

    def to_json(self) -> str:
        """JSON: ``{"id": ..., "cards": [["A1", "F9", ...], ...]}``."""
        return json.dumps({"id": self.id, "cards": [[str(c) for c in card] for card in self.cards]})

    @classmethod
    def from_json(cls, text: str) -> Self:
        """The inverse of :meth:`to_json`; text that is not a deck's JSON is a ValueError."""
        data = json.loads(text)
        if (
            not isinstance(data, dict)
            or "id" not in data
            or not isinstance(data.get("cards"), list)
        ):
            raise ValueError(f'a deck\'s JSON is {{"id": ..., "cards": [...]}}, not {text!r:.80}')
        cards = []
        for card in data["cards"]:
            if not isinstance(card, list) or not all(isinstance(name, str) for name in card):
                raise ValueError(f"a card is a list of 4 squares' names, not {card!r:.80} (R3)")
            cells = tuple(Cell.parse(name, rows=26, cols=999) for name in card)
            if len(cells) != 4:
                raise ValueError(f"a card shows 4 squares, not {card!r} (R3)")
            cards.append(cells)
        return cls(str(data["id"]), tuple(cards))


def _deal(cells: list[Cell], apart: int) -> list[Card]:
    """Greedily group shuffled squares into cards of four squares at least ``apart`` apart."""
    open_cards: list[list[Cell]] = []
    done: list[Card] = []
    for cell in cells:
        for card in open_cards:
            if all(cell.distance(other) >= apart for other in card):
                card.append(cell)
                if len(card) == 4:
                    done.append(tuple(card))
                    open_cards.remove(card)
                break
        else:
            open_cards.append([cell])
    return done


_STANDARD: list[Deck] = []


def _standard_deck() -> Deck:
    if not _STANDARD:
        text = resources.files("huescues.data").joinpath("standard_deck.json").read_text()
        deck = Deck.from_json(text)
        if deck.id != STANDARD_DECK_ID or len(deck) != 100:
            raise RuntimeError("the packaged standard deck is damaged")
        _STANDARD.append(deck)
    return _STANDARD[0]
