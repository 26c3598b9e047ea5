"""A cache of map layers: in memory (bounded by bytes, not by count) and on disk.

Drawing a map's terrain layer costs a few hundred milliseconds; composing a board on a
ready layer costs a few. With a count-bounded cache of 16 layers, the 17th active game
made nearly every board redraw its terrain. Here a layer is made once per map:

- in memory, least recently used first out, up to ``TEMPUS_RENDER_CACHE_MB`` megabytes
  (default 96: about 140 whole-map layers in palette mode) per process;
- on disk, as lossless PNG files named by a hash of the map, in ``TEMPUS_RENDER_CACHE``
  (default: ``tempus-render-cache`` in the system's temporary directory; ``off`` turns
  the disk cache off), shared by every render worker process and kept across restarts.
  Files are written atomically (a temporary name, then a rename), so processes never see
  half a file; the directory is trimmed to ``TEMPUS_RENDER_DISK_MB`` megabytes (default
  512), least recently used first.

A PNG is lossless, so a layer read back from disk is pixel-identical to a drawn one and
the same view gives the same image bytes whichever way its layer was found.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from .encode import read_palette_png, to_png
from .per_process import PerProcess

log = logging.getLogger(__name__)

DEFAULT_MEMORY_MB = 96
DEFAULT_DISK_MB = 512
#: Trim the disk cache after this many files written by one process.
TRIM_EVERY = 25


def _image_bytes(img: Image.Image) -> int:
    return img.size[0] * img.size[1] * len(img.getbands())


class LayerCache:
    """Images by key: memory first, then disk, then ``make()`` (stored in both)."""

    def __init__(self, directory: Path | None, memory_bytes: int,
                 disk_bytes: int = DEFAULT_DISK_MB << 20) -> None:
        self.directory = directory
        self.memory_bytes = memory_bytes
        self.disk_bytes = disk_bytes
        self._mem: OrderedDict[str, Image.Image] = OrderedDict()
        self._used = 0
        self._lock = threading.Lock()
        self._writes = 0
        self.hits = self.disk_hits = self.misses = 0

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> LayerCache:
        e = os.environ if env is None else env
        where = e.get("TEMPUS_RENDER_CACHE", "").strip()
        directory: Path | None
        if where.lower() in ("off", "none", "0"):
            directory = None
        else:
            default = Path(tempfile.gettempdir()) / "tempus-render-cache"
            directory = Path(where) if where else default
        mem = float(e.get("TEMPUS_RENDER_CACHE_MB") or DEFAULT_MEMORY_MB)
        disk = float(e.get("TEMPUS_RENDER_DISK_MB") or DEFAULT_DISK_MB)
        return cls(directory, int(mem * (1 << 20)), int(disk * (1 << 20)))

    @property
    def used_bytes(self) -> int:
        return self._used

    def __len__(self) -> int:
        return len(self._mem)

    def get(self, key: str, make: Callable[[], Image.Image], persist: bool = True,
            valid: Callable[[Image.Image], bool] | None = None) -> Image.Image:
        """The image for ``key``; callers must not draw on it (copy or crop it first).
        ``persist=False`` keeps a short-lived image (a map still being built) off disk;
        a file on disk that ``valid`` refuses is drawn again."""
        with self._lock:
            img = self._mem.get(key)
            if img is not None:
                self._mem.move_to_end(key)
                self.hits += 1
                return img
        img = self._load(key) if persist else None
        if img is not None and valid is not None and not valid(img):
            log.warning("map layer cache: %s does not fit; drawing it again", key)
            img = None
        if img is not None:
            self.disk_hits += 1
        else:
            self.misses += 1
            img = make()
            if persist:
                self._save(key, img)
        self._remember(key, img)
        return img

    def clear_memory(self) -> None:
        with self._lock:
            self._mem.clear()
            self._used = 0

    def _remember(self, key: str, img: Image.Image) -> None:
        size = _image_bytes(img)
        with self._lock:
            old = self._mem.pop(key, None)
            if old is not None:
                self._used -= _image_bytes(old)
            self._mem[key] = img
            self._used += size
            while self._used > self.memory_bytes and len(self._mem) > 1:
                _, dropped = self._mem.popitem(last=False)
                self._used -= _image_bytes(dropped)

    def _path(self, key: str) -> Path | None:
        return None if self.directory is None else self.directory / f"{key}.png"

    def _load(self, key: str) -> Image.Image | None:
        path = self._path(key)
        if path is None:
            return None
        try:
            data = path.read_bytes()
            img = read_palette_png(data)  # as written by _save: ~1 ms instead of ~4
            if img is None:
                with Image.open(io.BytesIO(data)) as f:
                    f.load()
                    img = f.copy()
        except FileNotFoundError:
            return None
        except (OSError, ValueError, SyntaxError) as exc:  # a damaged file: draw again
            log.warning("map layer cache: cannot read %s (%s); drawing it again", path, exc)
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: trimmed last
        return img

    def _save(self, key: str, img: Image.Image) -> None:
        path = self._path(key)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{key}.", suffix=".tmp", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(to_png(img, compress_level=1))
                os.replace(tmp, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        except OSError as exc:  # read-only or full disk: memory only from now on
            log.warning("map layer cache: cannot write %s (%s); keeping layers in memory "
                        "only", path, exc)
            self.directory = None
            return
        self._writes += 1
        if self._writes % TRIM_EVERY == 0:
            self.trim()

    def trim(self) -> None:
        """Delete the least recently used files until the directory holds at most
        ``disk_bytes`` (files other processes delete meanwhile are skipped)."""
        if self.directory is None:
            return
        files = []
        for p in self.directory.glob("*.png"):
            try:
                st = p.stat()
            except OSError:
                continue
            files.append((st.st_mtime, st.st_size, p))
        total = sum(size for _, size, _ in files)
        for _, size, p in sorted(files):
            if total <= self.disk_bytes:
                break
            with contextlib.suppress(OSError):
                p.unlink()
            total -= size


_holder: PerProcess[LayerCache] = PerProcess(LayerCache.from_env)


def layer_cache() -> LayerCache:
    """The process's cache, configured from the environment at first use."""
    return _holder.get()


def set_layer_cache(cache: LayerCache | None) -> None:
    """Replace the process's cache (tests, benchmarks); None: from the environment again."""
    _holder.set(cache)
