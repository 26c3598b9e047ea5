"""Several bot processes on one PostgreSQL database: who owns a game and telling it of changes."""
