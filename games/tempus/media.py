"""Tempus as the front ends and publishing show it (games.port.Media): its pictures, the
texts of the looking commands, results and replays, from the modules beside this one and
from ``render`` and ``engine``.

The jobs a host runs in its worker processes are the plain functions of this module (and
of :mod:`games.tempus.images`, :mod:`games.tempus.result_post`, ...): :class:`TempusMedia`
only hands them out, so what a host passes to a worker is pickled by its name.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from engine.content import CONTENT
from engine.hexgrid import label, parse_label
from engine.record import Record
from engine.score_breakdown import breakdown
from engine.timeline import END, SETUP, era_end, eras_played, snapshots
from games.tempus import describe, hint, images, labels, public_log, result_post
from games.tempus import recap as recaps
from lang import i18n

log = logging.getLogger(__name__)

#: the rounds of every game: the leader's cube moves one era a progress phase and the game
#: ends when it reaches Flight (R-PROG-5, R-END-1)
ROUNDS = CONTENT.flight


# ------------------------------------------------------------------ pictures (workers)
def picture(kind: str, view: dict[str, Any], lang: str, focus: tuple[int, ...] = (),
            highlight: tuple[int, ...] = (), marks: tuple[tuple[int, ...], ...] = (),
            alt: list[str] | None = None) -> tuple[bytes | None, str | None]:
    """A private picture and its description (``kind`` as ``Panel.image``): the asker's
    hand, a map detail with the legal targets outlined, a tile preview, a recap's board
    with its changes marked, or a board with hexes outlined for what ``alt`` says (a
    lesson's page). ``alt``: what the marks are. (None, None) when it could not be
    drawn."""
    if kind == "recap":
        return images.recap_png_and_alt(view, marks, alt, lang)
    if kind == "board" and alt:
        return images.board_png_and_alt(view, highlight, None, False, lang, alt)
    if kind == "hand":
        png = images.hand_png(view, lang)
    elif kind == "crop":
        png = images.crop_png(view, focus, highlight, lang)
    else:
        png = images.board_png(view, highlight, None, False, lang)
    if not png:
        return None, None
    return png, images.menu_alt(kind, view, focus, highlight, lang)


# ------------------------------------------------------------------ replays (workers)
def final_view(record: dict[str, Any]) -> dict[str, Any]:
    return snapshots(Record.from_json(record))[-1].view


def view_at(record: dict[str, Any], moment: str | int) -> tuple[dict[str, Any] | None, int]:
    """The public view at ``moment`` ("start" = after the setup, "end", or an era number
    = the end of that era) and how many eras have ended; None if not reached."""
    shots = snapshots(Record.from_json(record))
    done = eras_played(shots)
    if moment == "end":
        last = shots[-1]
        return (last.view if last.ended == END else None), done
    if moment == "start":
        start = next((s for s in shots if s.ended == SETUP), None)
        return (None if start is None else start.view), done
    shot = era_end(shots, int(moment))
    if shot is None:
        return None, done
    # the position as that round ended: its view already counts the next round, whose
    # first turn nobody is asked yet; the image and its description say "end of round N"
    # as the message does (render.moment), not "round N+1, turn 1"
    return {**shot.view, "ended_round": int(moment)}, done


def board_png_at(record: dict[str, Any], moment: str | int, full: bool = False,
                 lang: str = i18n.SOURCE) -> tuple[dict[str, Any] | None, int, bytes | None]:
    v, done = view_at(record, moment)
    return v, done, None if v is None else images.board_png(v, (), None, full, lang)


def replay_gif(record: dict[str, Any]) -> tuple[bytes, int] | None:
    """The replay animation and its frame count (None: no renderer, or too large)."""
    try:
        from render.replay import replay_record
    except ImportError:
        return None
    try:
        r = replay_record(Record.from_json(record))
    except ValueError:
        log.exception("replay does not fit")
        return None
    return r.data, r.frames


def round_recap(record: Record, since_round: int) -> recaps.Recap:
    """What happened since round ``since_round`` began (``/tempus board since:``; raises
    games.port.Declined for a round not begun)."""
    return recaps.collect(record, recaps.Since.round_start(since_round))


# ------------------------------------------------------------------ words
def over_lines(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    if view.get("phase") != "over":
        return []
    return [result_post.winner_line(breakdown(view), names)]


def record_names(record: Record) -> list[str]:
    return labels.record_names(record.players)


def place_label(text: str) -> str | None:
    """A hex as typed (``c4``, ``C04``) as the controls label it (``C4``)."""
    try:
        return label(parse_label(text))
    except ValueError:
        return None


class TempusMedia:
    """games.port.Media for Tempus: each member a module-level function (a worker's job
    is pickled by its name) or a constant."""

    rounds = ROUNDS
    hint_budget_s = hint.BUDGET_S
    warm = staticmethod(images.warm)

    board_png = staticmethod(images.board_png)
    board_png_and_alt = staticmethod(images.board_png_and_alt)
    board_alt = staticmethod(images.board_alt)
    picture = staticmethod(picture)
    position_lines = staticmethod(images.position_lines)

    seat_names = staticmethod(labels.seat_names)
    status_text = staticmethod(describe.status_text)
    hand_text = staticmethod(describe.hand_text)
    final_lines = staticmethod(describe.final_lines)
    over_lines = staticmethod(over_lines)
    hint_for_user = staticmethod(hint.hint_for_user)
    place_label = staticmethod(place_label)

    record_names = staticmethod(record_names)
    final_view = staticmethod(final_view)
    board_png_at = staticmethod(board_png_at)
    replay_gif = staticmethod(replay_gif)
    public_log = staticmethod(public_log.public_log_job)
    final_post = staticmethod(result_post.final_post)
    final_post_job = staticmethod(result_post.final_post_job)
    round_recap = staticmethod(round_recap)
