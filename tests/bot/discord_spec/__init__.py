"""Bodies checked against Discord's own OpenAPI description (github.com/discord/
discord-api-spec): the schemas the fake Discord needs are kept in ``schemas.json``, made by
``python -m tests.bot.discord_spec.extract`` from a clone of it (its commit recorded)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

HERE = Path(__file__).parent


@cache
def _document() -> dict[str, Any]:
    return dict(json.loads((HERE / "schemas.json").read_text()))


def problems(schema: str, value: Any) -> list[str]:
    """What is wrong with ``value`` as Discord's schema ``schema`` (empty: nothing)."""
    doc = _document()
    if schema not in doc["components"]["schemas"]:
        raise KeyError(f"{schema} is not kept in schemas.json (add it to extract.ROOTS)")
    root = {"$ref": f"#/components/schemas/{schema}", "components": doc["components"]}
    validator = jsonschema.Draft202012Validator(root)
    return [f"{'/'.join(map(str, e.absolute_path)) or '(body)'}: {e.message}"
            for e in validator.iter_errors(value)]
