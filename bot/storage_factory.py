"""Open the storage a ``TEMPUS_DB`` value names: a ``postgresql://`` URL opens PostgreSQL
(:mod:`bot.storage_pg`), anything else is a SQLite file (the default)."""

from __future__ import annotations

from .storage import SqliteStorage, Storage


def is_postgres_url(url_or_path: str) -> bool:
    return url_or_path.startswith(("postgresql://", "postgres://"))


async def open_storage(url_or_path: str) -> Storage:
    if is_postgres_url(url_or_path):
        from .storage_pg import PgStorage

        return await PgStorage.open(url_or_path)
    return await SqliteStorage.open(url_or_path)
