-- PostgreSQL's migration 7 (SQLite's 10): a person's "No pings this turn", the turn whose
-- pings and reminders they muted, per game, kept across a restart.

CREATE TABLE turn_mutes (
    game_id BIGINT NOT NULL REFERENCES games (id),
    user_id BIGINT NOT NULL,
    turn_key TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
