"""PNG images and their descriptions from views, via the render package.

Plain top-level functions so a process pool can run them. When the render package is not
installed (or fails) the image functions return None and the bot posts text only: a
missing picture must never stop a game. ``lang`` is the language of the words drawn in
the image (``"en"`` or ``"pl"``, see :mod:`render.words`).
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)


def board_png(view: dict[str, Any], highlight: tuple[int, ...] = (),
              last_move: tuple[int, ...] | None = None, full: bool = False,
              lang: str = "en") -> bytes | None:
    """The board: the land with the panel below (``full``: the whole 13 x 12 board)."""
    try:
        from render.board import render_board
    except ImportError:
        return None
    try:
        return render_board(view, highlight, last_move, full=full, lang=lang)
    except Exception:
        log.exception("board rendering failed")
        return None


def board_png_and_alt(view: dict[str, Any], highlight: tuple[int, ...] = (),
                      last_move: tuple[int, ...] | None = None, full: bool = False,
                      lang: str = "en", changed: list[str] | None = None
                      ) -> tuple[bytes | None, str | None]:
    """:func:`board_png` and :func:`board_alt` in one job: a turn message's board and its
    description, both made in the render worker (the description's number words cost the
    bot's event loop a few per cent of its time at a thousand games)."""
    return (board_png(view, highlight, last_move, full, lang),
            board_alt(view, changed, lang))


def crop_png(view: dict[str, Any], hexes: tuple[int, ...], highlight: tuple[int, ...] = (),
             lang: str = "en") -> bytes | None:
    """A small part of the map for a private menu: ``hexes`` (e.g. the stack that moves,
    ringed) and ``highlight`` (its legal targets, outlined), with a ring around them."""
    try:
        from render.board import render_crop
    except ImportError:
        return None
    try:
        return render_crop(view, hexes, highlight, lang=lang)
    except Exception:
        log.exception("crop rendering failed")
        return None


def recap_png_and_alt(view: dict[str, Any], marks: tuple[tuple[int, ...], ...],
                      lines: list[str] | None = None, lang: str = "en"
                      ) -> tuple[bytes | None, str | None]:
    """A recap's picture (the board of the public ``view`` with ``marks`` drawn over it,
    :mod:`render.recap`) and its description: the board's, with ``lines`` (what the marks
    are) as what changed."""
    try:
        from render.recap import render_recap
    except ImportError:
        return None, None
    try:
        png = render_recap(view, marks, lang=lang)
    except Exception:
        log.exception("recap rendering failed")
        return None, None
    return png, board_alt(view, lines, lang)


def hand_png(view: dict[str, Any], lang: str = "en") -> bytes | None:
    try:
        from render.hand import render_hand
    except ImportError:
        return None
    try:
        return render_hand(view, lang)
    except Exception:
        log.exception("hand rendering failed")
        return None


def board_alt(view: dict[str, Any], changed: list[str] | None = None,
              lang: str = "en") -> str | None:
    """The description (alt text, at most 1,024 characters) for a board image of the
    public ``view``: whose turn, the scores, then the ``changed`` lines. Cheap enough for
    the bot process, once in a while. None when the render package is missing."""
    try:
        from render.alt_text import board_alt_text
    except ImportError:
        return None
    try:
        return board_alt_text(view, changed, lang)
    except Exception:
        log.exception("alt text failed")
        return None


def menu_alt(kind: str, view: dict[str, Any], focus: tuple[int, ...] = (),
             highlight: tuple[int, ...] = (), lang: str = "en") -> str | None:
    """The description of a private menu's picture (``kind`` as ``Panel.image``): a map
    detail (``"crop"``: ``focus`` and its outlined ``highlight`` targets), a tile preview
    (``"board"``) or the asker's own hand (``"hand"``). None when the render package is
    missing."""
    try:
        from render.alt_text import crop_alt_text, hand_alt_text, preview_alt_text
    except ImportError:
        return None
    try:
        if kind == "hand":
            return hand_alt_text(view, lang)
        if kind == "crop":
            return crop_alt_text(view, focus, highlight, lang)
        return preview_alt_text(view, highlight, lang)
    except Exception:
        log.exception("alt text of a menu picture failed")
        return None


def position_lines(view: dict[str, Any], lang: str = "en") -> list[str]:
    """The whole position in words, hex by hex (``/tempus board text:True``); empty when the
    render package is missing."""
    try:
        from render.alt_text import describe_position
    except ImportError:
        return []
    try:
        return describe_position(view, lang)
    except Exception:
        log.exception("describing the position failed")
        return []


def warm() -> bool:
    """Import the renderer in a worker process (used to start pool workers early)."""
    try:
        import render.board
        import render.hand  # noqa: F401
    except ImportError:
        return False
    # the shared palettes and fonts: most of the first render's cost
    render.board.palette()
    render.hand.hand_palette()
    render.hand.prepare()  # each card look once, mapped to the hand palette
    return True
