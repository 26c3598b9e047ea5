"""``/tempus board since:N``: what happened since round N began, privately, with the
board marked (:mod:`games.tempus.recap`); the same answer the "What happened?" button gives
a spectator, for any round and any game on the server, running or finished.

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
from games.tempus import images
from games.tempus.labels import record_names
from games.tempus.recap import RecapError, Since, alt_lines, collect, recap_lines
from games.tempus.result_post import Attachment
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
    record = await hist.load_record(service.storage, g)
    try:
        recap = await run(collect, record, Since.round_start(since))
    except RecapError as exc:
        raise TableError(exc.key, **exc.kwargs) from None
    names = record_names(record.players)
    text = "\n".join(recap_lines(recap, names))
    if recap.empty:
        return Answer(text)
    lines = alt_lines(recap)
    png, alt = await run(images.recap_png_and_alt, recap.view, recap.marks, lines,
                         i18n.current())
    files = [Attachment("recap.png", png, alt or t("file.board"))] if png else []
    return Answer(text, files)


async def recap_since(service: TableService, asker: Asker, game: str | None, since: int,
                      at: str | None, run: Runner | None = None) -> Answer:
    """``/tempus board since:N``: a moment (``at``) as well is refused (one question at a
    time)."""
    if at is not None:
        raise TableError("error.recap_and_at")
    return await recap_answer(service, asker, game, since, run)
