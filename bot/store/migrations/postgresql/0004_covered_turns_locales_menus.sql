-- SQLite's migration 7: the turn a computer covers for a seat whose time ran out
-- (survives a restart), each person's client language, and the live DM menus (retired as
-- "no longer current" after a restart too).

ALTER TABLE deadlines ADD COLUMN covering TEXT;
ALTER TABLE user_settings ADD COLUMN locale TEXT;
CREATE TABLE private_menus (
    message_id BIGINT PRIMARY KEY,
    channel_id BIGINT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games (id),
    user_id BIGINT NOT NULL,
    version INTEGER NOT NULL,
    content TEXT NOT NULL,
    locale TEXT NOT NULL
);
CREATE INDEX private_menus_game ON private_menus (game_id);
