"""Records, replay and the command line (python -m engine replay / simulate)."""

import json
import subprocess
import sys
from pathlib import Path

from engine.actions import BeginMove
from engine.record import Record, ReplayError, replay
from engine.simulate import play_game

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_record_round_trip_and_replay_equals_play(tmp_path):
    state, record = play_game(3, seed=21)
    path = tmp_path / "g.json"
    record.dump(path)
    again = Record.load(path)
    assert again.to_json() == record.to_json()
    assert replay(again) == state
    mid = replay(again, upto=100)
    assert mid != state


def test_replay_rejects_illegal_action_with_index():
    _, record = play_game(3, seed=22)
    record.moves.insert(5, (record.moves[5][0], BeginMove()))
    try:
        replay(record)
    except ReplayError as exc:
        assert exc.index == 5 and exc.message
    else:
        raise AssertionError("an illegal action replayed")


def test_pinned_deck_is_used():
    rec = Record(num_players=3, seed=1, random_map=True, deck=list(range(54)))
    state, _ = rec.new_state()
    assert state.deck == list(range(54))
    assert Record.from_json(rec.to_json()).deck == list(range(54))


def test_cli_simulate_and_replay(tmp_path):
    out = run_cli("simulate", "--players", "4", "--games", "3", "--seed", "5",
                  "--record", str(tmp_path))
    assert out.returncode == 0, out.stderr
    stats = json.loads(out.stdout)
    assert stats["games"] == 3 and stats["actions"] > 0
    assert {"seconds", "actions_per_second", "games_per_second"} <= set(stats)
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    rep = run_cli("replay", str(files[0]))
    assert rep.returncode == 0, rep.stderr
    res = json.loads(rep.stdout)
    assert len(res["eras"]) == 4 and len(res["scores"]) == 4 and res["winners"]
    assert res["actions"] == len(json.loads(files[0].read_text())["actions"])
    assert "Flight" in res["eras"]
    expected, _ = play_game(4, seed=5)
    assert res["scores"] == expected.scores


def test_cli_replay_illegal_exits_non_zero(tmp_path):
    _, record = play_game(3, seed=23)
    data = record.to_json()
    data["actions"][10]["action"] = {"type": "end_turn"}
    data["actions"][10]["seat"] = (data["actions"][10]["seat"] + 1) % 3
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    out = run_cli("replay", str(path))
    assert out.returncode != 0
    res = json.loads(out.stdout)
    assert res["action_index"] == 10 and res["error"]
    path.write_text("{not json")
    assert run_cli("replay", str(path)).returncode != 0


def test_random_action_is_the_one_random_choice_and_draws_as_before():
    """engine.simulate.random_action is engine.ai.random_choice over the legal actions,
    drawing exactly what the older copy drew (type first, then uniform: two
    ``rng.choice`` calls), so stored benchmark games and seeds keep their meaning."""
    import random

    from engine import apply_in_place, decisions, legal_actions, new_game
    from engine.ai import random_choice
    from engine.simulate import random_action

    def old_copy(acts, rng):
        by_type = {}
        for a in acts:
            by_type.setdefault(a.type, []).append(a)
        return rng.choice(by_type[rng.choice(sorted(by_type))])

    state, _ = new_game(4, 3, random_map=True)
    r_old, r_new, r_ai = random.Random(5), random.Random(5), random.Random(5)
    for _ in range(400):
        ds = decisions(state)
        if not ds:
            break
        seat = ds[0].seat
        acts = legal_actions(state, seat)
        a = old_copy(acts, r_old)
        assert random_action(state, seat, r_new) == a == random_choice(acts, r_ai)
        apply_in_place(state, seat, a)
