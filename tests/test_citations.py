"""What to cite: CITATION.cff for the library, and every shipped data set with its source,
version, licence, checksum and BibTeX (huescues.research.citations())."""

from __future__ import annotations

import hashlib
import re
from importlib import resources
from pathlib import Path

import pytest

import huescues
from huescues.research import Citation, citations
from huescues.research._citations import cited_files

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "huescues" / "data"


def test_the_citations_print_as_bibtex() -> None:
    entries = citations()
    text = str(entries)
    keys = re.findall(r"^@\w+\{([\w-]+),$", text, flags=re.M)
    assert keys == [c.key for c in entries]  # one entry each, no key twice
    assert len({c.key for c in entries}) == len(entries)
    for c in entries:
        assert isinstance(c, Citation) and c.source and c.version and c.licence
        body = str(c)
        assert body.startswith("@") and body.count("{") == body.count("}"), c.key
    assert f"version = {{{huescues.__version__}}}" in str(entries.entry("huescues"))
    with pytest.raises(KeyError, match="no citation 'nope'"):
        entries.entry("nope")


def test_every_shipped_data_file_is_cited_and_every_cited_file_ships() -> None:
    shipped = {
        str(p.relative_to(DATA))
        for p in DATA.rglob("*")
        if p.is_file()
        and "__pycache__" not in p.parts
        and p.name not in {"__init__.py", "README.md"}
        and "LICENSE" not in p.name
    }
    assert set(cited_files()) == shipped


def test_a_checksum_is_the_sha256_of_the_files_as_installed() -> None:
    entry = citations().entry("munroe2010xkcd")
    data = resources.files("huescues.data").joinpath("naming/xkcd-colors.tsv").read_bytes()
    expected = hashlib.sha256(b"naming/xkcd-colors.tsv\0" + data).hexdigest()
    assert entry.checksum == "sha256:" + expected
    assert entry.checksum in str(citations())
    assert citations().entry("huescues").checksum is None


def test_citation_cff_names_the_packages_version() -> None:
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert text.startswith("cff-version: 1.2.0\n")
    assert f'version: "{huescues.__version__}"' in text
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'version = "{huescues.__version__}"' in project
    assert "citations()" in text


def test_no_made_up_site_address_is_published() -> None:
    # The project has no site yet: an address that cannot resolve is left out, not printed.
    for name in ("pyproject.toml", "mkdocs.yml", "CITATION.cff", "README.md"):
        assert "example.invalid" not in (ROOT / name).read_text(encoding="utf-8"), name
