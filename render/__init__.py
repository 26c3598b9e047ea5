"""Tempus images: pure functions from an engine view to PNG bytes (no Discord, no I/O
except the optional map layer cache on disk, :mod:`render.layer_cache`).

- :func:`render.board.render_board` draws the public board: the land, the panel below.
- :func:`render.board.render_crop` draws a small part of the map for a private menu.
- :func:`render.hand.render_hand` draws one seat's hand of cards.
- :func:`render.alt_text.board_alt_text` and :func:`render.alt_text.describe_position`
  put the board into words (image descriptions, ``/tempus board text:True``).

Every word they produce comes from :mod:`render.words` (``lang="en"`` or ``"pl"``). Only
``engine`` and ``data`` are imported. All are plain top-level functions with
module-level caches, so they may run in worker processes or threads.
"""
