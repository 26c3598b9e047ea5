"""Play offline in a terminal through the same table service the Discord bot uses.

People take turns at one keyboard ("hot seat"); private messages are printed with a
header naming their receiver, so look away when it is not you. Board pictures are saved
to a folder after every announcement. Controls are the Discord panels as numbered menus.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from . import images, players
from .describe import final_lines, hand_text, status_text
from .storage import SqliteStorage
from .table import Outcome, TableError, TableService
from .ui import Button, Panel, Select

MENTION = re.compile(r"<@(\d+)>")


class ConsoleSink:
    def __init__(self, out: TextIO, folder: Path | None, names: dict[int, str]) -> None:
        self.out = out
        self.folder = folder
        self.names = names
        self.posts = 0
        self.last: Outcome | None = None

    def clean(self, text: str) -> str:
        return MENTION.sub(lambda m: self.names.get(int(m[1]), "?"), text)

    async def publish(self, o: Outcome) -> None:
        self.last = o
        self.posts += 1
        print("\n".join(self.clean(x) for x in o.lines), file=self.out)
        if o.public_view is not None and self.folder is not None:
            png = await asyncio.to_thread(images.board_png, o.public_view, o.highlight,
                                          o.last_move)
            if png:
                path = self.folder / f"board-{self.posts:04d}.png"
                path.write_bytes(png)
        for seat, hv in o.hand_views.items():
            name = o.seats[seat].name
            news = "; ".join(o.private_lines.get(seat, []))
            print(f"  [private to {name}] {news}\n  " + hand_text(o.game_id, hv).replace(
                "\n", "\n  "), file=self.out)
        if o.finished and o.public_view is not None:
            print("\n".join(final_lines(o.game_id, o.public_view, o.seats)), file=self.out)
            if self.folder is not None and o.record is not None:
                (self.folder / f"tempus-game-{o.game_id}.json").write_text(
                    json.dumps(o.record, indent=1))


def _controls(panel: Panel) -> list[Button | Select]:
    return panel.controls()


async def run_console(*, players_n: int = 3, humans: int = 1, level: str | None = None,
                      seed: int | None = None, random_map: bool = True,
                      out_dir: str | None = "boards", db: str = ":memory:", ai_delay: float = 0.0,
                      read: Callable[[str], str] = input, out: TextIO = sys.stdout) -> int:
    folder = Path(out_dir) if out_dir else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    names = {i + 1: f"Player {i + 1}" for i in range(humans)}
    storage = await SqliteStorage.open(db)
    sink = ConsoleSink(out, folder, names)
    service = TableService(storage, sink, ai_delay=ai_delay)
    try:
        o = await service.create(None, 1, 1, names.get(1, "Host"), seats=players_n,
                                 random_map=random_map, seed=seed, host_plays=humans > 0)
        game = o.game_id
        for uid in range(2, humans + 1):
            await service.join(game, uid, names[uid])
        for _ in range(players_n - humans):
            await service.add_ai(game, 1, level or players.default_level())
        await service.start(game, 1)
        while True:
            await service.idle()
            table = await service.table(game)
            if table.game.status != "active":
                break
            owing = sorted(s for s in table.since if not table.seats[s].is_ai)
            if not owing:
                await asyncio.sleep(0.05)
                continue
            seat = owing[0]
            uid = table.seats[seat].user_id
            assert uid is not None
            if not await _turn(service, game, uid, names[uid], sink, read, out):
                return 1
        return 0
    finally:
        await service.close()
        await storage.close()


async def _turn(service: TableService, game: int, uid: int, name: str, sink: ConsoleSink,
                read: Callable[[str], str], out: TextIO) -> bool:
    """One decision of a person: show the controls, read a choice, use it."""
    table = await service.table(game)
    panel = sink.last.panel if sink.last is not None and sink.last.panel else Panel("")
    seat = table.seat_of(uid)
    if seat is not None and seat in table.since:
        try:
            secret, _ = await service.menu(game, uid, "secret")
            panel = secret
        except TableError:
            pass
    version = table.version
    while True:
        print(f"\n== {name} ==\n" + sink.clean(panel.text), file=out)
        controls = _controls(panel)
        if not controls:  # an information-only menu (e.g. no card can be played now)
            return True
        for i, c in enumerate(controls, 1):
            if isinstance(c, Button):
                print(f"  {i}) [{c.label}]", file=out)
            else:
                print(f"  {i}) {c.placeholder} ({len(c.options)} choices)", file=out)
        print("  (h: hand, s: status, q: quit)", file=out)
        try:
            raw = read("> ").strip()
        except EOFError:
            return False
        if raw == "q":
            return False
        if raw == "h":
            hand, _ = await service.menu(game, uid, "hand")
            print(hand.text, file=out)
            continue
        if raw == "s":
            v, seats = await service.public_view(game)
            if v is not None:
                print(sink.clean(status_text(game, v, seats)), file=out)
            continue
        if not raw.isdigit() or not 1 <= int(raw) <= len(controls):
            print("Type the number of a choice.", file=out)
            continue
        c = controls[int(raw) - 1]
        values: list[str] | None = None
        if isinstance(c, Select):
            for j, opt in enumerate(c.options, 1):
                extra = f" — {opt.description}" if opt.description else ""
                print(f"    {j}) {opt.label}{extra}", file=out)
            hint = f"{c.min_values}-{c.max_values} numbers, comma-separated"
            try:
                picked = read(f"  choose ({hint}) > ").replace(" ", "")
            except EOFError:
                return False
            try:
                idx = [int(x) - 1 for x in picked.split(",") if x]
                values = [c.options[i].value for i in idx]
            except (ValueError, IndexError):
                print("Not a valid choice.", file=out)
                continue
        try:
            reply = await service.use(game, version, uid, name, c.op, c.arg, values)
        except TableError as exc:
            print(str(exc), file=out)
            return True
        if reply.menu is None:
            return True
        panel, version = reply.menu, reply.version
