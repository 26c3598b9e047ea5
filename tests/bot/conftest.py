"""Fixtures shared by the bot tests: a real, throw-away PostgreSQL server (tests.pgserver)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from tests.pgserver import PgServer, pg_bin_dir

_databases = itertools.count(1)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One PostgreSQL server for the session; skipped (saying why) only when this machine
    has no PostgreSQL binaries."""
    bindir = pg_bin_dir()
    if bindir is None:
        pytest.skip("no PostgreSQL binaries (initdb, pg_ctl) in $PG_BIN, "
                    "/usr/lib/postgresql/*/bin or PATH: PostgreSQL tests not run")
    server = PgServer(bindir)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """A URL of a new, empty database on the session's server."""
    return pg_server.create_database(f"t{next(_databases)}")
