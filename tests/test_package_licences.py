"""The licences of the data the package ships travel with it: every ``license-files`` pattern of
pyproject.toml matches a file (setuptools refuses a pattern that matches none from 2027), and every
licence file under ``src/huescues/data`` is matched (the wheel's metadata carries it)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _patterns() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        patterns: list[str] = tomllib.load(f)["project"]["license-files"]
    return patterns


def test_every_licence_pattern_matches_a_file() -> None:
    for pattern in _patterns():
        assert sorted(ROOT.glob(pattern)), f"license-files pattern {pattern!r} matches no file"


def test_every_shipped_licence_is_in_the_package_metadata() -> None:
    matched = {p for pattern in _patterns() for p in ROOT.glob(pattern)}
    shipped = sorted((ROOT / "src" / "huescues" / "data").rglob("*LICENSE*"))
    assert shipped, "the package ships data licences"
    missing = [str(p.relative_to(ROOT)) for p in shipped if p not in matched]
    assert not missing, f"licence files not in license-files: {missing}"
