"""``python -m tests.bot.idle_bot``: ``python -m bot`` unchanged, plus a Unix socket (named
by ``$TEMPUS_TEST_IDLE_SOCKET``) on which a test asks whether the bot is idle: every line
it sends is answered with ``idle`` once no computer player is thinking and every outcome
is announced (``TableService.idle``, what a test of a bot in its own process settles on,
:func:`tests.bot.e2e.in_process`).

A test that drives a bot in another process otherwise settles on a quiet spell (nothing
new at the fake Discord for longer than the bot's outbox may wait, :func:`tests.bot.e2e.
by_quiet`), which costs that spell at every step of a game: most of a whole-game test's
time. Nothing in ``bot/`` changes: the socket is opened by a wrapper of
``TempusBot.setup_hook`` once the bot's service exists.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys

ENV = "TEMPUS_TEST_IDLE_SOCKET"
#: the idle socket's server, once the bot has set up
SERVERS: list[asyncio.Server] = []


def install(path: str) -> None:
    from bot.client.app import TempusBot

    original = TempusBot.setup_hook

    async def setup_hook(self: TempusBot) -> None:
        await original(self)

        async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError):
                try:
                    while await reader.readline():
                        assert self.service is not None
                        await self.service.idle()
                        writer.write(b"idle\n")
                        await writer.drain()
                finally:
                    writer.close()

        # kept for the process's life (one bot, one event loop): the server answers as
        # long as the bot runs
        SERVERS.append(await asyncio.start_unix_server(answer, path=path))

    # the bot's own class, wrapped on purpose before the bot starts
    TempusBot.setup_hook = setup_hook  # type: ignore[method-assign]


if __name__ == "__main__":
    from bot.__main__ import main

    install(os.environ[ENV])
    sys.exit(main(sys.argv[1:]))
