"""The architecture report counts what it says: exact numbers on small fake trees (the
layout before issue 44, ``bot/tempus/``, and after, ``games/``), and sane ones on this
repository."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from tests.architecture import report

ROOT = Path(__file__).resolve().parents[2]

BEFORE = {
    "bot/__init__.py": "",
    "bot/__main__.py": """
        from bot.client import app

        def main():
            from bot.tempus import levels  # a game import in a function: counted
        """,
    "bot/runtime/__init__.py": "",
    "bot/runtime/config.py": """
        from __future__ import annotations

        from typing import TYPE_CHECKING

        import engine.rules
        from bot.store import rows  # runtime below store: upward

        if TYPE_CHECKING:
            from render import draw  # left out
            from bot.client import app  # left out: no edge runtime -> client
        else:
            from engine import rules as _rules  # the else branch runs: counted

        def warm():
            import json
            from bot.tempus import images  # in a function: counted
        """,
    "bot/store/__init__.py": "",
    "bot/store/rows.py": """
        from ..runtime import config  # relative: bot.runtime.config, a cycle of two
        from . import protocol  # bot.store.protocol: no edge
        """,
    "bot/store/protocol.py": """
        from typing import Protocol

        class Games(Protocol):
            async def game(self, game_id: int) -> int: ...
            async def games(self) -> list[int]: ...

        class Storage(Games, Protocol):
            async def close(self) -> None: ...

        class NotAProtocol:
            def method(self) -> None: ...
        """,
    "bot/client/__init__.py": "",
    "bot/client/app.py": """
        import bot.runtime.config
        from bot.terminal import console  # the front ends share a layer: sideways

        class App:
            \"\"\"Forwards two of its methods.\"\"\"

            def __init__(self, store):
                self.store = store

            async def game(self, game_id):
                \"\"\"A docstring does not matter.\"\"\"
                return await self.store.game(game_id)

            def close(self):
                return self.store.close()

            def own(self):
                return self.helper()

            def helper(self):
                game_id = 1
                return self.store.game(game_id)
        """,
    "bot/terminal/__init__.py": "",
    "bot/terminal/console.py": """
        from engine import *  # noqa: F403
        """,
    "bot/tempus/__init__.py": "",
    "bot/tempus/images.py": "from render import draw\n",
    "bot/tempus/levels.py": "import engine\n",
    "engine/__init__.py": "",
    "engine/rules.py": "",
    "render/__init__.py": "",
    "render/draw.py": "import engine.rules\n",
    "lang/__init__.py": "",
    "tests/__init__.py": "",
    "tests/test_x.py": "import bot.tempus.images\n",  # tests are not read
}

AFTER = {
    "bot/__init__.py": "",
    "bot/store/__init__.py": "",
    "bot/store/rows.py": "",
    "bot/store/protocol/__init__.py": """
        from typing import Protocol

        from bot.store.protocol.games import Games
        from bot.store.protocol.seats import Seats

        class Storage(Games, Seats, Protocol):
            async def close(self) -> None: ...
        """,
    "bot/store/protocol/games.py": """
        import typing

        class Games(typing.Protocol):
            async def game(self, game_id: int) -> int: ...
            async def games(self) -> list[int]: ...
        """,
    "bot/store/protocol/seats.py": """
        from typing import Protocol

        class Seats(Protocol):
            async def seats(self, game_id: int) -> list[int]: ...
        """,
    "bot/table/__init__.py": "",
    "bot/table/play.py": """
        from bot.store import rows
        from games import registry  # the port: no game code
        from games.port import Game  # the port: no game code
        from games.tempus.panels import panel  # a game's folder: game code
        """,
    "games/__init__.py": "",
    "games/port.py": "class Game: ...\n",
    "games/controls.py": "from games.port import Game\n",
    "games/registry.py": """
        from bot.store import rows  # below all host layers: upward
        from games.tempus import panels
        """,
    "games/tempus/__init__.py": "",
    "games/tempus/panels.py": "import engine\n\ndef panel(): ...\n",
    "engine/__init__.py": "",
    "render/__init__.py": "",
}


def make_tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


@pytest.fixture
def before(tmp_path: Path) -> dict:
    return report.analyse(make_tree(tmp_path, BEFORE))


@pytest.fixture
def after(tmp_path: Path) -> dict:
    return report.analyse(make_tree(tmp_path, AFTER))


def test_imports_resolve_relative_nested_and_type_checking(tmp_path: Path) -> None:
    make_tree(tmp_path, BEFORE)
    modules = report.discover(tmp_path)
    assert "tests.test_x" not in modules
    imports = report.collect_imports(modules, ["bot.runtime.config", "bot.store.rows"])
    rows = [(i.module, i.targets, i.type_checking, i.nested) for i in imports]
    assert rows == [
        ("bot.runtime.config", ("engine.rules",), False, False),
        ("bot.runtime.config", ("bot.store.rows",), False, False),
        ("bot.runtime.config", ("render.draw",), True, False),
        ("bot.runtime.config", ("bot.client.app",), True, False),
        ("bot.runtime.config", ("engine.rules",), False, False),
        ("bot.runtime.config", ("bot.tempus.images",), False, True),
        ("bot.store.rows", ("bot.runtime.config",), False, False),
        ("bot.store.rows", ("bot.store.protocol",), False, False),
    ]


def test_game_imports_before(before: dict) -> None:
    games = before["game_imports"]
    assert before["layout"] == "before (bot/tempus/)"
    assert games["statements"] == 5
    assert games["modules_with_any"] == 3
    assert games["in_functions"] == 2
    assert games["type_checking_statements"] == 1
    assert games["per_package"] == {
        "bot": {"statements": 1, "modules": 1},
        "bot.runtime": {"statements": 3, "modules": 1},
        "bot.terminal": {"statements": 1, "modules": 1},
    }
    assert games["top_modules"][0] == {"module": "bot.runtime.config", "statements": 3}
    assert games["per_game_package"] == {"bot.tempus": 2, "engine": 3}


def test_package_graph_and_cycle(before: dict) -> None:
    pairs = before["package_pairs"]
    assert pairs["nodes"] == [
        "bot", "bot.client", "bot.runtime", "bot.store", "bot.tempus", "bot.terminal",
    ]
    assert pairs["edges"] == {
        "bot": ["bot.client", "bot.tempus"],
        "bot.client": ["bot.runtime", "bot.terminal"],
        "bot.runtime": ["bot.store", "bot.tempus"],
        "bot.store": ["bot.runtime"],
        "bot.tempus": [],
        "bot.terminal": [],
    }
    assert pairs["ordered_pairs"] == 7
    assert pairs["unordered_pairs"] == 6
    assert pairs["possible_unordered_pairs"] == 15
    assert pairs["mutual"] == ["bot.runtime <-> bot.store"]
    assert pairs["cycles"] == [["bot.runtime", "bot.store"]]
    assert pairs["one_cycle"] and not pairs["all_in_one_cycle"]
    assert pairs["pairs_only_under_type_checking"] == ["bot.runtime -> bot.client"]


def test_tarjan() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"a"}}
    assert report.tarjan(graph) == [["a", "b", "c"], ["d", "e"], ["f"]]
    assert report.pair_stats({"a": {"b"}, "b": {"a"}})["all_in_one_cycle"]


def test_layers_before(before: dict) -> None:
    layers = before["layers"]
    assert [(r["module"], r["imported"]) for r in layers["upward"]] == [
        ("bot.runtime.config", "bot.store.rows"),
    ]
    assert layers["upward_package_edges"] == ["bot.runtime -> bot.store"]
    assert [(r["module"], r["imported"]) for r in layers["sideways"]] == [
        ("bot.client.app", "bot.terminal.console"),
    ]


def test_sizes_and_forwarding(before: dict) -> None:
    sizes = before["sizes"]
    app = next(r for r in sizes["longest_classes"] if r["class"] == "bot.client.app.App")
    assert (app["lines"], app["methods"]) == (19, 5)
    assert app["forwarding"] == 2
    assert sizes["forwarding_total"] == 2
    assert sizes["longest_modules"][0] == {"module": "bot.client.app", "lines": 22}
    assert "engine.rules" not in {r["module"] for r in sizes["longest_modules"]}


def test_protocols_in_one_module(before: dict) -> None:
    rows = {r["protocol"]: r for r in before["storage_protocols"]["protocols"]}
    assert set(rows) == {"Games", "Storage"}
    assert (rows["Games"]["methods"], rows["Games"]["own_methods"]) == (2, 2)
    assert (rows["Storage"]["methods"], rows["Storage"]["own_methods"]) == (3, 1)


def test_after_layout(after: dict) -> None:
    assert after["layout"] == "after (games/)"
    games = after["game_imports"]
    assert (games["statements"], games["modules_with_any"]) == (1, 1)
    assert games["per_game_package"] == {"games.tempus": 1}
    assert after["game_imports_from_games_shared"] == 1  # games.registry -> games.tempus
    pairs = after["package_pairs"]
    assert pairs["nodes"] == ["bot", "bot.store", "bot.table", "games"]
    assert pairs["edges"]["bot.table"] == ["bot.store", "games"]
    assert pairs["edges"]["games"] == ["bot.store"]
    assert pairs["cycles"] == []
    assert [(r["module"], r["imported"]) for r in after["layers"]["upward"]] == [
        ("games.registry", "bot.store.rows"),
    ]
    rows = {r["protocol"]: r for r in after["storage_protocols"]["protocols"]}
    assert rows["Storage"]["methods"] == 4
    assert rows["Storage"]["extends"] == ["Games", "Seats"]


def test_classification() -> None:
    assert report.is_game_code("games.tempus.panels")
    assert report.is_game_code("bot.tempus")
    assert report.is_game_code("render")
    assert not report.is_game_code("games.port.types")
    assert not report.is_game_code("games")
    assert not report.is_game_code("lang.messages")
    assert not report.is_game_code("bot.tempusx")
    assert report.layer_of("games.controls", set()) == -1


def test_runs_on_this_repository(capsys: pytest.CaptureFixture[str]) -> None:
    assert report.main(["--json", "--root", str(ROOT)]) == 0
    data = json.loads(capsys.readouterr().out)
    games = data["game_imports"]
    assert 0 < games["modules_with_any"] <= games["host_modules"]
    assert games["modules_with_any"] <= games["statements"]
    pairs = data["package_pairs"]
    assert {"bot.table", "bot.store", "bot.client"} <= set(pairs["nodes"])
    n = len(pairs["nodes"])
    assert pairs["possible_unordered_pairs"] == n * (n - 1) // 2
    assert pairs["mutual_pairs"] <= pairs["unordered_pairs"] <= pairs["ordered_pairs"]
    assert sum(len(c) for c in pairs["cycles"]) + len(pairs["outside_cycles"]) == n
    assert data["sizes"]["longest_modules"][0]["lines"] > 100
    storage = next(
        r for r in data["storage_protocols"]["protocols"] if r["protocol"] == "Storage"
    )
    assert storage["methods"] >= 10
    assert report.main(["--root", str(ROOT)]) == 0
    text = capsys.readouterr().out
    assert "1. Imports of game code" in text and "5. Storage protocols" in text
