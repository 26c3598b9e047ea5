"""The anatomy of a tournament (engine/ai/anatomy.py): the same games as the tournament,
followed era by era, and a summary whose numbers are checked by hand."""

from __future__ import annotations

from engine.ai import anatomy as AN
from engine.ai.__main__ import main
from engine.ai.tournament import play_one


def test_the_games_are_the_tournaments_and_the_final_points_add_up():
    lineup = ("normal", "easy", "normal")
    for index in range(2):
        g = AN.anatomy_one((index, 5100, lineup, None, None))
        r = play_one((index, 5100, lineup, 20_000, None, None, True))
        assert g.seed == r.seed and g.winners == r.winners  # the same game, watched
        assert g.hero == r.slots.index(0)
        # R-END-2: hexes, cities and Flight make the score; the last era's count is it
        assert [f["hexes"] + f["cities"] + f["flight"] for f in g.final] == r.scores
        assert [f["total"] for f in g.final] == r.scores
        assert g.vp[-1] == r.scores
        assert len(g.vp) == len(g.cubes) == len(g.actions) == 10  # R-END-1: ten eras
        # cubes never go back; every seat took main actions in every era (R-ROUND-2)
        for s in range(3):
            assert [c[s] for c in g.cubes] == sorted(c[s] for c in g.cubes)
            assert all(sum(era[s].values()) > 0 for era in g.actions)
        assert all("end_turn" not in counts for era in g.actions for counts in era)


def _game(hero, position, winners, vp, cubes, actions, final):
    return AN.GameAnatomy(seed=0, hero=hero, position=position, winners=winners, vp=vp,
                          cubes=cubes, actions=actions, final=final)


def _final(totals):
    return [{"hexes": t, "cities": 0, "flight": 0, "total": t, "city_count": 0, "cards": 1}
            for t in totals]


def test_summary_numbers():
    won = _game(0, 0, [0], vp=[[4, 2, 3], [9, 5, 7]], cubes=[[1, 1, 0], [2, 1, 1]],
                actions=[[{"draw_cards": 2}, {"begin_grow": 1}, {"begin_grow": 3}],
                         [{"begin_move": 1}, {}, {}]],
                final=_final([9, 5, 7]))
    lost = _game(2, 3, [1], vp=[[3, 3, 1], [6, 8, 4]], cubes=[[0, 1, 0], [1, 2, 1]],
                 actions=[[{"begin_grow": 1}, {}, {"draw_cards": 1}],
                          [{}, {"build_city": 2}, {}]],
                 final=_final([6, 8, 4]))
    out = AN.summarise(("hard", "normal", "normal"), [won, lost])
    assert out["win_share"] == 0.5
    assert (out["games_won"], out["games_lost"]) == (1, 1)
    e1, e2 = out["by_era"]
    # era 1: won game 4 - mean(2, 3) = 1.5; lost game (hero seat 2) 1 - mean(3, 3) = -2
    assert (e1["vp_lead_won"], e1["vp_lead_lost"], e1["vp_lead"]) == (1.5, -2.0, -0.25)
    assert (e2["vp_lead_won"], e2["vp_lead_lost"]) == (3.0, -3.0)
    assert (e1["era_lead_won"], e1["era_lead_lost"]) == (0.5, -0.5)
    # actions per game for the player, per seat per game for the others
    assert e1["actions_player"] == {"draw_cards": 1.5}
    assert e1["actions_others"] == {"begin_grow": 1.25}
    assert e2["actions_others"] == {"build_city": 0.5}
    assert out["final"]["player"]["total"] == 6.5  # 9 and 4
    assert out["final"]["winner_when_player_lost"]["total"] == 8
    assert out["final"]["player_when_lost"]["total"] == 4
    assert out["by_start_position"][0] == {"position": 0, "games": 1, "win_share": 1.0}
    assert out["by_start_position"][1] == {"position": 1, "games": 0, "win_share": None}


def test_command_refuses_an_unknown_level_and_too_few_seats(capsys):
    assert main(["anatomy", "--games", "1", "--seats", "hard,grandmaster,normal"]) == 2
    assert "grandmaster" in capsys.readouterr().out
    assert main(["anatomy", "--games", "1", "--seats", "hard,normal"]) == 2
    assert "at least 3" in capsys.readouterr().out
