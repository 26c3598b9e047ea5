-- After the game (bot/history/ledger.py). Both tables are caches derived from the
-- action log and can be dropped and rebuilt: each finished game's result per seat (by
-- replaying the log), and each person's rating per server with the games it covers
-- (recomputed in game order, bot/history/ratings.py).

CREATE TABLE results (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    user_id INTEGER,
    ai_level TEXT,
    name TEXT NOT NULL,
    rank INTEGER NOT NULL,
    vp INTEGER NOT NULL,
    won INTEGER NOT NULL,
    opening TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_guild ON results (guild_id, finished_at, game_id);
CREATE INDEX results_user ON results (guild_id, user_id);
CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE TABLE rated_games (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    guild_id INTEGER NOT NULL,
    finished_at TEXT NOT NULL
);
