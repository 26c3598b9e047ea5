"""Fixtures shared by the bot tests: a real, throw-away PostgreSQL server (tests.pgserver)."""

from __future__ import annotations

import contextlib
import itertools
import os
import tempfile
from collections.abc import Iterator

import pytest

from tests.pgserver import PgServer, pg_bin_dir

_databases = itertools.count(1)

#: where the server's files go when that memory file system has this much room: its data
#: (a copy of the template for every test's database, some 7 MB each) is deleted at the
#: end, and deleting hundreds of megabytes from a disk mounted with ``discard`` took 15 to
#: 45 s of the suite's wall time
FAST_TMP, FAST_TMP_ROOM = "/dev/shm", 4 << 30


def _fast_tmp() -> str | None:
    try:
        st = os.statvfs(FAST_TMP)
    except OSError:
        return None
    return FAST_TMP if st.f_bavail * st.f_frsize >= FAST_TMP_ROOM else None


@contextlib.contextmanager
def _temp_parent(where: str | None) -> Iterator[None]:
    """New temporary directories go under ``where`` inside this block (None: as usual)."""
    old = tempfile.tempdir
    if where is not None:
        tempfile.tempdir = where
    try:
        yield
    finally:
        tempfile.tempdir = old


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One PostgreSQL server for the session; skipped (saying why) only when this machine
    has no PostgreSQL binaries."""
    bindir = pg_bin_dir()
    if bindir is None:
        pytest.skip("no PostgreSQL binaries (initdb, pg_ctl) in $PG_BIN, "
                    "/usr/lib/postgresql/*/bin or PATH: PostgreSQL tests not run")
    server = PgServer(bindir)
    with _temp_parent(_fast_tmp()):
        server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """A URL of a new, empty database on the session's server."""
    return pg_server.create_database(f"t{next(_databases)}")
