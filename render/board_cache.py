"""Each map's last board in this process, kept so that the next board of that game is
drawn only where it changed.

A board is its background (the map layer's crop and the static panel, fixed for a game's
map, layout and language) under the drawing steps of its position (:mod:`render.scene`).
For each such background this process keeps the steps of the last board drawn on it and
that board's PNG in bands (:mod:`render.png_bands`). The next board on the same background:

1. compares its steps with the kept ones: the boxes where the two pictures can differ;
2. restores the background in those boxes on a scratch canvas and draws there the steps
   that touch them;
3. maps those boxes to the palette and puts them into the kept bands, compressing again
   only the bands they touch.

Every pixel comes out as drawing the whole board and mapping it to the palette would make
it (the palette mapping of a pixel depends on that pixel alone), and the file's bytes
depend only on its pixels: the same view gives the same PNG whether its game's last board
was kept, was another position, or was never drawn here (tests/render/test_board_cache.py
compares them over random games).

The kept boards are bounded by bytes (``TEMPUS_RENDER_BOARDS_MB``, default
:data:`DEFAULT_MB`), least recently used out first. A board whose background is not kept
(a game's first board in this process, a new layout, a map still being built) is drawn
whole, and kept. A 5-player board in the middle of a game keeps about 0.23 MB (its PNG and
its steps), so the default keeps about 1,100 games per render worker. Every worker may
draw any game's board, and the games' boards come round in turn: with more live games
than fit, least-recently-used keeps none of them when it is needed (each board pushes out
the one needed next), so set the bound above the number of live games.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from PIL import Image

from .per_process import PerProcess
from .png_bands import BandedPng
from .scene import Box, Scene, Step, changed_boxes

DEFAULT_MB = 256
#: Above this share of the image changed, drawing it whole is as cheap.
WHOLE_ABOVE = 0.6
#: What a kept step costs in memory, roughly (for the byte bound).
STEP_BYTES = 400


@dataclass
class Kept:
    steps: list[Step]
    png: BandedPng

    @property
    def nbytes(self) -> int:
        return self.png.nbytes + STEP_BYTES * len(self.steps)


class Background:
    """What a board is drawn over: the whole of it, or only some boxes of it."""

    def __init__(self, size: tuple[int, int], whole: Callable[[], Image.Image],
                 restore: Callable[[Image.Image, Box], None]) -> None:
        self.size = size
        self.whole = whole
        self.restore = restore


@dataclass
class Stats:
    """How the boards of this process were drawn (bench, tests)."""

    whole: int = 0
    changed: int = 0
    unchanged: int = 0
    changed_px: int = 0
    bands: int = 0


class BoardCache:
    """The kept boards, by background key (see the module docstring)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._kept: OrderedDict[Hashable, Kept] = OrderedDict()
        self._used = 0
        self._lock = threading.Lock()
        self._local = threading.local()
        self.stats = Stats()

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> BoardCache:
        e = os.environ if env is None else env
        mb = float(e.get("TEMPUS_RENDER_BOARDS_MB") or DEFAULT_MB)
        return cls(int(mb * (1 << 20)))

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def used_bytes(self) -> int:
        return self._used

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._used = 0

    def _take(self, key: Hashable) -> Kept | None:
        """The board kept for ``key``, no longer kept (a thread drawing on it owns it)."""
        with self._lock:
            kept = self._kept.pop(key, None)
            if kept is not None:
                self._used -= kept.nbytes
            return kept

    def _keep(self, key: Hashable, kept: Kept) -> None:
        size = kept.nbytes
        if size > self.max_bytes:
            return
        with self._lock:
            old = self._kept.pop(key, None)
            if old is not None:
                self._used -= old.nbytes
            self._kept[key] = kept
            self._used += size
            while self._used > self.max_bytes:
                _, dropped = self._kept.popitem(last=False)
                self._used -= dropped.nbytes

    def _canvas(self, size: tuple[int, int]) -> Image.Image:
        """This thread's scratch canvas, at least ``size`` (only the changed boxes of it
        are ever read, each after its background was restored; a step drawn on a larger
        canvas gives the same pixels inside the image, as Pillow clips to the canvas).
        One per thread, grown to the largest board: boards of many maps differ in size."""
        img: Image.Image | None = getattr(self._local, "canvas", None)
        if img is None or img.size[0] < size[0] or img.size[1] < size[1]:
            old = (0, 0) if img is None else img.size
            img = Image.new("RGB", (max(old[0], size[0]), max(old[1], size[1])))
            self._local.canvas = img
        return img

    def png(self, key: Hashable, scene: Scene, background: Background,
            palette: Image.Image) -> bytes:
        """The PNG of ``scene`` over ``background``, mapped to ``palette``; drawn only
        where it differs from the board kept under ``key``, and kept for the next one."""
        if scene.size != background.size:
            raise ValueError("the scene and its background differ in size")
        kept = self._take(key)
        boxes = None
        if kept is not None and kept.png.size == scene.size:
            boxes = changed_boxes(kept.steps, scene.steps, scene.size)
        width, height = scene.size
        area = sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes or ())
        if kept is None or boxes is None or area > WHOLE_ABOVE * width * height:
            img = background.whole()
            scene.draw_on(img)
            kept = Kept(scene.steps,
                        BandedPng.encode(img.quantize(palette=palette,
                                                      dither=Image.Dither.NONE)))
            self.stats.whole += 1
        elif boxes:
            canvas = self._canvas(scene.size)
            for box in boxes:
                background.restore(canvas, box)
            scene.draw_on(canvas, boxes)
            patches = [(box, canvas.crop(box).quantize(palette=palette,
                                                        dither=Image.Dither.NONE))
                       for box in boxes]
            self.stats.bands += kept.png.update(patches)
            kept.steps = scene.steps
            self.stats.changed += 1
            self.stats.changed_px += area
        else:
            kept.steps = scene.steps
            self.stats.unchanged += 1
        out = kept.png.png()
        self._keep(key, kept)
        return out


_holder: PerProcess[BoardCache] = PerProcess(BoardCache.from_env)


def board_cache() -> BoardCache:
    """The process's cache, configured from the environment at first use."""
    return _holder.get()


def set_board_cache(cache: BoardCache | None) -> None:
    """Replace the process's cache (tests, benchmarks); None: from the environment again."""
    _holder.set(cache)
