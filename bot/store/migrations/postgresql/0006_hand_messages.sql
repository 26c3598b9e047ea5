-- PostgreSQL's migration 5 (SQLite's 8): each person's one hand message per game, the DM
-- edited in place as their cards change, found again after a restart.

CREATE TABLE hand_messages (
    game_id BIGINT NOT NULL REFERENCES games (id),
    user_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
