"""The final result of a game: text, score chart, final board and record file.

:func:`final_post` is what the announcing side posts when a game ends (in the game's
thread, and a shorter text in the channel) and what ``/tempus-records show`` answers later. It
is a plain function of the record, so it can run in a worker process; everything shown
comes from public views (R-INFO-1): cards in hand appear only as numbers, as the rules
use them to break ties (R-END-3).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.commitment import commitment
from engine.hexgrid import label
from engine.record import Record
from engine.score_breakdown import CARDS, Breakdown, SeatScore, breakdown
from engine.timeline import era_ends, snapshots
from games.controls import Button, Op, Panel, button_rows
from games.port import File, Rating
from games.tempus import images
from games.tempus.labels import colour_name
from lang import i18n
from lang.messages import decimal, t

log = logging.getLogger(__name__)

MAX_CONTENT = 2000


@dataclass
class FinalPost:
    #: the full result (for the game's thread, or the channel if there is no thread)
    text: str
    #: a short result for the channel when the full one goes to the thread
    channel_text: str
    #: chart, final board, record; the channel post may carry only the chart
    files: list[File] = field(default_factory=list)
    #: the controls under the result: the rematch button
    panel: Panel | None = None

    def file(self, prefix: str) -> File | None:
        return next((f for f in self.files if f.filename.startswith(prefix)), None)


def _who(seat: int, names: Sequence[str]) -> str:
    name = names[seat] if seat < len(names) else "?"
    return t("result.who", colour=colour_name(seat), name=name)


def _parts(s: SeatScore) -> str:
    parts = [t("result.part.hexes", n=s.hex_points)]
    parts += [t("result.part.city", value=v, hex=label(h)) for h, v in s.cities]
    if s.flight:
        parts.append(t("result.part.flight", vp=s.flight))
    return t("result.part.join").join(parts)


def tie_break_lines(b: Breakdown, names: Sequence[str]) -> list[str]:
    """R-END-3 in words: who was level on points and which tie-break decided."""
    tb = b.tie_break
    if tb is None:
        return []
    lines = [t("result.tie.intro", names=t("result.and").join(_who(s, names) for s in tb.tied),
               vp=tb.vp)]
    for step in tb.steps:
        values = ", ".join(t("result.tie.value", colour=colour_name(s), n=n)
                           for s, n in step.values)
        lines.append(t("result.tie.cards" if step.criterion == CARDS else "result.tie.cities",
                       values=values))
    if tb.shared:
        lines.append(t("result.tie.shared"))
    else:
        lines.append(t("result.tie.winner", who=_who(tb.winners[0], names)))
    return lines


def winner_line(b: Breakdown, names: Sequence[str]) -> str:
    vp = b.scores[b.winners[0]].total
    if len(b.winners) == 1:
        return t("result.winner", who=_who(b.winners[0], names), vp=vp)
    return t("result.shared", names=t("result.and").join(_who(s, names) for s in b.winners),
             vp=vp)


def result_lines(game_id: int, b: Breakdown, names: Sequence[str], *,
                 rating_changes: Mapping[int, tuple[Rating, Rating]] | None = None,
                 seat_users: Sequence[int | None] = (), details: bool = True) -> list[str]:
    """The full result: winner, tie-break, every seat's points by source (with the hex
    labels when ``details``), rating changes."""
    lines = [t("result.title", game=game_id), winner_line(b, names), *tie_break_lines(b, names)]
    for seat in b.order:
        s = b.scores[seat]
        lines.append(t("result.row", rank=b.ranks[seat], who=_who(seat, names), vp=s.total,
                       parts=_parts(s)))
        if details and s.hexes:
            lines.append(t("result.hexes", hexes=" ".join(label(h) for h in s.hexes)))
        if details and s.mountain_hexes:
            lines.append(t("result.mountains",
                           hexes=" ".join(label(h) for h in s.mountain_hexes)))
    if rating_changes:
        changes = []
        for seat, user in enumerate(seat_users):
            if user is not None and user in rating_changes:
                old, new = rating_changes[user]
                # the rating the leaderboard shows, so that both say the same number
                changes.append(t("result.rating.change", name=names[seat],
                                 before=decimal(old.ordinal), after=decimal(new.ordinal)))
        if changes:
            lines.append(t("result.rating", changes=", ".join(changes)))
    return lines


def reveal_lines(game_id: int, rec: Record) -> list[str]:
    """The seed and salt the start post's commitment hid, now that the game is over, and
    how to check them (engine/commitment.py); none for a game started without one."""
    if rec.salt is None:
        return []
    digest = commitment(rec.seed, rec.salt, rec.rules_version)
    return [t("shuffle.reveal", seed=rec.seed, salt=rec.salt, commitment=digest,
              game=game_id)]


def fit_lines(build: Any, limit: int = MAX_CONTENT) -> str:
    """``build(details)`` with the hex lists if that fits in a message, else without."""
    text = "\n".join(build(True))
    if len(text) <= limit:
        return text
    return "\n".join(build(False))[:limit]


def short_tie_line(b: Breakdown) -> list[str]:
    """The tie-break that decided, in one line for the channel (R-END-3), if there was
    a tie on points at the top."""
    tb = b.tie_break
    if tb is None:
        return []
    decided = tb.decided_by
    key = ("result.tie.short.shared" if decided is None else
           "result.tie.short.cards" if decided == CARDS else "result.tie.short.cities")
    return [t(key, vp=tb.vp)]


def channel_lines(game_id: int, b: Breakdown, names: Sequence[str]) -> list[str]:
    ranking = " · ".join(t("result.short_row", rank=b.ranks[s], who=_who(s, names),
                           vp=b.scores[s].total) for s in b.order)
    return [t("result.channel", game=game_id, winner=winner_line(b, names)), ranking,
            *short_tie_line(b), t("result.see_thread")]


#: Discord's limit for an attachment's description (alt text)
MAX_ALT = 1024


def final_board_alt(final: dict[str, Any], b: Breakdown, names: Sequence[str]) -> str:
    """The final board's alt text, from the public view: the winner by name, then the
    board described (round, winner, every colour's score)."""
    alt = images.board_alt(final, None, i18n.current())
    parts = [t("file.board") + ".", winner_line(b, names), alt or ""]
    return " ".join(p for p in parts if p)[:MAX_ALT]


def rematch_panel() -> Panel:
    return Panel("", button_rows([Button(t("btn.rematch"), Op.REMATCH, style="primary")]))


def final_post(game_id: int, record: dict[str, Any], names: Sequence[str], *,
               seat_users: Sequence[int | None] = (),
               rating_changes: Mapping[int, tuple[Rating, Rating]] | None = None,
               board: bool = True) -> FinalPost:
    """The result post of a finished game from its record (replayed here).

    ``names``: who played each seat; ``seat_users``: their Discord ids (None for a
    computer), to match ``rating_changes`` (from :func:`bot.history.ledger.record_finished`).
    Files: the score chart (PNG), the final board (PNG), the record (JSON)."""
    rec = Record.from_json(record)
    shots = snapshots(rec)
    final = shots[-1].view
    b = breakdown(final)
    text = fit_lines(lambda details: [
        *result_lines(game_id, b, names, rating_changes=rating_changes,
                      seat_users=seat_users, details=details),
        *reveal_lines(game_id, rec), t("result.files")])
    files: list[File] = []
    chart = chart_png(game_id, [s.view for s in era_ends(shots)], names)
    if chart:
        files.append(File(f"tempus-game-{game_id}-chart.png", chart, t("file.chart")))
    if board:
        png = images.board_png(final, lang=i18n.current())
        if png:
            files.append(File(f"tempus-game-{game_id}-board.png", png,
                                    final_board_alt(final, b, names)))
    data = json.dumps(record, indent=1).encode()
    files.append(File(f"tempus-game-{game_id}.json", data, t("file.record")))
    return FinalPost(text, "\n".join(channel_lines(game_id, b, names)), files, rematch_panel())


def final_post_job(game_id: int, record: dict[str, Any], names: list[str],
                   seat_users: list[int | None],
                   rating_changes: dict[int, tuple[Rating, Rating]] | None,
                   lang: str = i18n.DEFAULT) -> FinalPost:
    """:func:`final_post` with positional arguments only, for ``Offloader.run`` (which
    passes no keywords) in a worker process; ``lang``: the game's language (a worker
    does not share the bot's current locale)."""
    with i18n.using(lang):
        return final_post(game_id, record, names, seat_users=seat_users,
                          rating_changes=rating_changes)


def chart_png(game_id: int, views: list[dict[str, Any]], names: Sequence[str]) -> bytes | None:
    """The score chart, or None if the renderer is missing or fails (never stops a post)."""
    try:
        from render.chart import ChartText, render_chart
    except ImportError:
        return None
    try:
        return render_chart(views, names, ChartText(
            title=t("chart.title", game=game_id), era_track=t("chart.era_track"),
            points=t("chart.points"), axis=t("chart.axis"), start=t("chart.start"),
            vp=t("chart.vp"), lang=i18n.current()))
    except Exception:
        log.exception("game %s: chart rendering failed", game_id)
        return None
