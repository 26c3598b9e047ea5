"""Every statement the storage runs, written once with named parameters (``:game_id``).

SQLite takes the text as it is (its driver binds named parameters); PostgreSQL's gets
them numbered (``$1``, ``$2`` ... in order of first use), once, when the statement is
made. Where the two databases truly differ, a statement has one text per dialect:
a list parameter (SQLite reads it as a JSON array with ``json_each``, PostgreSQL as an
array with ``= ANY``). The rest is SQL both speak: ``now()`` (SQLite's connection has
one, bot/store/sqlite.py), ``ON CONFLICT ... DO UPDATE``, ``RETURNING``, ``TRUE``/``FALSE``,
``IS NOT DISTINCT FROM``, ``CAST``, and ``CASE`` for the larger of two values (SQLite's
two-argument ``MAX`` is PostgreSQL's ``GREATEST``).

Parameters that need a type of their own are wrapped (:class:`Json`, lists); each backend
binds them its way (bot/store/sqlite.py, bot/store/postgres.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


@dataclass(frozen=True, slots=True)
class Json:
    """A value for a JSON column (SQLite: its text; PostgreSQL: JSONB, encoded by the
    connection's codec)."""

    value: Any


class Sql:
    """One statement: ``sqlite`` (named parameters) and ``postgresql`` (numbered) texts,
    and ``names``, the parameters in PostgreSQL's order."""

    __slots__ = ("names", "postgresql", "sqlite")

    def __init__(self, text: str = "", *, sqlite: str = "", postgresql: str = "") -> None:
        self.sqlite = sqlite or text
        pg = postgresql or text
        names: list[str] = []

        def number(match: re.Match[str]) -> str:
            if match[1] not in names:
                names.append(match[1])
            return f"${names.index(match[1]) + 1}"

        self.postgresql = _NAMED.sub(number, pg)
        self.names = tuple(names)
        assert set(self.names) == set(_NAMED.findall(self.sqlite)), self.sqlite

    def args(self, params: dict[str, Any]) -> list[Any]:
        """PostgreSQL's positional arguments."""
        return [params[name] for name in self.names]

    def __repr__(self) -> str:
        return f"Sql({self.sqlite!r})"


def _greater(a: str, b: str) -> str:
    """The larger of two values that are never NULL."""
    return f"CASE WHEN {a} > {b} THEN {a} ELSE {b} END"


def _in_list(column: str, param: str, pg_type: str) -> tuple[str, str]:
    """``column`` is one of the list parameter ``param``: (SQLite, PostgreSQL)."""
    return (f"{column} IN (SELECT value FROM json_each(:{param}))",
            f"{column} = ANY(:{param}::{pg_type}[])")


# ------------------------------------------------------------------------- schema version
# the number of the newest migration applied (bot/store/migrations), in a table of one row
CREATE_SCHEMA_VERSION = Sql("CREATE TABLE IF NOT EXISTS schema_version "
                            "(version INTEGER NOT NULL)")
SCHEMA_VERSION = Sql("SELECT max(version) FROM schema_version")
SET_SCHEMA_VERSION = (Sql("DELETE FROM schema_version"),
                      Sql("INSERT INTO schema_version (version) VALUES (:version)"))

# ------------------------------------------------------------------------- games
GAME_COLUMNS = ("id, guild_id, channel_id, host_id, status, options, version, state, "
                "panel_message_id, announced_version, thread_id, turn_key, seed_salt, "
                "seed_commitment, game")
REF_COLUMNS = ("id, guild_id, channel_id, host_id, version, announced_version, "
               "panel_message_id, thread_id")
_OPEN_IN_CHANNEL = ("(channel_id = :channel_id OR thread_id = :channel_id) "
                    "AND status IN ('lobby', 'active') ORDER BY id DESC LIMIT 1")

CREATE_GAME = Sql(
    "INSERT INTO games (guild_id, channel_id, host_id, status, options, created_at, "
    "updated_at) VALUES (:guild_id, :channel_id, :host_id, 'lobby', :options, now(), now()) "
    f"RETURNING {GAME_COLUMNS}")
#: the same, of a game named (the other: the column's default game)
CREATE_GAME_OF = Sql(
    "INSERT INTO games (guild_id, channel_id, host_id, status, options, game, created_at, "
    "updated_at) VALUES (:guild_id, :channel_id, :host_id, 'lobby', :options, :game, now(), "
    f"now()) RETURNING {GAME_COLUMNS}")
GAME = Sql(f"SELECT {GAME_COLUMNS} FROM games WHERE id = :game_id")
OPEN_GAME_IN_CHANNEL = Sql(f"SELECT {GAME_COLUMNS} FROM games WHERE {_OPEN_IN_CHANNEL}")
GAMES_WITH_STATUS = Sql(f"SELECT {GAME_COLUMNS} FROM games WHERE status = :status ORDER BY id")
GAME_REF = Sql(f"SELECT {REF_COLUMNS} FROM games WHERE id = :game_id")
OPEN_GAME_REF = Sql(f"SELECT {REF_COLUMNS} FROM games WHERE {_OPEN_IN_CHANNEL}")
GAME_REFS = Sql(f"SELECT {REF_COLUMNS} FROM games WHERE status = :status ORDER BY id")
GAME_REFS_BEHIND = Sql(f"SELECT {REF_COLUMNS} FROM games WHERE status = :status "
                       "AND announced_version < version ORDER BY id")
_lite, _pg = _in_list("status", "statuses", "text")
_LATEST = "SELECT {} FROM games WHERE (channel_id = :channel_id OR thread_id = :channel_id) " \
          "AND {} ORDER BY id DESC LIMIT 1"
LATEST_GAME_IN_CHANNEL = Sql(sqlite=_LATEST.format(GAME_COLUMNS, _lite),
                             postgresql=_LATEST.format(GAME_COLUMNS, _pg))


@cache
def bump(sets: str = "") -> Sql:
    """Raise a game's version from ``:version`` (no row back: the game is no longer at
    it) and set more columns (``sets``, e.g. ``"status = :status"``)."""
    extra = f", {sets}" if sets else ""
    return Sql(f"UPDATE games SET version = version + 1, updated_at = now(){extra} "
               "WHERE id = :game_id AND version = :version RETURNING guild_id")


SET_THREAD = Sql("UPDATE games SET thread_id = :thread_id WHERE id = :game_id")
REPLACE_SNAPSHOT = Sql("UPDATE games SET state = :state, updated_at = now() WHERE id = :game_id")
_ANNOUNCED = ("announced_version = "
              + _greater("COALESCE(announced_version, 0)",
                         "COALESCE(CAST(:announced AS INTEGER), 0)"))
SET_TURN_MESSAGE = Sql(f"UPDATE games SET panel_message_id = :message_id, turn_key = :turn_key, "
                       f"{_ANNOUNCED} WHERE id = :game_id")
SET_PANEL_MESSAGE = Sql(f"UPDATE games SET panel_message_id = :message_id, {_ANNOUNCED} "
                        "WHERE id = :game_id")

# ------------------------------------------------------------------------- seats
SEATS = Sql("SELECT seat, user_id, ai_level, name, autopilot, left_game, timed_out "
            "FROM seats WHERE game_id = :game_id ORDER BY seat")
COUNT_SEATS = Sql("SELECT count(*) FROM seats WHERE game_id = :game_id")
ADD_SEAT = Sql("INSERT INTO seats (game_id, seat, user_id, ai_level, name) "
               "VALUES (:game_id, :seat, :user_id, :ai_level, :name)")
DELETE_SEAT = Sql("DELETE FROM seats WHERE game_id = :game_id AND seat = :seat")
SEATS_AFTER = Sql("SELECT seat FROM seats WHERE game_id = :game_id AND seat > :seat "
                  "ORDER BY seat")
MOVE_SEAT = Sql("UPDATE seats SET seat = :to WHERE game_id = :game_id AND seat = :seat")
SET_AUTOPILOT = Sql("UPDATE seats SET autopilot = :level, timed_out = :timed_out "
                    "WHERE game_id = :game_id AND seat = :seat AND user_id IS NOT NULL")
REPLACE_SEAT = Sql("UPDATE seats SET user_id = :user_id, name = :name, autopilot = NULL, "
                   "left_game = FALSE, timed_out = FALSE WHERE game_id = :game_id "
                   "AND seat = :seat AND user_id IS NOT NULL")
LEAVE_SEAT = Sql("UPDATE seats SET autopilot = :level, left_game = TRUE "
                 "WHERE game_id = :game_id AND seat = :seat AND user_id IS NOT NULL")

# ------------------------------------------------------------------------- the action log
ACTIONS = Sql("SELECT seq, seat, action, version FROM actions WHERE game_id = :game_id "
              "ORDER BY seq")
APPEND_ACTION = Sql("INSERT INTO actions (game_id, seq, seat, action, at, version) "
                    "VALUES (:game_id, :seq, :seat, :action, now(), :version)")

# ------------------------------------------------------------------------- turn clocks
# Writing a game's clocks: the seats not in the new rows lose theirs; each new row replaces
# its seat's, except that a clock that is still the same one (same decision, ``since``, and
# the same start and deadline) keeps the higher reminder count. A change planned from a copy
# read before the owner noted a reminder (``update_deadline``, another process on
# PostgreSQL) must not put the lower count back: the owner would send that reminder again.
# On PostgreSQL the upsert waits for an ``update_deadline`` in progress on the row and then
# sees its count.
DEADLINE_COLUMNS = "seat, since, started_at, due_at, reminded, strikes, covering, nudged"
_lite, _pg = _in_list("seat", "seats", "integer")
DELETE_OTHER_DEADLINES = Sql(
    sqlite=f"DELETE FROM deadlines WHERE game_id = :game_id AND NOT ({_lite})",
    postgresql=f"DELETE FROM deadlines WHERE game_id = :game_id AND NOT ({_pg})")
UPSERT_DEADLINE = Sql(
    f"INSERT INTO deadlines (game_id, {DEADLINE_COLUMNS}) VALUES (:game_id, :seat, :since, "
    ":started_at, :due_at, :reminded, :strikes, :covering, :nudged) "
    "ON CONFLICT (game_id, seat) DO UPDATE SET "
    "reminded = CASE WHEN deadlines.since IS NOT NULL "
    "AND deadlines.since = excluded.since "
    "AND deadlines.started_at IS NOT DISTINCT FROM excluded.started_at "
    "AND deadlines.due_at IS NOT DISTINCT FROM excluded.due_at "
    f"THEN {_greater('deadlines.reminded', 'excluded.reminded')} ELSE excluded.reminded END, "
    # a nudge sent stays sent for the same decision (as a reminder count, above)
    "nudged = CASE WHEN deadlines.since IS NOT NULL "
    "AND deadlines.since = excluded.since "
    "AND deadlines.started_at IS NOT DISTINCT FROM excluded.started_at "
    "THEN deadlines.nudged OR excluded.nudged ELSE excluded.nudged END, "
    "since = excluded.since, started_at = excluded.started_at, due_at = excluded.due_at, "
    "strikes = excluded.strikes, covering = excluded.covering")
DEADLINES = Sql(f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE game_id = :game_id "
                "ORDER BY seat")
UPDATE_DEADLINE = Sql("UPDATE deadlines SET due_at = :due_at, reminded = :reminded "
                      "WHERE game_id = :game_id AND seat = :seat "
                      "AND since IS NOT DISTINCT FROM CAST(:since AS INTEGER)")
SET_NUDGED = Sql("UPDATE deadlines SET nudged = TRUE "
                 "WHERE game_id = :game_id AND seat = :seat "
                 "AND since IS NOT DISTINCT FROM CAST(:since AS INTEGER)")

# ------------------------------------------------------------------------- people
REMINDERS = Sql("SELECT reminders FROM user_settings WHERE user_id = :user_id")
SET_REMINDERS = Sql("INSERT INTO user_settings (user_id, reminders) VALUES (:user_id, :on) "
                    "ON CONFLICT (user_id) DO UPDATE SET reminders = excluded.reminders")
_lite, _pg = _in_list("user_id", "user_ids", "bigint")
_LOCALES = "SELECT user_id, locale FROM user_settings WHERE locale IS NOT NULL AND {}"
USER_LOCALES = Sql(sqlite=_LOCALES.format(_lite), postgresql=_LOCALES.format(_pg))
SET_USER_LOCALE = Sql("INSERT INTO user_settings (user_id, locale) VALUES (:user_id, :locale) "
                      "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale")

# ------------------------------------------------------------------------- private menus
MENU_COLUMNS = "message_id, channel_id, game_id, user_id, version, content, locale"
PRIVATE_MENUS = Sql(f"SELECT {MENU_COLUMNS} FROM private_menus ORDER BY message_id")
PRIVATE_MENUS_OF_GAME = Sql(f"SELECT {MENU_COLUMNS} FROM private_menus "
                            "WHERE game_id = :game_id ORDER BY message_id")
PUT_PRIVATE_MENU = Sql(
    f"INSERT INTO private_menus ({MENU_COLUMNS}) VALUES (:message_id, :channel_id, :game_id, "
    ":user_id, :version, :content, :locale) "
    "ON CONFLICT (message_id) DO UPDATE SET channel_id = excluded.channel_id, "
    "game_id = excluded.game_id, user_id = excluded.user_id, version = excluded.version, "
    "content = excluded.content, locale = excluded.locale")
DROP_PRIVATE_MENU = Sql("DELETE FROM private_menus WHERE message_id = :message_id")

# ------------------------------------------------------------------------- lessons
LESSON_COLUMNS = ("id, user_id, game, step, status, guild_id, channel_id, thread_id, "
                  "message_id, finished_at IS NOT NULL")
LESSON_OF_USER = Sql(f"SELECT {LESSON_COLUMNS} FROM lessons WHERE user_id = :user_id")
LESSON = Sql(f"SELECT {LESSON_COLUMNS} FROM lessons WHERE id = :lesson_id")
# a lesson asked for again goes on where it was (its page is kept), from here
START_LESSON = Sql(
    "INSERT INTO lessons (user_id, game, guild_id, channel_id, started_at) "
    "VALUES (:user_id, :game, :guild_id, :channel_id, now()) "
    "ON CONFLICT (user_id) DO UPDATE SET guild_id = excluded.guild_id, "
    "channel_id = excluded.channel_id, "
    "status = CASE WHEN lessons.status = 'left' THEN 'running' ELSE lessons.status END "
    f"RETURNING {LESSON_COLUMNS}")
# only from the page it was read at: two clicks on one page move the lesson on once
SET_LESSON_STEP = Sql(
    "UPDATE lessons SET step = :step, status = :status, finished_at = CASE "
    "WHEN CAST(:finished AS BOOLEAN) THEN COALESCE(finished_at, now()) "
    "ELSE finished_at END WHERE user_id = :user_id AND step = :was")
SET_LESSON_PLACE = Sql("UPDATE lessons SET thread_id = :thread_id, message_id = :message_id "
                       "WHERE user_id = :user_id")
_lite, _pg = _in_list("user_id", "user_ids", "bigint")
_TIPS = "SELECT user_id, tips, tips_seen FROM user_settings WHERE {}"
TIPS = Sql(sqlite=_TIPS.format(_lite), postgresql=_TIPS.format(_pg))
SET_TIPS = Sql("INSERT INTO user_settings (user_id, tips) VALUES (:user_id, :on) "
               "ON CONFLICT (user_id) DO UPDATE SET tips = excluded.tips")
SEE_TIP = Sql("INSERT INTO user_settings (user_id, tips_seen) VALUES (:user_id, :kind) "
              "ON CONFLICT (user_id) DO UPDATE SET tips_seen = CASE "
              "WHEN user_settings.tips_seen = '' THEN excluded.tips_seen "
              "ELSE user_settings.tips_seen || ',' || excluded.tips_seen END")
_FINISHED = ("SELECT user_id, COUNT(DISTINCT game_id) FROM results WHERE {} "
             "GROUP BY user_id")
FINISHED_GAMES = Sql(sqlite=_FINISHED.format(_lite), postgresql=_FINISHED.format(_pg))

# ------------------------------------------------------------------------- hand messages
HAND_MESSAGE = Sql("SELECT channel_id, message_id FROM hand_messages "
                   "WHERE game_id = :game_id AND user_id = :user_id")
SET_HAND_MESSAGE = Sql(
    "INSERT INTO hand_messages (game_id, user_id, channel_id, message_id) "
    "VALUES (:game_id, :user_id, :channel_id, :message_id) "
    "ON CONFLICT (game_id, user_id) DO UPDATE SET channel_id = excluded.channel_id, "
    "message_id = excluded.message_id")

# ------------------------------------------------------------------------- turn mutes
TURN_MUTES = Sql("SELECT user_id, turn_key FROM turn_mutes WHERE game_id = :game_id")
SET_TURN_MUTE = Sql(
    "INSERT INTO turn_mutes (game_id, user_id, turn_key) VALUES (:game_id, :user_id, :turn_key) "
    "ON CONFLICT (game_id, user_id) DO UPDATE SET turn_key = excluded.turn_key")

# ------------------------------------------------------------------------- history
# Derived tables for bot/history/ledger.py: results per seat of finished games and ratings.
# Everything here can be dropped (CLEAR_HISTORY) and rebuilt from the action logs.
RESULT_COLUMNS = ("game_id, seat, guild_id, channel_id, user_id, ai_level, name, rank, vp, "
                  "won, opening, finished_at")
GAMES_WITHOUT_RESULTS = Sql(
    f"SELECT {GAME_COLUMNS} FROM games g WHERE status = 'finished' AND NOT EXISTS "
    "(SELECT 1 FROM results r WHERE r.game_id = g.id) ORDER BY id")
FINISHED_AT = Sql("SELECT max(at) FROM actions WHERE game_id = :game_id")
SAVE_RESULT = Sql(
    f"INSERT INTO results ({RESULT_COLUMNS}) VALUES (:game_id, :seat, :guild_id, :channel_id, "
    ":user_id, :ai_level, :name, :rank, :vp, :won, :opening, :finished_at) "
    "ON CONFLICT (game_id, seat) DO UPDATE SET guild_id = excluded.guild_id, "
    "channel_id = excluded.channel_id, user_id = excluded.user_id, "
    "ai_level = excluded.ai_level, name = excluded.name, rank = excluded.rank, "
    "vp = excluded.vp, won = excluded.won, opening = excluded.opening, "
    "finished_at = excluded.finished_at")


@cache
def results(of_games: bool, of_user: bool) -> Sql:
    """A server's result rows in game order, seats in order; ``of_games``: of the games
    in the list ``:game_ids`` only; ``of_user``: of the games ``:user_id`` played in."""
    texts = []
    for in_games in _in_list("game_id", "game_ids", "bigint"):
        sql = f"SELECT {RESULT_COLUMNS} FROM results WHERE guild_id = :guild_id"
        if of_games:
            sql += f" AND {in_games}"
        if of_user:
            sql += (" AND game_id IN (SELECT game_id FROM results WHERE guild_id = :guild_id "
                    "AND user_id = :user_id)")
        texts.append(sql + " ORDER BY finished_at, game_id, seat")
    return Sql(sqlite=texts[0], postgresql=texts[1])


@cache
def result_game_ids(of_channel: bool) -> Sql:
    """Finished games of a server (``of_channel``: of ``:channel_id`` only), newest first."""
    where = " AND channel_id = :channel_id" if of_channel else ""
    return Sql(f"SELECT DISTINCT game_id, finished_at FROM results WHERE guild_id = :guild_id"
               f"{where} ORDER BY finished_at DESC, game_id DESC LIMIT :limit OFFSET :offset")


RATINGS = Sql("SELECT guild_id, user_id, mu, sigma, games FROM ratings "
              "WHERE guild_id = :guild_id")
RATED_GAMES = Sql("SELECT finished_at, game_id FROM rated_games WHERE guild_id = :guild_id "
                  "ORDER BY finished_at, game_id")
DELETE_RATINGS = Sql("DELETE FROM ratings WHERE guild_id = :guild_id")
DELETE_RATED_GAMES = Sql("DELETE FROM rated_games WHERE guild_id = :guild_id")
SAVE_RATING = Sql(
    "INSERT INTO ratings (guild_id, user_id, mu, sigma, games) "
    "VALUES (:guild_id, :user_id, :mu, :sigma, :games) ON CONFLICT (guild_id, user_id) "
    "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games")
SAVE_RATED_GAME = Sql(
    "INSERT INTO rated_games (game_id, guild_id, finished_at) "
    "VALUES (:game_id, :guild_id, :finished_at) ON CONFLICT (game_id) "
    "DO UPDATE SET guild_id = excluded.guild_id, finished_at = excluded.finished_at")
CLEAR_HISTORY = tuple(Sql(f"DELETE FROM {table}")
                      for table in ("rated_games", "ratings", "results"))
