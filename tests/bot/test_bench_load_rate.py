"""The load bench's rate search: which window counts as sustained, the human-pace model
that turns its rate into live games, and the cores it pins the bench and the bot to."""

from __future__ import annotations

import os

import pytest

from tests.bot.bench_load import Limits, Pinning, summary
from tests.bot.human_pace import HumanPace


def test_a_game_at_a_human_pace() -> None:
    pace = HumanPace()  # 10-30 s, computers pausing 0.8 s
    # a person's action and two of the computers' in 20 s + 2 x 0.8 s
    assert pace.actions_per_game_s(2.0) == pytest.approx(3 / 21.6)
    assert pace.live_games(3 / 21.6 * 1000, 2.0) == pytest.approx(1000)
    assert HumanPace((5.0, 5.0), 0.0).actions_per_game_s(0.0) == pytest.approx(0.2)
    with pytest.raises(ValueError):
        pace.actions_per_game_s(-1)


def _row(rate: float, board: float | None, ack: float | None, refused: int = 0,
         computers: float = 2.0) -> dict[str, object]:
    row: dict[str, object] = {
        "games": 300, "think_s": [1.0, 2.0], "actions_per_s": rate,
        "board_ms_p95_steady": board, "ack_ms_p95": ack, "rate_limited_in_window": refused,
        "computer_actions_per_person_action": computers, "bot_cpu_ms_per_action": 3.0,
        "worker_cpu_ms_per_action": 2.0, "bot_cores_busy": 0.9}
    row["within_limits"] = Limits().met(row)
    return row


def test_the_sustained_rate_is_the_best_window_within_every_limit() -> None:
    rows = [_row(100, 300.0, 20.0), _row(180, 800.0, 45.0),
            _row(250, 1400.0, 30.0),  # boards too late
            _row(260, 500.0, 70.0),  # acknowledgements too late
            _row(270, 500.0, 20.0, refused=1),  # a 429
            _row(280, None, 20.0)]  # no board seen at all
    assert [r["within_limits"] for r in rows] == [True, True, False, False, False, False]
    out = summary(rows, Pinning(frozenset({0}), frozenset({1})), Limits(), HumanPace())
    assert out["sustained_actions_per_s"] == 180 and out["per_bot_core"] == 180
    assert out["live_games_per_bot_core"] == round(180 * 21.6 / 3)
    assert out["cpu_bound_actions_per_core_s"] == 200.0  # 1,000 ms over 5 ms an action
    two = summary(rows, Pinning(frozenset({0}), frozenset({1, 2})), Limits(), HumanPace())
    assert two["per_bot_core"] == 90


def test_no_window_within_the_limits_says_so() -> None:
    out = summary([_row(250, 5000.0, 300.0)], Pinning(None, None), Limits(), HumanPace())
    assert out["sustained_actions_per_s"] is None and "note" in out


def test_pinning() -> None:
    assert Pinning.parse("0:1") == Pinning(frozenset({0}), frozenset({1}))
    assert Pinning.parse("0:1-3").bot == frozenset({1, 2, 3})
    assert Pinning.parse("off") == Pinning(None, None)
    assert Pinning.parse("off").bot_cores == len(os.sched_getaffinity(0))
    auto = Pinning.parse("auto")
    if len(os.sched_getaffinity(0)) >= 2:
        assert auto.bench and auto.bot and not auto.bench & auto.bot
    for bad in ("0", "0:0", "a:b"):
        with pytest.raises(ValueError):
            Pinning.parse(bad)


BOT = 'process 10:"python -m bot"'
LOOP = "run (asyncio/runners.py:190)"
EVENT = "Handle._run (asyncio/events.py:80)"
WORKER = "_bootstrap (multiprocessing/process.py:314)"
STACKS = [
    ([BOT, LOOP, EVENT, "DiscordPublisher._sync (bot/publish/publisher.py:309)",
      "Enum.__call__ (enum.py:700)"], 5),
    ([BOT, LOOP, EVENT, "Message.__init__ (discord/message.py:2206)", "__new__ (enum.py:1)"],
     3),
    ([BOT, LOOP, "load (bot/table/loading.py:40)", "Record.new_state (engine/record.py:58)",
      "tile_fits (engine/setup.py:120)"], 2),
    ([BOT, LOOP, EVENT], 4),
    ([BOT, 'process 11:"python -c spawn"', WORKER, "render_board (render/board.py:287)",
      "quantize (PIL/Image.py:1200)"], 6),
    ([BOT, 'process 11:"python -c spawn"', WORKER, "render_board (render/board.py:287)",
      "paste (PIL/Image.py:1700)"], 2),
    ([BOT, 'process 12:"python -c spawn"', WORKER,
      "choose_action (engine/ai/__init__.py:80)"], 7),
]
RAW = [";".join(frames) + f" {n}" for frames, n in STACKS]


def test_samples_by_kind_of_work() -> None:
    from tests.bot import profile_split

    table = profile_split.split(profile_split.read_raw(RAW))
    assert table["bot"] == {
        "ours: messages, panels, components (bot/publish, bot/tempus, bot/client)": 5,
        "discord.py: gateway, parsing events, models": 3,
        "the engine: loading games (records replayed)": 2,
        "scheduling (asyncio, threads, selectors)": 4}
    assert table["render worker"] == {"board: quantising (Pillow)": 6,
                                      "board: drawing (steps, sprites, text, panel; "
                                      "Pillow's pastes)": 2}
    assert table["AI worker"] == {"computer players (engine/ai)": 7}
    cpu = profile_split.cpu_split(table, 4.0, 2.0)
    assert cpu == {"bot": 4.0, "render worker": 2.0 * 8 / 15, "AI worker": 2.0 * 7 / 15}
    text = profile_split.markdown(table, cpu)
    assert "| board: quantising (Pillow) | 6 | 75.0 % | 0.80 |" in text
