"""Refresh ``schemas.json``: the parts of Discord's OpenAPI description the fake Discord
checks bodies against, with every schema they refer to.

    python -m tests.bot.discord_spec.extract /path/to/discord-api-spec

(a clone of github.com/discord/discord-api-spec; its commit is recorded in the file)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

#: the schemas checked (and what they refer to comes along)
ROOTS = ("LaunchActivityInteractionCallbackRequest", "LaunchActivityInteractionCallbackResponse",
         "EmbeddedActivityInstance", "UserPIIResponse")
HERE = Path(__file__).parent


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = set()
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str) and v.startswith("#/components/schemas/"):
                found.add(v.rsplit("/", 1)[1])
            else:
                found |= _refs(v)
        return found
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node)) if node else set()
    return set()


def extract(spec: dict[str, Any]) -> dict[str, Any]:
    schemas = spec["components"]["schemas"]
    kept: dict[str, Any] = {}
    todo = list(ROOTS)
    while todo:
        name = todo.pop()
        if name in kept:
            continue
        kept[name] = schemas[name]
        todo.extend(_refs(schemas[name]) - kept.keys())
    return dict(sorted(kept.items()))


def main(argv: list[str]) -> int:
    repo = Path(argv[0])
    spec = json.loads((repo / "specs" / "openapi.json").read_text())
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    out = {"source": "https://github.com/discord/discord-api-spec specs/openapi.json",
           "commit": commit, "components": {"schemas": extract(spec)}}
    (HERE / "schemas.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
