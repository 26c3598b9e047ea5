"""One bot process per database file: an exclusive lock on ``<db>.lock`` holding its pid.

Two processes answering the same clicks from one SQLite file refuse each other's valid
clicks as stale and strip each other's buttons, so the second one must not start. The
lock is ``flock(LOCK_EX | LOCK_NB)`` on a file beside the database (resolved through
symlinks, so two spellings of one path share it); the kernel drops it when the process
ends, however it ends, so a crash never leaves a stale lock behind. The file itself stays
(deleting it would let a third process lock a fresh inode while the second still holds
the old one). ``flock`` is local to one machine: a database on a network file system
shared by two hosts is not protected.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket


class StoreInUse(Exception):
    """Another process holds the database; ``pid`` (None: not known) and ``host`` say which."""

    def __init__(self, db_path: str, pid: int | None, host: str | None = None) -> None:
        self.db_path = db_path
        self.pid = pid
        self.host = host
        super().__init__(f"{db_path} is in use by process {pid if pid else '?'}"
                         + (f" on {host}" if host else ""))


def lock_path(db_path: str) -> str:
    return os.path.realpath(db_path) + ".lock"


class StoreLock:
    """The held lock; :meth:`release` (or the end of the process) gives it up."""

    def __init__(self, fd: int, path: str) -> None:
        self._fd: int | None = fd
        self.path = path

    @classmethod
    def acquire(cls, db_path: str) -> StoreLock:
        """Lock ``db_path`` for this process or raise :class:`StoreInUse`."""
        path = lock_path(db_path)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid, host = _read_owner(fd)
            os.close(fd)
            raise StoreInUse(db_path, pid, host) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {socket.gethostname()}\n".encode(), 0)
        return cls(fd, path)

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)  # no pid of a process that has let go
        os.close(fd)  # closing the only descriptor drops the flock


def holder(db_path: str) -> StoreInUse | None:
    """Who holds ``db_path`` now (None: nobody), without keeping the lock."""
    try:
        lock = StoreLock.acquire(db_path)
    except StoreInUse as exc:
        return exc
    lock.release()
    return None


def _read_owner(fd: int) -> tuple[int | None, str | None]:
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").split()
    except OSError:
        return None, None
    pid = int(text[0]) if text and text[0].isdigit() else None
    host = text[1] if len(text) > 1 else None
    return pid, host
