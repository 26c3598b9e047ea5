"""The answers of the looking commands: ``/tempus board`` and ``status``, ``/tempus-records
history``, ``show`` and ``stats``.

Plain coroutines over the table service and its storage (no discord.py), so tests call
them directly; the cogs (:mod:`bot.client.commands.look`, :mod:`bot.client.commands.records`)
are the thin Discord layer. Everything shown is built from public views (R-INFO-1); CPU
work (replaying a log, drawing) runs through ``run`` (the bot's render workers).

The record and the replay animation are kinds of ``show`` (``what:record``,
``what:replay``) and ``stats`` ends with the server's leaderboard (they were folded in
while ``/tempus`` was full); :func:`leaderboard_answer` and :func:`replay_answer` are
ready for subcommands of their own in ``/tempus-records``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from bot.history import ledger as hist
from bot.history.ratings import Skill
from bot.store import ACTIVE, CANCELLED, FINISHED, LOBBY, GameRow
from bot.table.service import TableError
from games import registry
from games.controls import Panel
from games.port import File, Media
from lang import i18n
from lang.messages import decimal, t

if TYPE_CHECKING:
    from bot.table.service import TableService

log = logging.getLogger(__name__)

Runner = Callable[..., Awaitable[Any]]
#: the last round of a game of the bot's own game, the one its commands are declared for
#: (``/tempus board at:`` and ``since:`` offer its rounds)
LAST_ERA = registry.game().media.rounds
REPLAY_CACHE = 2


@dataclass(frozen=True)
class Asker:
    """Who asks, and where (from the interaction)."""

    user_id: int
    guild_id: int | None
    channel_id: int | None


@dataclass
class Answer:
    text: str
    files: list[File] = field(default_factory=list)
    #: controls to send with it (the turn message's, privately) and their game and version
    panel: Panel | None = None
    game_version: tuple[int, int] = (0, 0)


async def _thread(fn: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.to_thread(fn, *args)


# ------------------------------------------------------------------ finding the game
def _lookup(exc: hist.GameLookupError) -> TableError:
    return TableError(exc.key, **exc.kwargs)


async def no_game_help(service: TableService, channel_id: int | None) -> str:
    """``/tempus help`` where no game is open: where a finished game's result is (its
    thread, or its channel until a new game starts), else how to open one."""
    if channel_id is not None:
        try:
            over = await service.tables.last_game_in_channel(channel_id)
        except TableError:
            over = None
        if over is not None:
            return t("help.finished", game=over)
    return t("help.no_game")


async def resolve(service: TableService, asker: Asker, game: str | None, *,
                  finished: bool, lobby: bool = False) -> GameRow:
    """The game named by ``game`` (``#12``) on the asker's server, or the channel's
    running / last finished game when it is not given (with ``lobby``, its lobby too,
    before a finished game older than it)."""
    if game is None or not game.strip():
        if asker.channel_id is None:
            raise TableError("error.guild_only")
        game_id = await service.tables.last_game_in_channel(asker.channel_id, newer_lobby=lobby)
    else:
        try:
            game_id = hist.parse_game_number(game)
        except hist.GameLookupError as exc:
            raise _lookup(exc) from None
    try:
        return await hist.game_on_server(service.storage, asker.guild_id, game_id,
                                         finished=finished, lobby=lobby)
    except hist.GameLookupError as exc:
        raise _lookup(exc) from None


async def _record(service: TableService, game: GameRow) -> dict[str, Any]:
    return (await hist.load_record(service.storage, game)).to_json()


#: words before a round number in ``at``: "round" (the bot's word for an era, as in
#: ``/tempus status``), Polish "runda", and "era" (the first spelling, kept as an alias)
ROUND_WORDS = ("round", "runda", "era")
#: the other moments as a Polish reader may type them
MOMENT_WORDS = {"początek": "start", "koniec": "end"}


def parse_moment(text: str, last: int = LAST_ERA) -> str | int:
    """``round-5`` / ``round 5`` / ``era-5`` / ``5`` -> 5 (the end of round 5, of a game
    of ``last`` rounds); ``start``; ``end``; TableError otherwise."""
    s = text.strip().lower().replace(" ", "-")
    s = MOMENT_WORDS.get(s, s)
    if s in ("start", "end"):
        return s
    digits = s
    for word in ROUND_WORDS:
        if digits.startswith(word):
            digits = digits.removeprefix(word)
            break
    digits = digits.lstrip("-")
    if digits.isdigit() and 1 <= int(digits) <= last:
        return int(digits)
    raise TableError("error.bad_era", last=last)


def _media(g: GameRow) -> Media:
    """What shows the game the table plays."""
    return registry.game(g.kind).media


# ------------------------------------------------------------------ handlers
def _hints(g: GameRow) -> bool:
    """The game's hint option (on unless the host switched it off)."""
    return bool(g.options.get("hints", True))


async def board_answer(service: TableService, asker: Asker, game: str | None = None,
                       at: str | None = None, run: Runner | None = None,
                       full: bool = False, text: bool = False) -> Answer:
    """The board of a game now (the channel's running or last finished game by default),
    or at a moment of it replayed from the stored log; ``full``: the whole 13 x 12 board
    rather than the land. A game being played comes with the turn message's controls for
    its players (not for a spectator), so it can be played from here when its thread
    cannot be reached. ``text``: the
    position in words, hex by hex, instead of the picture (for screen readers)."""
    run = run or _thread
    g = await resolve(service, asker, game, finished=False)
    media = _media(g)
    seats = await service.storage.seats(g.id)
    names = media.seat_names(seats)
    panel, version = None, 0
    if at is None and g.status == ACTIVE:
        v, _ = await service.play.public_view(g.id)
        assert v is not None
        png = await run(media.board_png, v, (), None, full, i18n.current())
        if any(s.user_id == asker.user_id and not s.left for s in seats):
            # the controls are the seats' own: a spectator's would only be refused
            panel, version = await service.play.turn_panel(g.id)
        caption = []
    else:
        moment = "end" if at is None else parse_moment(at, media.rounds)
        v, done, png = await run(media.board_png_at, await _record(service, g), moment,
                                 full, i18n.current())
        if v is None:
            raise TableError("error.era_not_reached", game=g.id, era=moment, done=done)
        # a round's end is said by the status head itself ("at the end of round 5 of 10"),
        # from the view's moment, as the image and its description say it
        caption = [t("board.at_start", game=g.id)] if moment == "start" else []
    status = media.status_text(g.id, v, seats, hints=_hints(g))
    body = "\n".join([*caption, status, *media.over_lines(v, names)])
    if text:
        return _position_answer(body, media.position_lines(v, i18n.current()), panel,
                                (g.id, version))
    alt = media.board_alt(v, None, i18n.current()) or t("file.board")
    files: list[File] = [File("board.png", png, alt)] if png else []
    return Answer(body, files, panel, (g.id, version))


def _position_answer(head: str, lines: list[str], panel: Panel | None,
                     game_version: tuple[int, int]) -> Answer:
    """The position in words: in the reply if it fits Discord's 2,000 characters, else
    the status in the reply and the whole text as a file."""
    whole = "\n".join([head, "", *lines])
    if len(whole) <= 2000:
        return Answer(whole, [], panel, game_version)
    data = "\n".join(lines).encode()
    return Answer(f"{head}\n{t('board.text_file')}",
                  [File("position.txt", data, t("file.position"))], panel, game_version)


async def status_answer(service: TableService, asker: Asker, run: Runner | None = None
                        ) -> Answer:
    """Whose turn and everyone's position; after the end, the final position; before the
    start, the lobby (seats, options, pace), also when a finished game is older than it
    (a rematch's lobby), saying where that game's result is."""
    run = run or _thread
    g = await resolve(service, asker, None, finished=False, lobby=True)
    if g.status == LOBBY:
        text = service.outcomes.lobby_panel(await service.tables.get(g.id)).text
        assert asker.channel_id is not None  # resolve found the channel's lobby
        over = await service.storage.latest_game_in_channel(asker.channel_id, (FINISHED,))
        if over is not None and over.id < g.id:  # a rematch: where the last game went
            text += "\n" + t("status.previous_game", game=over.id)
        return Answer(text)
    media = _media(g)
    seats = await service.storage.seats(g.id)
    if g.status == ACTIVE:
        v, _ = await service.play.public_view(g.id)
        assert v is not None
    else:
        v = await run(media.final_view, await _record(service, g))
    assert v is not None, "a game that is not active has a final position"
    clock = await service.clock_lines(g.id) if g.status == ACTIVE else []
    return Answer("\n".join([media.status_text(g.id, v, seats, hints=_hints(g)), *clock,
                             *media.over_lines(v, media.seat_names(seats))]))


async def show_answer(service: TableService, asker: Asker, game: str | None = None,
                      run: Runner | None = None) -> Answer:
    """A finished game's result: every seat's points by source, the tie-break, the
    score chart and the final board."""
    run = run or _thread
    g = await resolve(service, asker, game, finished=True)
    media = _media(g)
    seats = await service.storage.seats(g.id)
    post = await run(media.final_post, g.id, await _record(service, g),
                     media.seat_names(seats))
    files = [f for f in post.files if not f.filename.endswith(".json")]
    return Answer(post.text.replace("\n" + t("result.files"), ""), files)


async def record_answer(service: TableService, asker: Asker, game: str | None = None,
                        run: Runner | None = None) -> Answer:
    """The game record (JSON) of a finished game, public from the end on; of a running
    one, whose record (seed included) would give every hand away, only its public log."""
    g = await resolve(service, asker, game, finished=False)
    if g.status != FINISHED:
        media = _media(g)
        names = media.seat_names(await service.storage.seats(g.id))
        lines = await (run or _thread)(media.public_log, await _record(service, g), names,
                                       i18n.current())
        data = "\n".join(f"{i}. {line}" for i, line in enumerate(lines, 1)).encode()
        return Answer(t("record.public_log", game=g.id, n=len(lines)),
                      [File(f"tempus-game-{g.id}-log.txt", data,
                                  t("file.public_log"))])
    data = json.dumps(await _record(service, g), indent=1).encode()
    return Answer(t("record.caption", game=g.id),
                  [File(f"tempus-game-{g.id}.json", data, t("file.record"))])


#: per storage (one database): game id -> (GIF, frames), the newest REPLAY_CACHE games
_replays: weakref.WeakKeyDictionary[Any, OrderedDict[int, tuple[bytes, int]]] = \
    weakref.WeakKeyDictionary()


async def replay_answer(service: TableService, game: GameRow, run: Runner | None = None
                        ) -> Answer:
    """The animation of a whole finished game (cached: a finished game never changes)."""
    run = run or _thread
    cache = _replays.setdefault(service.storage, OrderedDict())
    cached = cache.get(game.id)
    if cached is None:
        cached = await run(_media(game).replay_gif, await _record(service, game))
        if cached is None:
            raise TableError("error.too_big", game=game.id)
        cache[game.id] = cached
        while len(cache) > REPLAY_CACHE:
            cache.popitem(last=False)
    data, frames = cached
    return Answer(t("replay.caption", game=game.id, frames=frames),
                  [File(f"tempus-game-{game.id}-replay.gif", data,
                              t("replay.caption", game=game.id, frames=frames))])


def _date(iso: str) -> str:
    """A Discord timestamp: every reader sees the date in their own format and zone."""
    try:
        return f"<t:{int(datetime.fromisoformat(iso).timestamp())}:d>"
    except ValueError:
        return iso[:10]


async def listing_channel(service: TableService, channel_id: int) -> int:
    """The channel whose games a listing shows when asked in ``channel_id``: a game's
    thread stands for the channel the game was opened in (results are kept under it)."""
    game = await service.storage.latest_game_in_channel(channel_id,
                                                        (ACTIVE, FINISHED, CANCELLED))
    if game is not None and game.thread_id == channel_id:
        return game.channel_id
    return channel_id


async def history_answer(service: TableService, asker: Asker,
                         where: Literal["channel", "server"] = "channel", page: int = 1
                         ) -> Answer:
    channel = asker.channel_id if where == "channel" else None
    if where == "channel" and channel is None:
        raise TableError("error.guild_only")
    if channel is not None:
        channel = await listing_channel(service, channel)
    games, more = await hist.listing(service.storage, asker.guild_id, channel, page=page)
    if not games:
        return Answer(t(f"history.empty.{where}"))
    lines = [t(f"history.title.{where}", page=page)]
    # the stored results say no game: they are the bot's own game's (the only one with
    # results and ratings)
    show = registry.game().show
    for g in games:
        winners = t("result.and").join(
            t("result.who", colour=show.seat_name(w.seat), name=w.name) for w in g.winners)
        lines.append(t("history.row", game=g.game_id, date=_date(g.finished_at),
                       players=", ".join(s.name for s in g.seats), winners=winners,
                       vp=g.winners[0].vp if g.winners else 0))
    if more:
        lines.append(t("history.more", page=page + 1))
    lines.append(t("history.hint", game=games[0].game_id))
    return Answer(_fit(lines))


def opening_text(opening: str) -> str:
    kinds = [k for k in opening.split("-") if k]
    if not kinds:
        return t("opening.none")
    return t("opening.sep").join(t(f"opening.{k}") for k in kinds)


def _skill(s: Skill) -> dict[str, str]:
    """The rating as shown (the cautious one that orders the leaderboard), the skill
    estimate behind it and its uncertainty, in the reader's number format."""
    return {"rating": decimal(s.ordinal), "mu": decimal(s.mu), "spread": decimal(2 * s.sigma)}


async def stats_answer(service: TableService, asker: Asker, user_id: int | None = None,
                       name: str = "", *, with_leaderboard: bool = True) -> Answer:
    who = asker.user_id if user_id is None else user_id
    st = await hist.stats(service.storage, asker.guild_id, who)
    if st is None:
        lines = [t("stats.none", name=name or f"<@{who}>")]
    else:
        lines = [t("stats.title", name=st.name),
                 t("stats.games", games=st.games, wins=st.wins,
                   share=round(100 * st.wins / st.games)),
                 t("stats.vp", avg=decimal(st.average_vp)),
                 t("stats.opening", opening=opening_text(st.opening), n=st.opening_games,
                   games=st.games)]
        if st.skill is None:
            lines.append(t("stats.unrated"))
        else:
            lines.append(t("stats.rating", rated=st.skill.games, **_skill(st.skill)))
    lines.append(await lesson_line(service, who))
    if with_leaderboard:
        lines += ["", *(await leaderboard_answer(service, asker)).text.splitlines()]
    return Answer(_fit(lines))


async def lesson_line(service: TableService, user_id: int) -> str:
    """Whether the person went through the lesson (``/tempus learn``): to its end, part of
    the way (the step they are at), or not yet."""
    row = await service.lessons.of_user(user_id)
    if row is None:
        return t("stats.lesson.none")
    if row.finished:
        return t("stats.lesson.done")
    lessons = registry.game(row.game).lessons
    steps = lessons.pages - 1 if lessons is not None else row.step + 1
    return t("stats.lesson.at", n=min(row.step + 1, steps), steps=steps)


async def leaderboard_answer(service: TableService, asker: Asker, limit: int = 10) -> Answer:
    board = await hist.leaderboard(service.storage, asker.guild_id, limit)
    if not board:
        return Answer(t("leaderboard.empty"))
    lines = [t("leaderboard.title")]
    for i, s in enumerate(board, 1):
        lines.append(t("leaderboard.row", rank=i, name=s.name, games=s.games, wins=s.wins,
                       **_skill(s.skill)))
    lines.append(t("leaderboard.note"))
    return Answer(_fit(lines))


def _fit(lines: list[str], limit: int = 2000) -> str:
    text = "\n".join(lines)
    while len(text) > limit and len(lines) > 1:
        lines = lines[:-1]
        text = "\n".join(lines)
    return text[:limit]


async def game_choices(service: TableService, asker: Asker, current: str
                       ) -> list[tuple[str, str]]:
    """Autocomplete for ``game``: this channel's finished games, newest first (then the
    server's), without deriving anything new (autocomplete must answer at once)."""
    storage = service.storage
    guild = hist.guild_key(asker.guild_id)
    channel = (None if asker.channel_id is None
               else await listing_channel(service, asker.channel_id))
    ids = await storage.result_game_ids(guild, channel, 15)
    ids += [g for g in await storage.result_game_ids(guild, None, 25) if g not in ids]
    rows = await storage.results(guild, game_ids=ids[:25])
    by_game: dict[int, list[Any]] = {}
    for r in rows:
        by_game.setdefault(r.game_id, []).append(r)
    out = []
    for g in ids[:25]:
        seats = by_game.get(g, [])
        winners = " & ".join(r.name for r in seats if r.won)
        label = f"#{g} · {', '.join(r.name for r in seats)} · 🏆 {winners}"
        if not current.strip() or current.strip().lstrip("#") in label:
            out.append((label[:100], f"#{g}"))
    return out


def moment_choices(current: str, last: int = LAST_ERA) -> list[tuple[str, str]]:
    items = [(t("board.at_choice_start"), "start")]
    items += [(t("board.at_choice", era=e), f"round-{e}") for e in range(1, last + 1)]
    items.append((t("board.at_choice_end"), "end"))
    cur = current.strip().lower()
    for word in ROUND_WORDS[1:]:  # "era-1" typed: the choices of "round-1"
        if cur.startswith(word):
            cur = "round" + cur.removeprefix(word)
            break
    return [(n, v) for n, v in items if not cur or cur in v or n.lower().startswith(cur)][:25]
