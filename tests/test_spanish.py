"""The Spanish reading (issue 22): default_model(language="es")."""

from __future__ import annotations

import numpy as np
import pytest

from huescues.language import default_model, fold


def _hue(text: str) -> tuple[float, float, float]:
    lab = default_model("es").predict(text).lab
    return float(lab[0]), float(lab[1]), float(lab[2])


def test_english_is_the_default() -> None:
    assert default_model() is default_model(language="en")


def test_a_bad_language_is_named() -> None:
    with pytest.raises(ValueError, match="'fr'"):
        default_model(language="fr")


def test_fold() -> None:
    assert fold("PLÁTANO") == fold("platano") == "platano"
    assert fold("Año") == "año"
    assert fold("MONST. GALLETA") == "monst galleta"


@pytest.mark.parametrize(
    "pair", [("PLÁTANO", "platano"), ("Remolacha", "remolacha"), ("OTOÑO", "otoño")]
)
def test_accents_and_capitals_read_the_same(pair: tuple[str, str]) -> None:
    lab = np.array([[60.0, 10.0, 40.0]])
    m = default_model("es")
    assert np.array_equal(m.score(pair[0], lab), m.score(pair[1], lab))


def test_things_read_their_colours() -> None:
    _, _, b = _hue("plátano")
    assert b > 40  # yellow
    _, a, _ = _hue("remolacha")
    assert a > 20  # red to purple
    for word in ("pitufo", "cielo", "monstruo de las galletas"):
        assert _hue(word)[2] < -15, word  # blue


def test_unknown_words_read_as_they_are() -> None:
    m = default_model("es")
    assert m.translate("Pikachu").text == "pikachu"
    assert m.translate("Pikachu").confidence == 1.0
