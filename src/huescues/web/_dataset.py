"""A data archive's description of an export: ``dataset_description.json`` beside every CSV that
``huescues responses export`` writes, in the Psych-DS style (a schema.org ``Dataset``: its name,
description, licence, the software and version that wrote it, the study's settings, and one
``PropertyValue`` per column, naming its meaning and unit). Two exports written into one folder
share the file: the second adds its columns to ``variableMeasured`` and its file to the
``distribution``, and keeps what the first wrote."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from huescues.research import export_variables

__all__ = ["DESCRIPTION_FILE", "VARIABLES", "describe_export"]

#: The file's name: the folder's description, as Psych-DS names it.
DESCRIPTION_FILE = "dataset_description.json"


#: Every column an export may hold: (what it is, its unit or values, its type).
#: Every column an export may hold: what it is, its unit or values, its type
#: (``data/export_variables.tsv``, which the research loaders read too).
VARIABLES: dict[str, tuple[str, str, str]] = export_variables()


def numeric_columns() -> frozenset[str]:
    """The columns whose values are numbers (the loaders give them back as numbers)."""
    return frozenset(
        name for name, (_, _, kind) in VARIABLES.items() if kind in ("integer", "number")
    )


def _variable(name: str) -> dict[str, Any]:
    meaning, unit, kind = VARIABLES.get(name, ("", "", "text"))
    out: dict[str, Any] = {"@type": "PropertyValue", "name": name, "description": meaning}
    if unit:
        out["unitText"] = unit
    out["valueType"] = kind
    return out


def describe_export(
    out: str | os.PathLike[str],
    columns: Sequence[str],
    *,
    kind: str,
    rows: int,
    settings: Mapping[str, Any],
) -> Path:
    """Write (or extend) ``dataset_description.json`` in ``out``'s folder for the CSV ``out`` of
    ``columns``; the file's path."""
    from huescues import __version__

    path = Path(out).resolve().parent / DESCRIPTION_FILE
    existing: dict[str, Any] = {}
    if path.is_file():
        try:
            existing = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            existing = {}
        if not isinstance(existing, dict):
            existing = {}
    described = {
        v.get("name"): v for v in existing.get("variableMeasured", []) if isinstance(v, dict)
    }
    for name in columns:
        described.setdefault(name, _variable(name))
    files = [f for f in existing.get("distribution", []) if isinstance(f, dict)]
    files = [f for f in files if f.get("name") != Path(out).name]
    files.append(
        {
            "@type": "DataDownload",
            "name": Path(out).name,
            "encodingFormat": "text/csv",
            "description": f"huescues responses export --kind {kind}: {rows} rows",
            "variableMeasured": list(columns),
        }
    )
    description = {
        "@context": "https://schema.org/",
        "@type": "Dataset",
        "name": existing.get("name", "Hues and Cues study data (huescues serve)"),
        "description": existing.get(
            "description",
            "People's answers to a colour-language study run with huescues serve: clicks on a "
            "board of coloured squares for clues, clues given for squares, and whole games of "
            "Hues and Cues with computer players. One row per answer, pick or action; each "
            "participant's status tells whether they completed the study.",
        ),
        "license": existing.get("license", "set by the study's researchers"),
        "creator": existing.get(
            "creator", [{"@type": "Person", "name": "the study's researchers"}]
        ),
        "schemaVersion": "Psych-DS 0.4.0",
        "keywords": ["colour naming", "colour language", "Hues and Cues", "CIELAB"],
        "variableMeasured": list(described.values()),
        "distribution": files,
        "softwareRequirements": f"huescues {__version__}",
        "wasGeneratedBy": {
            "@type": "SoftwareApplication",
            "name": "huescues",
            "softwareVersion": __version__,
        },
        "studySettings": dict(existing.get("studySettings", {})) | dict(settings),
    }
    path.write_text(json.dumps(description, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
