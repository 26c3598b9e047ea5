"""Who is at the table, and so who is pinged: the pure rule and the per-game record."""

from __future__ import annotations

from bot.table.presence import Presence
from bot.timing.presence import AT_TABLE_S, at_table, wants_ping
from bot.timing.time_source import FakeClock


def test_a_recent_click_means_at_the_table_for_a_few_minutes() -> None:
    assert not at_table(None, 1000.0), "never clicked: away"
    assert at_table(1000.0, 1000.0)
    assert at_table(1000.0, 1000.0 + AT_TABLE_S - 1)
    assert not at_table(1000.0, 1000.0 + AT_TABLE_S)
    assert not at_table(2000.0, 1000.0), "a click from the future (a clock set back) is no proof"
    assert 60 <= AT_TABLE_S <= 15 * 60


def test_only_the_away_who_did_not_mute_this_turn_are_pinged() -> None:
    assert wants_ping(None, 0.0, None, "t1")
    assert not wants_ping(0.0, 10.0, None, "t1"), "at the table: named, not pinged"
    assert not wants_ping(None, 0.0, "t1", "t1"), "muted this turn"
    assert wants_ping(None, 0.0, "t0", "t1"), "a mute ends with its turn"


def test_presence_per_game_and_person() -> None:
    clock = FakeClock()
    p = Presence(clock)
    p.seen(1, 11)
    assert p.here(1, 11) and not p.here(2, 11) and not p.here(1, 12)
    assert p.to_ping(1, [11, 12], "t") == [12]
    clock.advance(AT_TABLE_S + 1)
    assert not p.here(1, 11)
    assert p.to_ping(1, [11, 12], "t") == [11, 12]
    p.mute(1, 12, "t")
    assert p.muted(1, 12, "t") and not p.muted(1, 12, "u") and not p.muted(2, 12, "t")
    assert p.to_ping(1, [11, 12], "t") == [11]
    assert p.to_ping(1, [11, 12], "u") == [11, 12]
    p.seen(2, 11)
    assert p.forget_idle() == 1, "the old click in game 1 is dropped, game 2's kept"
    p.forget(1)
    assert p.to_ping(1, [12], "t") == [12] and p.here(2, 11)


def test_the_window_is_an_operator_setting() -> None:
    """``TEMPUS_AT_TABLE_S``: read with the other settings, handed to the presence record
    and on to the pure rule; 0 makes everyone away (pinged, secret choices by DM)."""
    import pytest

    from bot.operator.settings import Settings
    from bot.table.service import TableService

    assert Settings.from_env({}).at_table_s == AT_TABLE_S == Settings().at_table_s
    assert Settings.from_env({"TEMPUS_AT_TABLE_S": "60"}).at_table_s == 60.0
    assert Settings.from_env({"TEMPUS_AT_TABLE_S": "0"}).at_table_s == 0.0
    for bad in ("soon", "-1", "nan", "inf"):
        with pytest.raises(ValueError, match="TEMPUS_AT_TABLE_S"):
            Settings.from_env({"TEMPUS_AT_TABLE_S": bad})
    assert at_table(1000.0, 1030.0, window=60.0) and not at_table(1000.0, 1060.0, 60.0)
    assert not at_table(1000.0, 1000.0, window=0.0), "0: nobody is ever at the table"
    assert wants_ping(1000.0, 1000.0, None, "t", window=0.0)
    clock = FakeClock()
    p = Presence(clock, at_table_s=60.0)
    p.seen(1, 11)
    clock.advance(59)
    assert p.here(1, 11) and p.to_ping(1, [11], "t") == []
    clock.advance(1)
    assert not p.here(1, 11) and p.to_ping(1, [11], "t") == [11]
    assert p.forget_idle() == 1
    now = Presence(FakeClock(), at_table_s=0.0)
    now.seen(1, 11)
    assert not now.here(1, 11) and now.to_ping(1, [11], "t") == [11]

    class NoStore:  # the service only keeps its storage at construction
        pass
    svc = TableService(NoStore(), at_table_s=0.0)  # type: ignore[arg-type]
    assert svc.presence.at_table_s == 0.0 and svc.outcomes.presence is svc.presence
