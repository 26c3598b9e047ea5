"""The schema migrations exactly as the storage held them before they became .sql files
(bot/store/sqlite.py ``MIGRATIONS`` and bot/store/postgres.py ``PG_MIGRATIONS`` of branch
``house``, commit 98e694f), frozen: databases built with them at every old version must
upgrade with today's files to the same schema (tests/bot/store/test_schema_upgrade.py)."""

# ruff: noqa: E501

SQLITE = [
    # 1: the first schema
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL DEFAULT 'tempus',
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        host_id INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
        options TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        state TEXT,
        panel_message_id INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
        WHERE status IN ('lobby', 'active');
    CREATE INDEX games_status ON games (status);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        user_id INTEGER,
        ai_level TEXT,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat),
        CHECK ((user_id IS NULL) <> (ai_level IS NULL))
    );
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    """,
    # 2: a computer may play a person's seat for them ("autopilot", R-ROUND-2 goes on)
    """
    ALTER TABLE seats ADD COLUMN autopilot TEXT;
    """,
    # 3: the version each action made (a restart knows since when each seat owes its
    # decision) and the last version announced (a restart re-posts what a crash lost)
    """
    ALTER TABLE actions ADD COLUMN version INTEGER;
    ALTER TABLE games ADD COLUMN announced_version INTEGER;
    """,
    # 4: a thread per game (the game is played there; NULL: in the channel itself) and the
    # turn message (posted when a turn or phase begins, edited in place by its steps)
    """
    ALTER TABLE games ADD COLUMN thread_id INTEGER;
    ALTER TABLE games ADD COLUMN turn_key TEXT;
    CREATE INDEX games_thread ON games (thread_id);
    """,
    # 5: after the game (bot/history/ledger.py). Both tables are caches derived from the action
    # log and can be dropped and rebuilt: each finished game's result per seat (by
    # replaying the log), and each person's rating per server with the games it covers
    # (recomputed in game order, bot/history/ratings.py)
    """
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
    """,
    # 6: the turn clock (issue 11). One row per seat of an active game that owes a decision
    # with a deadline or has missed one: since = the game version since which the seat owes
    # it, started_at/due_at in Unix seconds (NULL due_at: no deadline now), reminded = the
    # reminders sent for it (0, 1 at half time, 2 shortly before), strikes = deadlines
    # missed in a row. Rewritten in the same transaction as the change that made them.
    # user_settings: per-person choices (reminders 0 = muted). seats.left_game: the person
    # left mid-game; a computer plays the seat for the rest of the game.
    # PostgreSQL: REAL -> DOUBLE PRECISION, INTEGER ids -> BIGINT; the rest is the same.
    """
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
    """,
    # 7: what must survive a restart of the turn clock and of people's private menus.
    # deadlines.covering: the turn (engine.undo.turn_key as JSON) in which a computer
    # decides for the seat after its time ran out (NULL: not covered), so a restart neither
    # gives the seat a fresh deadline nor counts the same turn twice. user_settings.locale:
    # the language of the person's Discord client, last seen (DMs are written in it).
    # private_menus: the DM menus (buttons) sent for a decision and not yet used or
    # retired, so that after a restart the stale ones are still edited to "no longer
    # current" (ephemeral replies are not stored: their token dies after 15 minutes).
    """
    ALTER TABLE deadlines ADD COLUMN covering TEXT;
    ALTER TABLE user_settings ADD COLUMN locale TEXT;
    CREATE TABLE private_menus (
        message_id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL,
        game_id INTEGER NOT NULL REFERENCES games (id),
        user_id INTEGER NOT NULL,
        version INTEGER NOT NULL,
        content TEXT NOT NULL,
        locale TEXT NOT NULL
    );
    CREATE INDEX private_menus_game ON private_menus (game_id);
    """,
]

POSTGRESQL = [
    # 1: the SQLite schema up to its migration 4 (games with thread and turn message, seats
    # with autopilot, the append-only versioned action log)
    """
    CREATE TABLE games (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game TEXT NOT NULL DEFAULT 'tempus',
        guild_id BIGINT,
        channel_id BIGINT NOT NULL,
        host_id BIGINT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
        options JSONB NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        state TEXT,
        panel_message_id BIGINT,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        announced_version INTEGER,
        thread_id BIGINT,
        turn_key TEXT
    );
    CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
        WHERE status IN ('lobby', 'active');
    CREATE INDEX games_status ON games (status);
    CREATE INDEX games_thread ON games (thread_id);
    CREATE TABLE seats (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        user_id BIGINT,
        ai_level TEXT,
        name TEXT NOT NULL,
        autopilot TEXT,
        PRIMARY KEY (game_id, seat),
        CHECK ((user_id IS NULL) <> (ai_level IS NULL))
    );
    CREATE TABLE actions (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action JSONB NOT NULL,
        at TIMESTAMPTZ NOT NULL DEFAULT now(),
        version INTEGER,
        PRIMARY KEY (game_id, seq)
    );
    CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'the action log is append-only'
            USING ERRCODE = 'integrity_constraint_violation';
    END
    $$;
    CREATE TRIGGER actions_no_change BEFORE UPDATE OR DELETE ON actions
        FOR EACH ROW EXECUTE FUNCTION actions_append_only();
    CREATE TRIGGER actions_no_truncate BEFORE TRUNCATE ON actions
        FOR EACH STATEMENT EXECUTE FUNCTION actions_append_only();
    """,
    # 2: SQLite's migration 5, after the game (bot/history/ledger.py): results per seat of finished
    # games and ratings per server, caches derived from the action logs. The times stay
    # SQLite's ISO text (UTC, milliseconds; see PgStorage.finished_at) in byte order
    # (COLLATE "C", as SQLite compares), so both backends store and order the same strings.
    """
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
    """,
    # 3: SQLite's migration 6, the turn clock (bot/timing/turn_clock.py): one row per seat of an
    # active game that owes a decision with a deadline or has missed one (since: the game
    # version since which it owes it; started_at/due_at: Unix seconds, NULL due_at: no
    # deadline now; reminded: reminders sent; strikes: deadlines missed in a row), always
    # rewritten in the transaction of the change that implied it; per-person settings;
    # seats.left_game (the person left mid-game, a computer plays the seat to the end)
    """
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
    """,
    # 4: SQLite's migration 7: the turn a computer covers for a seat whose time ran out
    # (survives a restart), each person's client language, and the live DM menus (retired
    # as "no longer current" after a restart too)
    """
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
    """,
]
