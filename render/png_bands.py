"""A palette PNG whose pixel rows are deflated in bands, each on its own, so that an image
that changed in a few places is compressed again only in the bands it changed in.

The PNG's one zlib stream is the bands' raw deflate streams one after the other: each band
is compressed by a fresh compressor and ended with a sync flush (which ends on a byte
boundary and leaves the decoder's state clean), and an empty final block and the Adler-32
of all the rows close the stream. A band's bytes depend only on its rows, so the same
image always gives the same file, however it was reached (first drawn or patched).
Starting each band without the previous band's window makes a board's file about 3 %
larger (173 kB against 168 kB for the bench's board).

Rows are unfiltered (filter type 0, what Pillow writes for palette images too), as in
:func:`render.encode.palette_png`; the deflate is ISA-L's where installed, zlib's
otherwise (the same calls, slower).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from types import ModuleType

from PIL import Image

from .encode import COMPRESS_LEVEL, FAST_MAX_LEVEL, PNG_SIGNATURE, _chunk
from .scene import Box

_deflate: ModuleType
try:
    from isal import isal_zlib as _deflate
except ImportError:  # pragma: no cover - isal has wheels for the platforms we run on
    _deflate = zlib  # the same interface, slower

#: Rows per band: small enough that a changed piece re-encodes little around it, large
#: enough that the per-band overhead and the lost matches stay small (a board has ~40
#: bands; a move's board compresses 7-8 of them again; 16 rows cost the same time and
#: made files 5 % larger than one stream, 32 rows 3 %).
BAND_ROWS = 32
#: A zlib header (deflate, 32 KiB window, no dictionary; the level field is advisory).
ZLIB_HEADER = b"\x78\x01"
#: An empty final block with fixed codes: ends a deflate stream after a sync flush.
FINAL_BLOCK = b"\x03\x00"
ADLER_BASE = 65521


def adler32_combine(adler1: int, adler2: int, len2: int) -> int:
    """The Adler-32 of ``a + b`` from that of ``a``, that of ``b`` and ``len(b)`` (zlib's
    ``adler32_combine``, which Python's zlib does not offer)."""
    rem = len2 % ADLER_BASE
    sum1 = adler1 & 0xFFFF
    sum2 = (rem * sum1) % ADLER_BASE
    sum1 += (adler2 & 0xFFFF) + ADLER_BASE - 1
    sum2 += ((adler1 >> 16) & 0xFFFF) + ((adler2 >> 16) & 0xFFFF) + ADLER_BASE - rem
    sum1 %= ADLER_BASE
    sum2 %= ADLER_BASE
    return sum1 | (sum2 << 16)


def _deflate_band(raw: bytes, level: int) -> bytes:
    c = _deflate.compressobj(min(level, FAST_MAX_LEVEL), _deflate.DEFLATED, -15)
    return c.compress(raw) + c.flush(_deflate.Z_SYNC_FLUSH)


def _inflate_band(data: bytes) -> bytes:
    d = _deflate.decompressobj(-15)
    return d.decompress(data)


class BandedPng:
    """A mode-P image kept as its PNG's compressed bands (see the module docstring): what
    a board costs to keep between two renders, about a tenth of its pixels."""

    __slots__ = ("size", "colours", "level", "bands", "adlers")

    def __init__(self, size: tuple[int, int], colours: bytes, level: int,
                 bands: list[bytes], adlers: list[int]) -> None:
        self.size = size
        self.colours = colours
        self.level = level
        self.bands = bands
        self.adlers = adlers

    @classmethod
    def encode(cls, img: Image.Image, level: int = COMPRESS_LEVEL) -> BandedPng:
        """``img`` (mode P, 8-bit, with an RGB palette) in bands."""
        if img.mode != "P":
            raise ValueError(f"a palette image, not mode {img.mode}")
        width, height = img.size
        rows = Image.new("P", (width + 1, height), 0)  # column 0: each row's filter type
        rows.paste(img, (1, 0))
        raw = rows.tobytes()
        step = BAND_ROWS * (width + 1)
        chunks = [raw[at:at + step] for at in range(0, len(raw), step)]
        colours = bytes(img.getpalette("RGB") or [])[:768]
        return cls(img.size, colours, level, [_deflate_band(c, level) for c in chunks],
                   [_deflate.adler32(c) for c in chunks])

    def update(self, patches: Sequence[tuple[Box, Image.Image]]) -> int:
        """Put each patch (a box and its mode-P pixels, in this image's palette) in
        place, compressing again only the bands they touch; how many bands that was."""
        width, height = self.size
        touched: set[int] = set()
        for box, img in patches:
            if img.mode != "P" or img.size != (box[2] - box[0], box[3] - box[1]):
                raise ValueError("a patch must be a palette image the size of its box")
            if not (0 <= box[0] < box[2] <= width and 0 <= box[1] < box[3] <= height):
                raise ValueError(f"patch {box} outside the image {self.size}")
            touched.update(range(box[1] // BAND_ROWS, (box[3] - 1) // BAND_ROWS + 1))
        line = width + 1
        for first, last in _runs(sorted(touched)):  # each run of touched bands at once
            top = first * BAND_ROWS
            rows = min((last + 1) * BAND_ROWS, height) - top
            raw = b"".join(_inflate_band(self.bands[k]) for k in range(first, last + 1))
            strip = Image.frombytes("P", (line, rows), raw)
            for box, img in patches:
                if box[1] < top + rows and box[3] > top:
                    strip.paste(img, (box[0] + 1, box[1] - top))  # clipped to the run
            raw = strip.tobytes()
            step = BAND_ROWS * line
            for k in range(first, last + 1):
                chunk = raw[(k - first) * step:(k - first + 1) * step]
                self.bands[k] = _deflate_band(chunk, self.level)
                self.adlers[k] = _deflate.adler32(chunk)
        return len(touched)

    def image(self) -> Image.Image:
        """The image (tests, tools)."""
        width, height = self.size
        raw = b"".join(_inflate_band(b) for b in self.bands)
        img = Image.frombytes("P", (width + 1, height), raw).crop((1, 0, width + 1, height))
        img.putpalette(self.colours)
        return img

    @property
    def nbytes(self) -> int:
        return sum(map(len, self.bands)) + 64 * len(self.bands)

    def png(self) -> bytes:
        """The PNG file: IHDR, PLTE, one IDAT, IEND."""
        width, height = self.size
        adler = 1
        row_bytes = BAND_ROWS * (width + 1)
        last = (height - BAND_ROWS * (len(self.bands) - 1)) * (width + 1)
        for i, a in enumerate(self.adlers):
            adler = adler32_combine(adler, a, row_bytes if i < len(self.adlers) - 1 else last)
        stream = b"".join((ZLIB_HEADER, *self.bands, FINAL_BLOCK, struct.pack(">I", adler)))
        header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette
        return b"".join((PNG_SIGNATURE, _chunk(b"IHDR", header),
                         _chunk(b"PLTE", self.colours), _chunk(b"IDAT", stream),
                         _chunk(b"IEND", b"")))


def _runs(ks: list[int]) -> list[tuple[int, int]]:
    """Sorted numbers as runs of consecutive ones: ``[1, 2, 3, 7]`` -> ``[(1, 3), (7, 7)]``."""
    out: list[tuple[int, int]] = []
    for k in ks:
        if out and out[-1][1] == k - 1:
            out[-1] = (out[-1][0], k)
        else:
            out.append((k, k))
    return out
