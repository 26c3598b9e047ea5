-- A person's "No pings this turn": the turn (the game's key text) whose pings and
-- reminders they muted, per game, so that a restart does not bring them back. One row per
-- person and game: a mute of a later turn replaces it.

CREATE TABLE turn_mutes (
    game_id INTEGER NOT NULL REFERENCES games (id),
    user_id INTEGER NOT NULL,
    turn_key TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
