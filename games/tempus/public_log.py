"""The public log of a game: every line its table has been shown, from its record.

What ``/tempus-records show what:record`` gives for a game still running: its record
holds the seed (hence the deck order), every hand and every face-down card, so it stays
secret until the end (engine/commitment.py). The log is built here from the record by
replaying it, keeping only the events everyone sees (``engine.events.visible`` with no
seat), in the words the table read them (:mod:`games.tempus.event_text`): no seed, no hand,
no face-down card. A plain function of the record, so it can run in a worker process.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.commitment import commitment
from engine.events import visible
from engine.game import apply_in_place
from engine.record import Record
from games.tempus.event_text import event_text
from games.tempus.labels import colour_name
from lang import i18n
from lang.messages import t


def public_log(record: dict[str, Any], names: Sequence[str]) -> list[str]:
    """The public lines of ``record`` (the record itself never leaves this function):
    who plays which colour, the shuffle commitment, then every public event in order."""
    rec = Record.from_json(record)
    lines = [t("lobby.seat_colour", colour=colour_name(s), name=name)
             for s, name in enumerate(names)]
    if rec.salt is not None:
        lines.append(t("shuffle.commitment",
                       commitment=commitment(rec.seed, rec.salt, rec.rules_version)))
    state, events = rec.new_state()
    lines.extend(event_text(e) for e in visible(events, None))
    for seat, action in rec.moves:
        lines.extend(event_text(e) for e in visible(apply_in_place(state, seat, action),
                                                    None))
    return lines


def public_log_job(record: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """:func:`public_log` in ``lang``, with positional arguments only (a worker process
    does not share the bot's current language)."""
    with i18n.using(lang):
        return public_log(record, names)
