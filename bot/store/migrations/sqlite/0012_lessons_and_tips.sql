-- lessons: each person's /tempus learn (bot/table/lessons.py), one row per person: the
-- page of the game's lesson they are at (games.port.Lessons numbers them), whether they
-- are in it, have left it or reached its end (finished_at: when they first reached it,
-- kept if they go through it again), the server and channel it was asked for in, and
-- where it is shown (its private thread and message; NULL thread: a private reply).
-- user_settings.tips: whether the person sees the tips of their first games (1: yes);
-- tips_seen: the kinds of decision whose tip they have had, comma-separated.

CREATE TABLE lessons (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL UNIQUE,
    game TEXT NOT NULL DEFAULT 'tempus',
    step INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'left', 'finished')),
    guild_id INTEGER,
    channel_id INTEGER,
    thread_id INTEGER,
    message_id INTEGER,
    started_at TEXT NOT NULL,
    finished_at TEXT
);
ALTER TABLE user_settings ADD COLUMN tips INTEGER NOT NULL DEFAULT 1;
ALTER TABLE user_settings ADD COLUMN tips_seen TEXT NOT NULL DEFAULT '';
