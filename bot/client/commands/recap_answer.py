"""``/tempus board since:N``: what happened since round N began, privately, with the
board marked (the game's ``show.recap_panel``); the same answer the "What happened?"
button gives a spectator, for any round and any game on the server, running or finished.

Built from the stored log (:func:`bot.history.ledger.load_record`), replayed and drawn in
the bot's render workers (``run``), like the other answers of
:mod:`bot.client.commands.answers`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.client.commands.answers import Answer, Asker, Runner, resolve
from bot.history import ledger as hist
from bot.store import CANCELLED, LOBBY
from bot.table.service import TableError
from games import registry
from games.port import Declined, File
from lang import i18n
from lang.messages import t

if TYPE_CHECKING:
    from bot.table.service import TableService


async def _in_thread(fn: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.to_thread(fn, *args)


async def recap_answer(service: TableService, asker: Asker, game: str | None,
                       since: int, run: Runner | None = None) -> Answer:
    """What happened in the game (the channel's running or last finished one by
    default) since round ``since`` began."""
    run = run or _in_thread
    g = await resolve(service, asker, game, finished=False)
    if g.status in (LOBBY, CANCELLED):
        raise TableError("error.not_active", game=g.id)
    played = registry.game(g.kind)
    media = played.media
    record = await hist.load_record(service.storage, g)
    try:
        recap = await run(media.round_recap, record, since)
    except Declined as exc:
        raise TableError(exc.key, **exc.kwargs) from None
    panel = played.show.recap_panel(recap, media.record_names(record))
    if panel.image is None:  # nothing happened: words only
        return Answer(panel.text)
    png, alt = await run(media.picture, panel.image, panel.image_view, i18n.current(),
                         panel.focus, panel.highlight, panel.marks, panel.alt)
    files: list[File] = ([File(f"{panel.image}.png", png, alt or t("file.board"))]
                         if png else [])
    return Answer(panel.text, files)


async def recap_since(service: TableService, asker: Asker, game: str | None, since: int,
                      at: str | None, run: Runner | None = None) -> Answer:
    """``/tempus board since:N``: a moment (``at``) as well is refused (one question at a
    time)."""
    if at is not None:
        raise TableError("error.recap_and_at")
    return await recap_answer(service, asker, game, since, run)
