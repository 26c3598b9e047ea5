-- SQLite's migration 5, after the game (bot/history/ledger.py): results per seat of
-- finished games and ratings per server, caches derived from the action logs. The times
-- stay SQLite's ISO text (UTC, milliseconds) in byte order (COLLATE "C", as SQLite
-- compares), so both backends store and order the same strings.

CREATE TABLE results (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    guild_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    user_id BIGINT,
    ai_level TEXT,
    name TEXT NOT NULL,
    rank INTEGER NOT NULL,
    vp INTEGER NOT NULL,
    won BOOLEAN NOT NULL,
    opening TEXT NOT NULL,
    finished_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_guild ON results (guild_id, finished_at, game_id);
CREATE INDEX results_user ON results (guild_id, user_id);
CREATE TABLE ratings (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE TABLE rated_games (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    guild_id BIGINT NOT NULL,
    finished_at TEXT COLLATE "C" NOT NULL
);
