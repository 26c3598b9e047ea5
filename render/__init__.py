"""Tempus images: pure functions from an engine view to PNG bytes (no Discord, no I/O).

- :func:`render.board.render_board` draws the public board with the side panel.
- :func:`render.hand.render_hand` draws one seat's hand of cards.

Only ``engine`` and ``data`` are imported. Both functions are plain top-level functions
with module-level caches, so they may run in worker processes or threads.
"""
