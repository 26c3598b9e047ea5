-- The turn clock. One row per seat of an active game that owes a decision with a
-- deadline or has missed one: since = the game version since which the seat owes it,
-- started_at/due_at in Unix seconds (NULL due_at: no deadline now), reminded = the
-- reminders sent for it (0, 1 at half time, 2 shortly before), strikes = deadlines missed
-- in a row. Rewritten in the same transaction as the change that made them.
-- user_settings: per-person choices (reminders 0 = muted). seats.left_game: the person
-- left mid-game; a computer plays the seat for the rest of the game.

CREATE TABLE deadlines (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    since INTEGER,
    started_at REAL,
    due_at REAL,
    reminded INTEGER NOT NULL DEFAULT 0,
    strikes INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX deadlines_due ON deadlines (due_at) WHERE due_at IS NOT NULL;
CREATE TABLE user_settings (
    user_id INTEGER PRIMARY KEY,
    reminders INTEGER NOT NULL DEFAULT 1
);
ALTER TABLE seats ADD COLUMN left_game INTEGER NOT NULL DEFAULT 0;
