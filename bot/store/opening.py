"""Open the storage a ``TEMPUS_DB`` value names: a ``postgresql://`` URL opens PostgreSQL
(:mod:`bot.store.postgres`), anything else is a SQLite file (the default)."""

from __future__ import annotations

from bot.store.protocol import Storage


def is_postgres_url(url_or_path: str) -> bool:
    return url_or_path.startswith(("postgresql://", "postgres://"))


def without_password(url_or_path: str) -> str:
    """A database name fit for a log or an error message (a URL's password hidden)."""
    if not is_postgres_url(url_or_path):
        return url_or_path
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url_or_path)
    if parts.password is None:
        return url_or_path
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


async def open_storage(url_or_path: str) -> Storage:
    if is_postgres_url(url_or_path):
        from bot.store.postgres import PgStorage

        return await PgStorage.open(url_or_path)
    from bot.store.sqlite import SqliteStorage

    return await SqliteStorage.open(url_or_path)
