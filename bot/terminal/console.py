"""Play offline in a terminal through the same table service the Discord bot uses.

People take turns at one keyboard ("hot seat"); private messages are printed with a
header naming their receiver, so look away when it is not you. Board pictures are saved
to a folder after every announcement (the console says where). Controls are the Discord
panels as numbered menus; where a menu lists hexes, a hex label (``C4``) works as well as
its number. Besides the numbers: ``h`` hand, ``s`` status, ``r`` rules, ``?`` help,
``t`` hint (the strongest computer player's move for you), ``q`` quit (asks first; so
does Ctrl-C). Everything is written in the language given (``--lang pl``), without Discord's
markup or slash commands: where the shared texts name a ``/tempus`` command, the console
names its own key instead (:func:`console_text`).
"""

from __future__ import annotations

import asyncio
import json
import re
import signal
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from babel.numbers import format_decimal

from bot.store import ACTIVE
from bot.store.sqlite import SqliteStorage
from bot.table.service import Outcome, TableError, TableService
from games import registry
from games.controls import MENU, MUTE, Button, Option, Panel, Select
from games.port import Game, Media
from lang import i18n
from lang.messages import RULE_TOPICS, t, t_in

MENTION = re.compile(r"<@(\d+)>")
YES = {"y", "yes", "t", "tak"}
#: `/tempus name`, `/tempus group name` or `/tempus name option:value` (code-formatted, as
#: the catalogue writes it)
COMMAND = re.compile(r"`/\S+ (?:[^\s`:]+ )?([^\s`:]+)(?: [^\s`:]+:([^`]*))?`")
#: a clickable command mention, </tempus help:123>
MENTION_CMD = re.compile(r"</\S+ ([^\s:>]+)(?: [^:>]*)?:\d+>")
MARKUP = re.compile(r"\*\*|__|`|\|\||~~")
#: the console's key for a command the shared texts name
KEYS = {"help": "?", "hint": "t", "hand": "h", "status": "s"}


def _command_names() -> dict[str, str]:
    """Each command's name in the current language (and in English) -> its command key."""
    out = {}
    for key in i18n.message_keys():
        m = re.fullmatch(r"cmd\.(\w+)\.name", key)
        if m:
            out[t(key)] = m[1]
            out[i18n.lookup(key, i18n.SOURCE)] = m[1]
    return out


def _topics() -> dict[str, str]:
    return {t(f"rules.topic.{x}"): x for x in RULE_TOPICS}


def console_text(text: str) -> str:
    """A text written for Discord, for a terminal: the help's "Rules: `/tempus help
    topic:move`, ..." line lists the topics to type after ``r``; other commands become the
    console's keys (``/tempus hand`` -> "h"); bold, code and other markup go."""
    prefix, _, suffix = t("help.rules", links="\0").partition("\0")
    names = _command_names()
    out = []
    for line in text.split("\n"):
        found = COMMAND.findall(line)
        if line.startswith(prefix) and line.endswith(suffix) and found and \
                all(names.get(c) == "help" and topic for c, topic in found):
            out.append(t("console.help_rules", topics=", ".join(topic for _, topic in found)))
            continue
        out.append(COMMAND.sub(lambda m: _key(names.get(m[1]), m[1], m[2]), line))
    text = MENTION_CMD.sub(lambda m: _key(names.get(m[1]), m[1], None), "\n".join(out))
    return MARKUP.sub("", text)


def _key(command: str | None, name: str, topic: str | None) -> str:
    if command == "help" and topic:
        return t("console.rules_link", topic=topic)
    if command in KEYS:
        return t("console.key", key=KEYS[command])
    if command == "board":
        return t("console.board_folder")
    return t("console.key", key=name)


def _fold(text: str) -> str:
    """Lower case without diacritics (``słowniczek`` and ``slowniczek`` match)."""
    text = text.strip().lower().replace("ł", "l")
    return "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(c))


def rules_console(topic: str) -> str:
    """A rules topic for the console; the commands topic is the console's own keys."""
    if topic == "commands":
        return t("console.rules.commands")
    return console_text(t(f"rules.{topic}"))


class Interrupts:
    """Ctrl-C at the console. While a prompt waits it interrupts the prompt, and the console
    asks whether to quit; while the computers play it is noted, and the question comes as
    soon as the console can ask. A second Ctrl-C before that question stops at once."""

    def __init__(self) -> None:
        self.reading = False
        self.pending = False

    def handler(self, _signum: int, _frame: FrameType | None) -> None:
        if self.reading or self.pending:
            raise KeyboardInterrupt
        self.pending = True

    def reader(self, read: Callable[[str], str]) -> Callable[[str], str]:
        def wrapped(prompt: str) -> str:
            if self.pending:  # Ctrl-C came while no prompt waited: the question comes first
                self.pending = False
                raise KeyboardInterrupt
            self.reading = True
            try:
                return read(prompt)
            finally:
                self.reading = False
        return wrapped


class ConsoleSink:
    def __init__(self, out: TextIO, folder: Path | None, names: dict[int, str]) -> None:
        self.out = out
        self.folder = folder
        self.names = names
        self.posts = 0
        self.last: Outcome | None = None

    def clean(self, text: str) -> str:
        return console_text(MENTION.sub(lambda m: self.names.get(int(m[1]), "?"), text))

    async def publish(self, o: Outcome) -> None:
        self.last = o
        self.posts += 1
        media = registry.game(o.game_name).media
        print("\n".join(self.clean(x) for x in o.lines), file=self.out)
        if o.public_view is not None and self.folder is not None:
            png = await asyncio.to_thread(media.board_png, o.public_view, o.highlight,
                                          o.last_move)
            if png:
                path = self.folder / f"board-{self.posts:04d}.png"
                path.write_bytes(png)
                print(t("console.board_saved", path=path), file=self.out)
        for seat, hv in o.hand_views.items():
            name = o.seats[seat].name
            news = "; ".join(o.private_lines.get(seat, []))
            print(f"  {t('console.private', name=name)} {self.clean(news)}\n  "
                  + self.clean(media.hand_text(o.game_id, hv)).replace("\n", "\n  "),
                  file=self.out)
        if o.finished and o.public_view is not None:
            print(self.clean("\n".join(media.final_lines(o.game_id, o.public_view, o.seats))),
                  file=self.out)
            if self.folder is not None and o.record is not None:
                path = self.folder / f"tempus-game-{o.game_id}.json"
                path.write_text(json.dumps(o.record, indent=1))
                print(t("console.record_saved", path=path), file=self.out)


def _controls(panel: Panel) -> list[Button | Select]:
    # the console pings nobody: "No pings this turn" would lead nowhere
    return [c for c in panel.controls() if c.op != MUTE]


def hex_choice(media: Media, controls: list[Button | Select], text: str
               ) -> tuple[Select, Option] | None:
    """The select option labelled with the place ``text`` names (a hex: ``c4``, ``C04``),
    if a menu has one."""
    wanted = media.place_label(text)
    if wanted is None:
        return None
    for c in controls:
        if isinstance(c, Select):
            for opt in c.options:
                if opt.label == wanted:
                    return c, opt
    return None


def lists_hexes(media: Media, select: Select) -> bool:
    return any(_is_hex(media, o.label) for o in select.options)


def _is_hex(media: Media, text: str) -> bool:
    """Whether ``text`` is a place of the board as the controls label it."""
    return media.place_label(text) == text


def pick_options(media: Media, select: Select, raw: str) -> list[str] | None:
    """Values for comma-separated numbers or hex labels typed at a select (None: invalid)."""
    values = []
    for part in raw.replace(" ", "").split(","):
        if not part:
            continue
        if part.isdigit() and 1 <= int(part) <= len(select.options):
            values.append(select.options[int(part) - 1].value)
            continue
        found = hex_choice(media, [select], part)
        if found is None:
            return None
        values.append(found[1].value)
    return values


async def run_console(*, players_n: int = 3, humans: int = 1, level: str | None = None,
                      seed: int | None = None, random_map: bool = True,
                      out_dir: str | None = "boards", db: str = ":memory:", ai_delay: float = 0.0,
                      read: Callable[[str], str] = input, out: TextIO = sys.stdout,
                      lang: str | None = None, interrupts: Interrupts | None = None) -> int:
    """Play a game at the terminal; 0 when it ends, 1 when the players quit (or input ends)."""
    i18n.set_locale(lang)
    interrupts = interrupts or Interrupts()
    read = interrupts.reader(read)
    folder = Path(out_dir) if out_dir else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        print(t("console.boards", folder=folder.resolve()), file=out)
    else:
        print(t("console.no_boards"), file=out)
    names = {i + 1: t("console.player", n=i + 1) for i in range(humans)}
    storage = await SqliteStorage.open(db)
    sink = ConsoleSink(out, folder, names)
    service = TableService(storage, sink, ai_delay=ai_delay)
    try:
        o = await service.lobby.create(None, 1, 1, names.get(1, t("console.host")), seats=players_n,
                                 options={"random_map": random_map}, seed=seed,
                                 host_plays=humans > 0,
                                 extra={"locale": i18n.current()})
        game = o.game_id
        for uid in range(2, humans + 1):
            await service.join(game, uid, names[uid])
        played = registry.game((await service.tables.get(game)).game.kind)
        for _ in range(players_n - humans):
            await service.add_ai(game, 1, level or played.computers.default_level())
        await service.start(game, 1)
        while True:
            await service.idle()
            if interrupts.pending:  # Ctrl-C while the computers played
                interrupts.pending = False
                if want_to_quit(read, out):
                    return 1
            table = await service.tables.get(game)
            if table.game.status != ACTIVE:
                break
            owing = sorted(s for s in table.since if not table.seats[s].is_ai)
            if not owing:
                await asyncio.sleep(0.05)
                continue
            seat = owing[0]
            user_id = table.seats[seat].user_id
            assert user_id is not None
            if not await _turn(service, played, game, user_id, names[user_id], sink, read,
                               out):
                return 1
        return 0
    finally:
        await service.close()
        await storage.close()


def play(**kwargs: Any) -> int:
    """:func:`run_console` from a terminal (``python -m bot --offline``): Ctrl-C asks before
    quitting, a second one stops at once, and neither prints a traceback."""
    interrupts = Interrupts()
    before = signal.signal(signal.SIGINT, interrupts.handler)
    try:
        return asyncio.run(run_console(interrupts=interrupts, **kwargs))
    except KeyboardInterrupt:
        print("\n" + t_in(str(kwargs.get("lang") or ""), "console.interrupted"), file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGINT, before)


def want_to_quit(read: Callable[[str], str], out: TextIO) -> bool:
    """Ask before quitting; the end of input or another Ctrl-C at the question means yes."""
    try:
        sure = read(t("console.quit_confirm")).strip().lower()
    except (EOFError, KeyboardInterrupt):
        print(file=out)
        return True
    return sure in YES


async def _extra(service: TableService, played: Game, game: int, uid: int, raw: str,
                 sink: ConsoleSink, read: Callable[[str], str], out: TextIO) -> bool:
    """The letter commands (hand, status, rules, help, hint); False if ``raw`` is none."""
    if raw == "h":
        hand, _ = await service.menu(game, uid, "hand")
        print(sink.clean(hand.text), file=out)
    elif raw == "s":
        v, seats = await service.play.public_view(game)
        if v is not None:
            print(sink.clean(played.media.status_text(game, v, seats)), file=out)
    elif raw == "r":
        names = {t(f"rules.topic.{x}").lower(): x for x in RULE_TOPICS}
        folded = {_fold(name): x for name, x in names.items()} | {x: x for x in RULE_TOPICS}
        topics = ", ".join(names)
        answer = _fold(read(t("console.rules_which", topics=topics)))
        topic = folded.get(answer, "")
        if answer and not topic:
            print(t("console.unknown_topic"), file=out)
        else:
            print(rules_console(topic or "overview"), file=out)
    elif raw == "?":
        table = await service.tables.get(game)
        print(sink.clean(played.show.help_for_user(table, uid)), file=out)
    elif raw == "t":
        table = await service.tables.get(game)
        seconds = format_decimal(played.media.hint_budget_s, locale=i18n.current())
        print(t("console.thinking", s=seconds), file=out)
        print(sink.clean(await played.media.hint_for_user(table, uid, service.offloader)),
              file=out)
    else:
        return False
    return True


async def _turn(service: TableService, played: Game, game: int, uid: int, name: str,
                sink: ConsoleSink, read: Callable[[str], str], out: TextIO) -> bool:
    """One decision of a person: show the controls, read a choice, use it. False: quit."""
    table = await service.tables.get(game)
    panel = sink.last.panel if sink.last is not None and sink.last.panel else Panel("")
    seat = table.seat_of(uid)
    if seat is not None and seat in table.since:
        try:
            secret, _ = await service.menu(game, uid, "secret")
            panel = secret
        except TableError:
            pass
    state = {"panel": panel, "version": table.version, "home": (panel, table.version)}
    while True:
        try:
            done = await _step(service, played, game, uid, name, sink, read, out, state)
        except EOFError:
            return False
        except KeyboardInterrupt:  # Ctrl-C at a prompt: ask, as for q
            print(file=out)
            if want_to_quit(read, out):
                return False
            continue
        if done is not None:
            return done


async def _step(service: TableService, played: Game, game: int, uid: int, name: str,
                sink: ConsoleSink, read: Callable[[str], str], out: TextIO, state: dict
                ) -> bool | None:
    """Show the menu once and act on one answer: True when the decision is made (or only
    information was shown), False to quit, None to show the menu again."""
    panel: Panel = state["panel"]
    media = played.media
    print(f"\n== {name} ==\n" + sink.clean(panel.text), file=out)
    controls = _controls(panel)
    if not controls:  # an information-only menu (e.g. no card can be played now)
        return True
    hexes = False
    for i, c in enumerate(controls, 1):
        if isinstance(c, Button):
            print(f"  {i}) [{c.label}]", file=out)
        else:
            hexes = hexes or lists_hexes(media, c)
            print("  " + t("console.select_control", n=i, placeholder=c.placeholder,
                           count=len(c.options)), file=out)
    print("  " + t("console.keys"), file=out)
    raw = read("> ").strip()
    if raw.lower() == "q":
        return False if want_to_quit(read, out) else None
    if await _extra(service, played, game, uid, raw.lower(), sink, read, out):
        return None
    values: list[str] | None = None
    direct = None if raw.isdigit() else hex_choice(media, controls, raw)
    if direct is not None:
        c = direct[0]
        values = [direct[1].value]
    elif raw.isdigit() and 1 <= int(raw) <= len(controls):
        c = controls[int(raw) - 1]
    else:
        example = next((o.label for s in controls if isinstance(s, Select)
                        for o in s.options if _is_hex(media, o.label)), "C4")
        print(t("console.pick_hex", example=example) if hexes else t("console.pick"), file=out)
        return None
    if isinstance(c, Button) and c.op == MENU and c.arg == "close":
        # "Back" shows this decision's menu again: at the terminal there is no turn
        # message to "choose again on", as Discord's "Closed" line says
        state["panel"], state["version"] = state["home"]
        return None
    if isinstance(c, Select) and values is None:
        for j, opt in enumerate(c.options, 1):
            extra = f" — {opt.description}" if opt.description else ""
            print(f"    {j}) {opt.label}{extra}", file=out)
        key = "console.select_hex" if lists_hexes(media, c) else "console.select"
        values = pick_options(media, c, read(t(key, lo=c.min_values, hi=c.max_values)))
        if values is None or not c.min_values <= len(values) <= c.max_values:
            print(t("console.invalid"), file=out)
            return None
    try:
        reply = await service.clicks.use(game, state["version"], uid, name, c.op, c.arg, values)
    except TableError as exc:
        print(sink.clean(str(exc)), file=out)
        return True
    if reply.menu is None:
        return True
    state["panel"], state["version"] = reply.menu, reply.version
    return None
