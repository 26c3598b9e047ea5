"""The games the bot plays, each behind the port (``games.port``), and what the host and
the games share: the Discord-free controls (``games.controls``) and their ids
(``games.custom_ids``). ``games.registry`` finds a game by its stored name."""
