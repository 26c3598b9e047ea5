"""The score chart and the replay animation: real images, from public views only
(R-INFO-1: neither ever reads a hand)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageChops

from engine import view
from engine.record import replay
from engine.timeline import END, ERA, ROUND, SETUP, era_end, era_ends, snapshots
from render import palette as P
from render.board import render_board
from render.chart import render_chart
from render.replay import frame_snapshots, render_replay, replay_record
from tests.render.helpers import PNG_SIGNATURE, game, open_png


class NoHands(dict):
    """A player's entry of a view that fails the test if anything reads its hand."""

    def __getitem__(self, key: str) -> Any:
        if key == "hand":
            raise AssertionError("a hand was read")
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        if key == "hand":
            raise AssertionError("a hand was read")
        return super().get(key, default)


def _guarded(v: dict[str, Any]) -> dict[str, Any]:
    """A seat's view (which holds that seat's hand) whose hands may not be read."""
    return {**v, "players": [NoHands(p) for p in v["players"]]}


def test_timeline_marks_every_round_and_era_end() -> None:
    record = game(4, 21)
    shots = snapshots(record)
    final = replay(record)
    assert shots[-1].ended == END and shots[-1].index == len(record.moves)
    assert shots[-1].view == view(final, None)
    assert [s.era_number for s in shots if s.ended in (ERA, END)] == list(range(1, 11))
    assert sum(1 for s in shots if s.ended == SETUP) == 1
    assert sum(1 for s in shots if s.ended == ROUND) >= 30
    for s in shots:  # spectator views: no hand at all
        assert s.view["seat"] is None
        assert all("hand" not in p for p in s.view["players"])
    assert era_end(shots, 5) is not None and era_end(shots, 11) is None
    # the board at the end of era 5 is the replay up to that action
    e5 = era_end(shots, 5)
    assert e5 is not None and e5.view == view(replay(record, e5.index), None)


def test_chart_is_a_png_with_every_player_colour() -> None:
    record = game(5, 22)
    views = [s.view for s in era_ends(snapshots(record))]
    png = render_chart(views, ["Ann", "Bob", "Cy", "Dee", "Computer 1 (normal)"])
    assert png.startswith(PNG_SIGNATURE)
    img = open_png(png).convert("RGB")
    assert 900 <= img.size[0] <= 1100 and 600 <= img.size[1] <= 800
    colours = {c for _, c in img.getcolors(1 << 20)}
    for seat in range(5):
        assert P.player_rgb(seat) in colours
    # the same positions give the same bytes
    assert render_chart(views, ["Ann", "Bob", "Cy", "Dee", "Computer 1 (normal)"]) == png


def test_chart_never_reads_a_hand_r_info_1() -> None:
    record = game(3, 23)
    shots = era_ends(snapshots(record))
    public = render_chart([s.view for s in shots], ["A", "B", "C"])
    state_views = []
    for s in shots:  # every seat's own view (with its hand), guarded against reading it
        state = replay(record, s.index)
        state_views.append(_guarded(view(state, s.index % 3)))
    assert render_chart(state_views, ["A", "B", "C"]) == public


def test_chart_of_a_single_position() -> None:
    record = game(3, 24)
    png = render_chart([snapshots(record)[1].view])
    assert open_png(png).size[0] == 1000
    with pytest.raises(ValueError):
        render_chart([])


def _frames(data: bytes) -> list[Image.Image]:
    gif = Image.open(io.BytesIO(data))
    out = []
    for k in range(gif.n_frames):
        gif.seek(k)
        out.append(gif.convert("RGB"))
    return out


def test_replay_gif_frames_are_exactly_the_boards() -> None:
    record = game(3, 25)
    shots = frame_snapshots(snapshots(record))[:12]
    views = [s.view for s in shots]
    r = render_replay(views, [100] * len(views))
    assert r.data.startswith(b"GIF89a") and r.scale == 1.0 and r.frames == len(views)
    decoded = _frames(r.data)
    assert len(decoded) == len(views)
    for frame, v in zip(decoded, views):
        board = open_png(render_board(v)).convert("RGB")
        assert ImageChops.difference(frame, board).getbbox() is None


def test_replay_shrinks_frames_to_fit_and_refuses_when_it_cannot() -> None:
    record = game(3, 26)
    views = [s.view for s in frame_snapshots(snapshots(record))[:6]]
    full = render_replay(views)
    smaller = render_replay(views, max_bytes=len(full.data) - 1)
    assert smaller.scale < 1.0 and len(smaller.data) < len(full.data)
    assert smaller.size[0] < full.size[0]
    with pytest.raises(ValueError):
        render_replay(views, max_bytes=1000)


def test_replay_of_a_whole_game_never_reads_a_hand_r_info_1() -> None:
    record = game(4, 27)
    r = replay_record(record)
    shots = frame_snapshots(snapshots(record))
    assert r.frames == len(shots) and len(r.data) < 8_000_000
    guarded = [_guarded(view(replay(record, s.index), 0)) for s in shots[:8]]
    assert render_replay(guarded).data == render_replay([s.view for s in shots[:8]]).data


def test_command_line_replay_and_chart(tmp_path, capsys) -> None:
    import json

    from render.__main__ import main

    path = tmp_path / "game.json"
    game(3, 28).dump(path)
    assert main(["replay", str(path), "--out", str(tmp_path / "r.gif")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["bytes"] == (tmp_path / "r.gif").stat().st_size and out["frames"] > 30
    assert out["seconds"] > 0 and out["players"] == 3
    assert main(["chart", str(path), "--out", str(tmp_path / "c.png")]) == 0
    assert json.loads(capsys.readouterr().out)["eras"] == 10
    assert (tmp_path / "c.png").read_bytes().startswith(PNG_SIGNATURE)


def test_the_legend_keeps_every_score_however_long_the_name() -> None:
    """"Yellow · Computer 1, normal…" cut the winner's points off: a long name gives way,
    the points stay."""
    from render import fonts

    record = game(5, 22)
    views = [s.view for s in era_ends(snapshots(record))]
    final = views[-1]["players"]
    names = ["Ann", "Bob", "Cy", "Dee", "Computer 1, normal, with a very long name indeed"]
    with fonts.recording() as drawn:
        render_chart(views, names)
    legend = [text for text, size in drawn if size == 14]
    assert len(legend) == 5
    for s, text in enumerate(legend):
        assert text.endswith(f"  {final[s]['victory_points']} VP"), text
    assert "…" in legend[4]
