"""A study and each participant's plan: the colour plates (one deficiency each), the practice
items (from their own list, never one of the study's), the main items with the attention checks
among them, and for the game study the game last.

The main items are balanced: each participant is given the items of the study's list that the
completed participants answered least (ties broken at random), in an order of their own, so that
when each participant starts after the one before has finished, no item has more than one answer
more than another once everyone has completed (what study platforms call balanced assignment).
Sessions running at the same time are planned from the same counts (only completed sessions are
counted), so their items can overlap and the counts drift apart by more than one.

Everything a plan draws comes from the participant's seed, made from the study's secret and the
participant's code (:func:`seed_of`): the participant holds the code, never the secret, so
nothing to come can be worked out from what they see."""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import threading
from collections.abc import Mapping, Sequence

import numpy as np

from huescues.agents import prepare
from huescues.engine import Board, ChooseTarget, new_game, normalise_clue

from ._consent import consent_keys, consent_text, consent_warnings
from ._db import Database
from ._logs import warn
from ._plates import DEFICIENCIES, plate_pairs
from ._study_config import (
    DEFAULT_CLUES,
    DEFAULT_CLUES_BY_LANGUAGE,
    DEFAULT_PRACTICE_CLUES,
    GIVERS,
    StudyConfig,
    _consent_text,
)
from ._study_items import Item, interleave
from ._study_schema import _stored_code, hash_game_tokens, order_secret

__all__ = ["KINDS", "Study", "seed_of"]

#: The studies a server runs: guessing (``/study``), giving clues (``/study/give``) and whole
#: games with bots (``/study/game``).
KINDS = ("guess", "give", "game")


def seed_of(secret: bytes, participant: str) -> int:
    """The participant's generator seed, from the study's secret and the participant's code:
    reproducible by the server, and unknown to the participant, who holds the code but never the
    secret (from the code alone, the targets to come and the plates' answers could be worked
    out)."""
    digest = hmac.new(secret, participant.encode(), hashlib.sha256).digest()
    # 63 bits: the seed fits SQLite's signed integers as it is.
    return int.from_bytes(digest[:8], "big") >> 1


class Study:
    """A study as its settings make it: the board, the clue list and the practice list, the
    targets, the consent texts, the completion code and the secret."""

    def __init__(self, db: Database, config: StudyConfig) -> None:
        self.db = db
        self.config = config
        self.secret = order_secret(db)
        hash_game_tokens(db)  # a database of an older server kept the tokens themselves
        self.board = Board.standard() if config.board is None else Board.from_csv(config.board)
        self.clues = (
            config.clues
            if config.clues is not None
            else DEFAULT_CLUES_BY_LANGUAGE.get(config.language, DEFAULT_CLUES)
        )
        practice = config.practice_clues
        if practice is None:
            practice = DEFAULT_PRACTICE_CLUES.get(config.language, DEFAULT_PRACTICE_CLUES["en"])
        # Practice is practice: never one of the study's own items.
        study = {normalise_clue(c) for c in self.clues}
        self.practice_clues = tuple(c for c in practice if normalise_clue(c) not in study)
        if config.practice and not self.practice_clues:
            raise ValueError(
                "every practice clue is one of the study's clues: give --practice-clues of others"
            )
        self.targets = self._check_targets(config.targets)
        self.own_consent = None if config.consent is None else _consent_text(config.consent)
        if self.own_consent is not None:
            missing = consent_warnings(config, self.own_consent)
            if missing:
                warn(
                    f"the consent text in {config.consent} does not say that the study stores "
                    f"{'; '.join(missing)}"
                )
        self._giver: object | None = None
        self._giver_lock = threading.Lock()
        self._pairs: dict[str, np.ndarray] = {}
        self._pairs_lock = threading.Lock()
        if config.giver is not None:
            # Reading the vocabulary on the board takes seconds: start now, not at the first
            # participant (who would otherwise wait).
            threading.Thread(target=self.giver, daemon=True, name="study-giver").start()
        self.completion_code = config.completion_code or _stored_code(db)
        settings = {
            k: v
            for k, v in dataclasses.asdict(config).items()
            if k not in ("completion_code", "rate", "burst", "starts_per_minute")
        }
        settings.update(clues=list(self.clues), practice_clues=list(self.practice_clues))
        with db.transaction() as cur:
            # The export's attention_passed applies the rule the study ran with, and the
            # dataset's description names the settings (never the completion code: it pays).
            cur.execute(
                "INSERT OR REPLACE INTO study_meta (key, value) "
                "VALUES ('attention_misses_allowed', ?)",
                (str(config.attention_misses_allowed),),
            )
            cur.execute(
                "INSERT OR REPLACE INTO study_meta (key, value) VALUES ('settings', ?)",
                (json.dumps(settings),),
            )

    def _check_targets(self, targets: Sequence[str] | None) -> tuple[str, ...]:
        """The giving study's targets as square names (every square, without ``--targets``);
        a ``ValueError`` names one that is not a square of the board."""
        if targets is None:
            return tuple(str(c) for c in self.board.cells())
        out = []
        for text in targets:
            try:
                out.append(str(self.board.cell(text.strip())))
            except ValueError:
                raise ValueError(
                    f"target {text.strip()[:20]!r} is not a square of the {self.board.rows} x "
                    f"{self.board.cols} board: give squares such as A3,F12 (R1)"
                ) from None
        if len(set(out)) != len(out):
            raise ValueError("the targets hold a square twice")
        return tuple(out)

    def consent(self, kind: str, language: str = "en") -> tuple[str, ...]:
        """The consent text of a ``kind`` study: the researcher's own, or the built-in one made
        from what the study stores."""
        if self.own_consent is not None:
            return self.own_consent
        return consent_text(self.config, kind, language)

    def consent_keys(self, kind: str) -> list[list[str]] | None:
        """The built-in text's sentences by key (None with the researcher's own text)."""
        return None if self.own_consent is not None else consent_keys(self.config, kind)

    def giver(self) -> object:
        with self._giver_lock:
            if self._giver is None:
                assert self.config.giver is not None
                agent = GIVERS[self.config.giver]()
                prepare(agent, self.board, new_game(4, seed=0, board=self.board).rules)
                self._giver = agent
            return self._giver

    def plate_pairs(self, deficiency: str) -> np.ndarray:
        with self._pairs_lock:
            if deficiency not in self._pairs:
                self._pairs[deficiency] = plate_pairs(self.board, deficiency)
            return self._pairs[deficiency]

    # -- a participant's plan ------------------------------------------------------------------
    def plan(
        self,
        seed: int,
        clues: tuple[str, ...] | None,
        kind: str = "guess",
        answered: Mapping[str, int] | None = None,
    ) -> list[Item]:
        """The participant's plan in order: the colour plates, the practice items, then the
        main items with the attention checks spread among them (the game study: the checks,
        then the game). ``answered`` counts, for each item of the study's list, the completed
        participants it was given to (balanced assignment). The main items come from the
        participant's own generator; the rest from a second of the same seed."""
        rng = np.random.default_rng(seed)
        extra = np.random.default_rng([seed, 1])
        cfg = self.config
        counts = answered or {}
        if kind == "give":
            main = [
                Item(None, None, t, "give")
                for t in self._least(self.targets, cfg.targets_per_person, counts, rng)
            ]
        elif kind == "game":
            main = [Item(None, None, None, "game")]
        else:
            main = self._guess_items(rng, clues, counts)
        cells = self.board.cells()
        if kind == "give":
            shown = {i.target for i in main}
            free = [c for c in cells if str(c) not in shown]
            practice = [
                Item(None, None, str(free[int(extra.integers(len(free)))]), "give-practice")
                for _ in range(cfg.practice)
            ]
        else:
            practice = [
                Item(self.practice_clues[int(i) % len(self.practice_clues)], None, None, "practice")
                for i in extra.permutation(max(cfg.practice, len(self.practice_clues)))[
                    : cfg.practice
                ]
            ]
        plates = [
            self._plate(extra, DEFICIENCIES[i % len(DEFICIENCIES)])
            for i in range(cfg.colour_plates)
        ]
        checks = [
            Item(None, None, str(cells[int(extra.integers(len(cells)))]), "attention")
            for _ in range(cfg.attention_checks)
        ]
        if kind == "game":
            return [*plates, *practice, *checks, *main]
        return [*plates, *practice, *interleave(main, checks)]

    @staticmethod
    def _least(
        items: Sequence[str], k: int, counts: Mapping[str, int], rng: np.random.Generator
    ) -> list[str]:
        """``k`` of ``items``, those answered least (ties at random), in a random order."""
        tie = rng.random(len(items))
        ranked = sorted(range(len(items)), key=lambda i: (counts.get(items[i], 0), tie[i]))
        chosen = [items[i] for i in ranked[: min(k, len(items))]]
        return [chosen[int(i)] for i in rng.permutation(len(chosen))]

    def _guess_items(
        self, rng: np.random.Generator, clues: tuple[str, ...] | None, counts: Mapping[str, int]
    ) -> list[Item]:
        k = self.config.clues_per_person
        if clues is not None:
            # A visitor's own list: theirs alone, so nothing to balance.
            order = rng.permutation(len(clues))[:k]
            return [Item(clues[int(i)]) for i in order]
        if self.config.giver is None:
            return [Item(c) for c in self._least(self.clues, k, counts, rng)]
        giver = self.giver()
        items = []
        for _ in range(k):
            game_seed = int(rng.integers(2**32))
            # The engine's own draw: a card from the deck, then one of its four squares (R3,
            # R8), and the giver's first clue for it, from the giver's view alone (R9).
            state = new_game(4, seed=game_seed, board=self.board)
            state = state.apply(ChooseTarget(int(rng.integers(4))))
            assert state.current_player is not None
            view = state.view(state.current_player)
            clue = giver.give_clue(view, np.random.default_rng(game_seed))  # type: ignore[attr-defined]
            items.append(Item(normalise_clue(clue.text), self.config.giver, str(state.target)))
        return items

    def _plate(self, rng: np.random.Generator, deficiency: str, n: int = 4) -> Item:
        """A plate that screens for ``deficiency``: ``n`` swatches of one square's colour but
        one, of a square that ``deficiency`` confuses with it (:mod:`._plates`); the item's
        ``clue`` names the deficiency, its ``target`` the odd swatch's place."""
        pairs = self.plate_pairs(deficiency)
        if not len(pairs):
            raise ValueError(
                f"board {self.board.id} has no pair of squares for a {deficiency} plate"
            )
        a, b = (int(x) for x in pairs[int(rng.integers(len(pairs)))])
        if rng.random() < 0.5:
            a, b = b, a
        cells = self.board.cells()
        odd = int(rng.integers(n))
        swatches = [self.board.hex(cells[a])] * n
        swatches[odd] = self.board.hex(cells[b])
        return Item(deficiency, None, str(odd), "colour", tuple(swatches))
