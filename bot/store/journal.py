"""The journal: every change to a game, appended to a file of its own (apart from the
database file) and on disk before the change is answered (written before its commit,
synced beside it), so that the last backup plus the journal bring back every action any
player was told was done (``python -m bot restore``, bot/operator/restore.py), even when the
database file itself is damaged.

What is kept is what the log holds, not the database's pages: the storage method that
changed a game (``create_game``, ``add_seat``, ``start``, ``append_action`` ...) with its
arguments and the version it was made at, as one JSON line. The state snapshots are left
out: the engine replays a game's log exactly, so the restore computes them again.

Writing (:class:`Journal`, on SQLite's connection thread, bot/store/group_commit.py): the
writes of one group commit are appended as one ``write`` after their statements ran and
before the ``COMMIT``; its ``fdatasync`` runs on the journal's own thread meanwhile, beside
the commit's own sync of SQLite's log (two syncs at once, not one after the other), and
the writes are answered only once both are on disk. A batch whose commit fails gets an
``abort`` line (the restore skips its entries). If the journal's sync fails after the
commit succeeded, the batch stands (the database has it) and the journal refuses every
later batch, so nothing more is acknowledged that it lacks. Each line carries a CRC-32 of
its text, so a line torn by a crash (never acknowledged: its sync did not finish) is told
from a whole one.

Segments: the journal is a series of files ``<name>-<UTC time>.<n>.journal`` in the backup
folder; a new one starts just before each backup (:meth:`Journal.rotate`, between two
jobs on the connection thread), so a backup holds everything of the segments older than
it, and the segments older than the oldest backup kept can go.

Line format: ``<json>\\t<crc32 of the json, 8 hex digits>\\n``; the json is
``{"b": batch, "op": method, "game": id, "v": version, "at": time, "args": {...}}`` (``v``
absent for a change that raises no version: a thread, a person's settings), or
``{"abort": batch}``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import time
import zlib
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.runtime.json_text import compact

log = logging.getLogger(__name__)

SUFFIX = ".journal"


def stamp_now() -> str:
    """The UTC time as backups and journal segments are named (sortable as text)."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


def entry_text(op: str, game_id: int | None, version: int | None, args: dict[str, Any],
               at: float | None = None) -> str:
    """One change as the journal keeps it (made on the event loop: the connection's
    thread only writes it); ``at``: when (Unix seconds)."""
    head: dict[str, Any] = {"op": op, "game": game_id}
    if version is not None:
        head["v"] = version
    if at is not None:
        head["at"] = at
    head["args"] = args
    return compact(head)  # (orjson: made for every change, on the event loop)


def _line(text: str) -> bytes:
    raw = text.encode("utf-8")
    return raw + b"\t%08x\n" % zlib.crc32(raw)


class Journal:
    """The journal's current segment, open for appending (used on the connection's
    thread: one writer)."""

    def __init__(self, folder: str | Path, name: str) -> None:
        self.folder = Path(folder)
        self.name = name
        self.path: Path | None = None
        self._fd: int | None = None
        self._batch = 0
        #: entries and syncs written (the storage bench reports them)
        self.entries = 0
        self.syncs = 0
        #: why the journal takes no more batches (a sync failed after its commit)
        self.failed: OSError | None = None
        self._syncer: ThreadPoolExecutor | None = None

    def segments(self) -> list[Path]:
        """This journal's segments, oldest first."""
        return segments(self.folder, self.name)

    def rotate(self, stamp: str | None = None) -> Path:
        """Start a new segment (the first one, or the one after a backup)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        stamp = stamp or stamp_now()
        n = 0
        while True:  # (numbered: two in one second keep their order)
            path = self.folder / f"{self.name}-{stamp}.{n:03d}{SUFFIX}"
            if not path.exists():
                break
            n += 1
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o640)
        self._close_fd()
        self._fd, self.path, self._batch = fd, path, 0
        _sync_folder(self.folder)  # the new file's name is on disk too
        return path

    def append(self, texts: list[str]) -> Pending:
        """Append the entries of one batch and start their sync (:meth:`Pending.wait`
        waits for the disk). Raises OSError (full disk, I/O error, an earlier sync
        failed): then nothing of the batch may be committed."""
        if self.failed is not None:
            raise OSError(self.failed.errno, f"an earlier sync failed: {self.failed}")
        if self._fd is None:
            self.rotate()
        assert self._fd is not None
        self._batch += 1
        b = self._batch
        data = b"".join(_line(f'{{"b":{b},{text[1:]}') for text in texts)
        _write_all(self._fd, data)
        if self._syncer is None:
            self._syncer = ThreadPoolExecutor(1, thread_name_prefix="tempus-journal")
        self.entries += len(texts)
        self.syncs += 1
        return Pending(self, b, self._syncer.submit(os.fdatasync, self._fd))

    def abort(self, batch: int) -> None:
        """The batch's commit failed: the restore must not replay its entries (best
        effort: if this fails too, the restore still sees a newer entry made at the same
        version as the one that counts)."""
        if self._fd is None:
            return
        try:
            _write_all(self._fd, _line(f'{{"abort":{batch}}}'))
            os.fdatasync(self._fd)
        except OSError as exc:
            log.warning("journal: could not mark batch %d as not committed: %s", batch, exc)

    def prune(self, oldest_kept: str) -> list[Path]:
        """Delete the segments older than the backup stamped ``oldest_kept`` (it holds
        all of them); never the current one."""
        gone = []
        for seg in self.segments():
            if seg != self.path and seg.name < f"{self.name}-{oldest_kept}":
                with contextlib.suppress(OSError):
                    seg.unlink()
                    gone.append(seg)
        return gone

    def close(self) -> None:
        if self._syncer is not None:
            self._syncer.shutdown(wait=True)
            self._syncer = None
        self._close_fd()
        self.path = None

    def _close_fd(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


@dataclass
class Pending:
    """A batch written to the journal whose sync may still be under way."""

    journal: Journal
    batch: int
    sync: Future[None]

    def wait(self) -> None:
        """Until the batch is on disk; raises the sync's OSError."""
        self.sync.result()

    def failed_after_commit(self, exc: OSError) -> None:
        """The batch was committed but its sync failed: no later batch is taken."""
        self.journal.failed = exc
        log.error("the journal %s could not be synced (%s): every change is refused from "
                  "now on; the database has every change acknowledged. Restart the bot "
                  "once its folder is writable", self.journal.path, exc)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def segments(folder: str | Path, name: str) -> list[Path]:
    """The journal segments of database ``name`` in ``folder``, oldest first."""
    folder = Path(folder)
    pattern = re.compile(re.escape(name) + r"-\d{8}T\d{6}Z\.\d{3}" + re.escape(SUFFIX))
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if pattern.fullmatch(p.name))


# ------------------------------------------------------------------------- reading
@dataclass(frozen=True)
class Entry:
    """One change read back from the journal."""

    op: str
    game_id: int | None
    version: int | None
    args: dict[str, Any]
    #: when it was made, in Unix seconds (None: not known)
    at: float | None
    #: where it was read (segment file name, line number), for messages
    where: str


@dataclass
class Reading:
    """What a journal holds: the committed entries in order, and what could not be used."""

    entries: list[Entry] = field(default_factory=list)
    #: entries of batches whose commit failed
    aborted: int = 0
    #: a last line cut short (a crash while writing it: never acknowledged)
    torn: int = 0
    #: damaged lines elsewhere (where, why)
    damaged: list[str] = field(default_factory=list)


def read(paths: list[Path]) -> Reading:
    """The entries of the segments ``paths`` (oldest first)."""
    out = Reading()
    for path in paths:
        raw_lines = path.read_bytes().split(b"\n")
        last = len(raw_lines) - 1  # after the final newline: b"" for a whole file
        batches: dict[int, list[Entry]] = {}
        order: list[int] = []
        for i, raw in enumerate(raw_lines):
            if not raw:
                continue
            parsed = _parse(raw)
            where = f"{path.name}:{i + 1}"
            if parsed is None:
                if i == last:
                    out.torn += 1
                else:
                    out.damaged.append(where)
                continue
            if "abort" in parsed:
                out.aborted += len(batches.pop(int(parsed["abort"]), []))
                continue
            b = int(parsed["b"])
            if b not in batches:
                order.append(b)
                batches[b] = []
            batches[b].append(Entry(str(parsed["op"]), parsed.get("game"), parsed.get("v"),
                                    dict(parsed.get("args") or {}), parsed.get("at"), where))
        for b in order:
            out.entries.extend(batches.get(b, []))
    return out


def _parse(raw: bytes) -> dict[str, Any] | None:
    text, tab, crc = raw.rpartition(b"\t")
    if not tab or len(crc) != 8:
        return None
    try:
        if int(crc, 16) != zlib.crc32(text):
            return None
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None

