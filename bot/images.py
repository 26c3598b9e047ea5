"""PNG images from views, via the render package (board and hand).

Plain top-level functions so a process pool can run them. When the render package is not
installed (or fails) they return None and the bot posts text only: a missing picture must
never stop a game.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)


def board_png(view: dict[str, Any], highlight: tuple[int, ...] = (),
              last_move: tuple[int, ...] | None = None) -> bytes | None:
    try:
        from render.board import render_board
    except ImportError:
        return None
    try:
        return render_board(view, highlight=highlight, last_move=last_move)
    except Exception:
        log.exception("board rendering failed")
        return None


def hand_png(view: dict[str, Any]) -> bytes | None:
    try:
        from render.hand import render_hand
    except ImportError:
        return None
    try:
        return render_hand(view)
    except Exception:
        log.exception("hand rendering failed")
        return None


def warm() -> bool:
    """Import the renderer in a worker process (used to start pool workers early)."""
    try:
        import render.board
        import render.hand  # noqa: F401
    except ImportError:
        return False
    render.board.palette()  # the shared palette and fonts: most of the first render's cost
    return True
