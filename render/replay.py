"""The replay animation: one board frame per action round of a whole game, as a GIF.

The record is replayed by the engine (:func:`engine.timeline.snapshots`) and every frame
is :func:`render.board.render_board` of a **public view**, so the animation shows exactly
what the channel saw, never a hand. All frames share the board's fixed 256-colour
palette, so GIF (which Discord animates everywhere) loses nothing; each frame after the
first stores only the pixels that changed (the rest transparent over the previous frame),
which makes a whole game about ten times smaller than full frames.

The file must stay under Discord's upload limit: when a game is long the frames are
scaled down until it fits (:data:`SCALES`).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageChops

from engine.record import Record
from engine.timeline import END, ERA, MAP, SETUP, START, Snapshot, snapshots

from .board import render_board

#: Discord's upload limit for a bot without boosts is 8 MiB; keep a margin.
MAX_BYTES = 8 * 1000 * 1000
#: Frame sizes tried in turn until the file fits.
SCALES = (1.0, 0.75, 0.5, 0.35)

#: How long each kind of frame stays, in milliseconds.
DURATION_MS = {START: 1200, MAP: 1200, SETUP: 1200, ERA: 1100, END: 5000}
ROUND_MS = 550


@dataclass(frozen=True)
class Replay:
    data: bytes
    frames: int
    scale: float
    size: tuple[int, int]


def frame_snapshots(shots: Sequence[Snapshot]) -> list[Snapshot]:
    """The snapshots worth a frame: all boundaries, less an empty map before tiles."""
    return [s for s in shots if not (s.ended == START and s.view["phase"] == "tiles")]


def _frame(view: dict[str, Any]) -> Image.Image:
    return Image.open(io.BytesIO(render_board(view)))


def _scaled(frames: list[Image.Image], scale: float) -> list[Image.Image]:
    if scale == 1.0:
        return frames
    w, h = frames[0].size
    size = (round(w * scale), round(h * scale))
    palette = frames[0] if frames[0].mode == "P" else None
    out = []
    for f in frames:
        small = f.convert("RGB").resize(size, Image.Resampling.LANCZOS)
        out.append(small.quantize(palette=palette, dither=Image.Dither.NONE) if palette
                   else small.quantize(256, dither=Image.Dither.NONE))
    return out


def _unused_index(frames: list[Image.Image]) -> int | None:
    """A palette index no frame uses (the board palette holds colours for every map,
    so a single game leaves some free), or None."""
    used = [0] * 256
    for f in frames:
        for i, count in enumerate(f.histogram()[:256]):
            used[i] += count
    free = [i for i, count in enumerate(used) if count == 0]
    return free[-1] if free else None


def _deltas(frames: list[Image.Image], clear: int) -> list[Image.Image]:
    """Each frame after the first with the pixels equal to the previous frame replaced
    by the transparent index ``clear``: long runs of one index compress ~10x better, and
    with disposal 1 (keep the previous frame) the decoded frames are unchanged."""
    out = [frames[0]]
    for prev, cur in zip(frames, frames[1:]):
        a = Image.frombytes("L", cur.size, cur.tobytes())
        b = Image.frombytes("L", prev.size, prev.tobytes())
        same = ImageChops.difference(a, b).point(lambda v: 255 if v == 0 else 0)
        f = cur.copy()
        f.paste(clear, mask=same)
        out.append(f)
    return out


def _gif(frames: list[Image.Image], durations: list[int]) -> bytes:
    out = io.BytesIO()
    extra: dict[str, Any] = {}
    clear = _unused_index(frames) if all(f.mode == "P" for f in frames) else None
    if clear is not None and len(frames) > 1:
        frames = _deltas(frames, clear)
        extra["transparency"] = clear
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=durations,
                   loop=0, disposal=1, optimize=False, **extra)
    return out.getvalue()


def render_replay(views: Sequence[dict[str, Any]], durations: Sequence[int] | None = None,
                  *, max_bytes: int = MAX_BYTES) -> Replay:
    """An animated GIF of the boards of ``views`` (public views), smaller frames if
    needed to stay under ``max_bytes``. Raises ValueError if even the smallest does not
    fit."""
    if not views:
        raise ValueError("a replay needs at least one position")
    durations = list(durations) if durations is not None else [ROUND_MS] * len(views)
    full = [_frame(v) for v in views]
    for scale in SCALES:
        frames = _scaled(full, scale)
        data = _gif(frames, durations)
        if len(data) <= max_bytes:
            return Replay(data, len(frames), scale, frames[0].size)
    raise ValueError(f"the replay does not fit in {max_bytes} bytes")


def replay_record(record: Record, *, max_bytes: int = MAX_BYTES) -> Replay:
    """The animation of a whole game record: one frame per action round, longer pauses
    at the end of each era and on the final position."""
    shots = frame_snapshots(snapshots(record))
    return render_replay([s.view for s in shots],
                         [DURATION_MS.get(s.ended, ROUND_MS) for s in shots],
                         max_bytes=max_bytes)
