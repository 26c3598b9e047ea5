-- SQLite's migration 6, the turn clock (bot/timing/turn_clock.py): one row per seat of
-- an active game that owes a decision with a deadline or has missed one (since: the game
-- version since which it owes it; started_at/due_at: Unix seconds, NULL due_at: no
-- deadline now; reminded: reminders sent; strikes: deadlines missed in a row), always
-- rewritten in the transaction of the change that implied it; per-person settings;
-- seats.left_game (the person left mid-game, a computer plays the seat to the end).

CREATE TABLE deadlines (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    since INTEGER,
    started_at DOUBLE PRECISION,
    due_at DOUBLE PRECISION,
    reminded INTEGER NOT NULL DEFAULT 0,
    strikes INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX deadlines_due ON deadlines (due_at) WHERE due_at IS NOT NULL;
CREATE TABLE user_settings (
    user_id BIGINT PRIMARY KEY,
    reminders BOOLEAN NOT NULL DEFAULT TRUE
);
ALTER TABLE seats ADD COLUMN left_game BOOLEAN NOT NULL DEFAULT FALSE;
