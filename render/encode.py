"""PNG encoding with a fixed palette per map: the expensive half of a board render.

An RGB board PNG is ~200 kB and takes ~30 ms to compress. Boards use few colours, so each
image is mapped onto a 256-colour palette (P mode) and written with a low zlib level.
Computing an adaptive palette per image would cost ~15 ms, so one palette is computed
once per process (from a sample map in which every terrain meets every other, a sheet of
every piece, and the exact key colours) and reused: a lookup-only quantisation costs
~2 ms. The palette never depends on the position, so the same view always gives the
same bytes, in any process.

The compression itself is the largest cost left: zlib's deflate takes ~6.5 ms for a
1.1-megapixel board even at level 2. When Intel's ISA-L is installed (``isal``, pinned in
requirements.txt) a palette image is written here instead, scanline filter "none" (what
Pillow writes for palette images too) deflated by ISA-L: ~1.2 ms, the same size within a
few per cent. Without it (a platform with no wheel), Pillow writes the PNG as before.
"""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image

try:  # Intel ISA-L's deflate: ~5x faster than zlib at the same size for these images
    from isal import isal_zlib as _isal
except ImportError:  # pragma: no cover - isal has wheels for the platforms we run on
    _isal = None  # type: ignore[assignment]  # a missing optional module is None

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


#: ISA-L has levels 0-3; a higher zlib level asks for a smaller file than they give
FAST_MAX_LEVEL = 3
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def to_png(img: Image.Image, palette: Image.Image | None = None,
           compress_level: int = COMPRESS_LEVEL) -> bytes:
    """Encode ``img`` (RGB) as PNG, through ``palette`` when given."""
    if palette is not None:
        img = img.quantize(palette=palette, dither=Image.Dither.NONE)
    if _isal is not None and compress_level <= FAST_MAX_LEVEL and fast_png_fits(img):
        return palette_png(img, compress_level)
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=compress_level)
    return out.getvalue()


def fast_png_fits(img: Image.Image) -> bool:
    """Whether :func:`palette_png` writes ``img`` exactly: an 8-bit palette image with no
    transparency or other metadata that Pillow would carry into the file."""
    return img.mode == "P" and not img.info and img.palette is not None \
        and img.palette.mode == "RGB"


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc32 = zlib.crc32 if _isal is None else _isal.crc32  # (ISA-L's: the same, faster)
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", crc32(data, crc32(kind)) & 0xFFFFFFFF)


def palette_png(img: Image.Image, level: int = COMPRESS_LEVEL) -> bytes:
    """``img`` (mode P) as a PNG deflated by ISA-L: IHDR, PLTE, one IDAT, IEND."""
    assert _isal is not None and img.mode == "P"
    width, height = img.size
    # every scanline starts with its filter type, 0 ("none"): the image one pixel wider,
    # with a column of zeros on the left, has exactly the bytes PNG wants
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(img, (1, 0))
    colours = bytes(img.getpalette("RGB") or [])[:768]
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette
    return b"".join((PNG_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", colours),
                     _chunk(b"IDAT", _isal.compress(rows.tobytes(),
                                                    min(level, FAST_MAX_LEVEL))),
                     _chunk(b"IEND", b"")))


def read_palette_png(data: bytes) -> Image.Image | None:
    """The image of a PNG as :func:`palette_png` writes it (one IDAT, every scanline
    unfiltered), read with ISA-L; None for any other PNG (read it with Pillow) or a
    damaged one."""
    if _isal is None or not data.startswith(PNG_SIGNATURE):
        return None
    chunks: dict[bytes, bytes] = {}
    at = len(PNG_SIGNATURE)
    while at + 12 <= len(data):
        (length,) = struct.unpack_from(">I", data, at)
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack_from(">I", data, at + 8 + length) \
            if at + 12 + length <= len(data) else (None,)
        if crc != zlib.crc32(body, zlib.crc32(kind)) & 0xFFFFFFFF or kind in chunks:
            return None  # damaged, or not the simple layout written above
        chunks[kind] = body
        at += 12 + length
        if kind == b"IEND":
            break
    if set(chunks) != {b"IHDR", b"PLTE", b"IDAT", b"IEND"} or len(chunks[b"IHDR"]) != 13:
        return None
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB",
                                                                  chunks[b"IHDR"])
    if (depth, colour, interlace) != (8, 3, 0) or not width or not height:
        return None
    try:
        rows = _isal.decompress(chunks[b"IDAT"])
    except Exception:  # isal raises its own error type for a damaged stream
        return None
    if len(rows) != (width + 1) * height or any(rows[::width + 1]):
        return None  # filtered scanlines: Pillow's job
    img = Image.frombytes("P", (width + 1, height), rows).crop((1, 0, width + 1, height))
    img.putpalette(chunks[b"PLTE"])
    return img
