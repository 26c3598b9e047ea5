"""Durable storage: rows, errors, protocol; SQLite, PostgreSQL; migrations, lock, check."""
