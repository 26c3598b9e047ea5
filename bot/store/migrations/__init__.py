"""The schema migrations, one numbered .sql file each, per dialect (``sqlite/``,
``postgresql/``): ``0001_first_schema.sql`` ... applied in order by the backend
(bot/store/sqlite.py, bot/store/postgres.py), which records the number reached in the
table ``schema_version``.

How to extend the schema: add the next file to BOTH folders (the numbering of the two is
independent: PostgreSQL's first file holds SQLite's first four), never edit a released
one (databases that applied it keep it as it was). PostgreSQL's usual type mapping:
Discord ids ``BIGINT``, JSON ``JSONB`` (``TEXT`` for the opaque state snapshot), times
``TIMESTAMPTZ``, ``AUTOINCREMENT`` an identity column, triggers as PL/pgSQL functions.
``tests/bot/store/test_storage_backends.py`` compares the two schemas (tables and
columns), so a table added to one dialect only fails the tests.
"""

from __future__ import annotations

import re
from importlib import resources

SQLITE, POSTGRESQL = "sqlite", "postgresql"
_FILE = re.compile(r"(\d{4})_\w+\.sql")


def scripts(dialect: str) -> list[str]:
    """The migrations of ``dialect`` in order (the first is number 1), without their
    comment lines: a statement's text is what SQLite keeps in its schema."""
    files = sorted((f for f in resources.files(__package__).joinpath(dialect).iterdir()
                    if _FILE.fullmatch(f.name)), key=lambda f: f.name)
    numbers = [int(f.name[:4]) for f in files]
    if numbers != list(range(1, len(files) + 1)):
        raise RuntimeError(f"{dialect} migrations are not numbered 1..n: {numbers}")
    return ["\n".join(line for line in f.read_text("utf-8").splitlines()
                      if not line.lstrip().startswith("--")).strip() + "\n"
            for f in files]
