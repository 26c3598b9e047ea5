"""PNG encoding with a fixed palette per map: the expensive half of a board render.

An RGB board PNG is ~200 kB and takes ~30 ms to compress. Boards use few colours, so each
image is mapped onto a 256-colour palette (P mode) and written with a low zlib level.
Computing an adaptive palette per image would cost ~15 ms, so one palette is computed
once per process (from a sample map in which every terrain meets every other, a sheet of
every piece, and the exact key colours) and reused: a lookup-only quantisation costs
~2 ms. The palette never depends on the position, so the same view always gives the
same bytes, in any process.
"""

from __future__ import annotations

import io

from PIL import Image

COMPRESS_LEVEL = 2
BASE_COLOURS = 160


def build_palette(base: Image.Image, sheet: Image.Image,
                  exact: tuple[tuple[int, int, int], ...] = ()) -> Image.Image:
    """A P-mode image whose palette holds the ``exact`` colours (flat fills that must come
    out unchanged: players, terrains), then ``BASE_COLOURS`` for the map layer, then the
    rest for the pieces, so small but important colours get entries of their own."""
    entries: list[int] = []
    for c in dict.fromkeys(exact):  # unique, in order
        entries += list(c)
    n_exact = len(entries) // 3
    n_base = min(BASE_COLOURS, 256 - n_exact)
    map_pal = base.quantize(n_base, method=Image.Quantize.MEDIANCUT).getpalette() or []
    entries += map_pal[: 3 * n_base]
    rest = 256 - len(entries) // 3
    if rest > 0:
        piece_pal = sheet.quantize(rest, method=Image.Quantize.MEDIANCUT).getpalette() or []
        entries += piece_pal[: 3 * rest]
    entries = entries[:768] + [0] * (768 - len(entries))
    pal = Image.new("P", (1, 1))
    pal.putpalette(entries)
    return pal


def to_png(img: Image.Image, palette: Image.Image | None = None,
           compress_level: int = COMPRESS_LEVEL) -> bytes:
    """Encode ``img`` (RGB) as PNG, through ``palette`` when given."""
    if palette is not None:
        img = img.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=compress_level)
    return out.getvalue()
