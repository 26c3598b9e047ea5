"""The lesson (games/tempus/lesson) is the engine's game: every click of its script is an
action the engine accepts in the position the script reaches, every other choice it
offers is judged by the engine, and playing it through as written meets every rule area
the lesson promises, in English and in Polish."""

from __future__ import annotations

import pytest

from engine import apply
from engine.errors import IllegalAction, NotYourDecision
from engine.events import Event
from engine.geography import geography
from engine.hexgrid import distance
from games.controls import MAX_BUTTONS_PER_ROW, MAX_LABEL, MAX_ROWS, Button, Op
from games.registry import game
from games.tempus.lesson import coach
from games.tempus.lesson.positions import LEARNER, H
from games.tempus.lesson.script import CHAPTERS
from lang import i18n
from tests.test_docs import rules_ids

#: what the lesson must make a newcomer play once, and the rule ids (docs/rules.md) that
#: say it: each area is met when the script's steps cite every id of it
AREAS: dict[str, tuple[str, ...]] = {
    "action markers and the era track": ("R-ROUND-1", "R-ROUND-2", "R-ERA-1"),
    "Move and a lake crossing": ("R-MOVE-1", "R-MOVE-6"),
    "Grow and the stack limit": ("R-GROW-1", "R-GROW-2", "R-GROW-3"),
    "drawing cards and the hand limit": ("R-DRAW-1", "R-DRAW-2"),
    "a city": ("R-CITY-1", "R-CITY-2", "R-CITY-3"),
    "a fight, cards face down, the defender's answer": (
        "R-COMBAT-1", "R-COMBAT-2", "R-COMBAT-5", "R-COMBAT-6", "R-COMBAT-7",
        "R-COMBAT-8", "R-COMBAT-9"),
    "the cards' effects": ("R-CARD-LEA", "R-CARD-WEA", "R-CARD-SAN", "R-CARD-TRA",
                           "R-CARD-HEA", "R-CARD-REL", "R-CARD-GOV", "R-CARD-EDU"),
    "the progress phase and catching up": ("R-PROG-1", "R-PROG-2", "R-PROG-3",
                                           "R-PROG-5", "R-ERA-3"),
    "victory points": ("R-END-1", "R-END-2", "R-ERA-4"),
}


def _right(n: int) -> str:
    """The argument of page ``n``'s control that the script asks for."""
    _, step = coach.step_at(n)
    if step.reading:
        return coach.NEXT
    return f"c{coach.choices(step).index(step.do)}"


def _play_through() -> list[coach.Page]:
    pages = [coach.page(0)]
    while not pages[-1].finished:
        n = pages[-1].step
        pages.append(coach.answer(n, _right(n)))
        assert pages[-1].step == n + 1, f"page {n} did not lead on"
    return pages


def _check_panel(p: coach.Page) -> None:
    panel = p.panel
    assert panel.text and len(panel.text) <= 2000, (p.step, len(panel.text))
    assert len(panel.rows) <= MAX_ROWS
    for row in panel.rows:
        assert isinstance(row, tuple) and len(row) <= MAX_BUTTONS_PER_ROW
        for b in row:
            assert isinstance(b, Button) and 0 < len(b.label) <= MAX_LABEL
            assert b.op == Op.LESSON
    assert panel.image == "board" and panel.image_view is not None


def test_every_rule_id_of_the_script_is_a_rule() -> None:
    assert sorted(set(coach.rules_met()) - set(rules_ids())) == []


def test_each_rule_area_is_met_at_least_once() -> None:
    """R-ROUND-1, R-ROUND-2, R-ERA-1, R-MOVE-1, R-MOVE-6, R-GROW-1..3, R-DRAW-1, R-DRAW-2,
    R-CITY-1..3, R-COMBAT-1, 2, 5..9, R-CARD-LEA, WEA, SAN, TRA, HEA, REL, GOV, EDU,
    R-PROG-1, 2, 3, 5, R-ERA-3, R-END-1, R-END-2, R-ERA-4: each cited by a step that the
    script plays (every step is on the way through)."""
    met = coach.rules_met()
    missing = {area: [r for r in ids if r not in met] for area, ids in AREAS.items()}
    assert {a: m for a, m in missing.items() if m} == {}


def test_every_click_is_a_legal_action_and_every_other_choice_is_judged() -> None:
    """The script re-implements no rule: each ``do`` is applied by the engine in the
    position the steps before it reach, and each other choice is either refused by the
    engine or a different legal move."""
    for c, chapter in enumerate(CHAPTERS):
        state = chapter.start()
        for s, step in enumerate(chapter.steps):
            assert coach.position(coach.STEPS.index((c, s))).to_json() == state.to_json()
            for click in step.tempt:
                assert click != step.do
                try:
                    x = state
                    for a in click:
                        x, _ = apply(x, LEARNER, a)
                except (IllegalAction, NotYourDecision):
                    continue
            for a in step.do:
                state, _ = apply(state, LEARNER, a)
            for seat, a in step.after:
                state, _ = apply(state, seat, a)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_whole_lesson_plays_as_written(lang: str) -> None:
    """Played click by click as the script says, in both languages: the engine sees a
    lake crossing (R-MOVE-6), a hand-limit discard (R-DRAW-2), a city (R-CITY-1), fights
    with cards face down and a defender's answer (R-COMBAT-5), every card's effect
    (R-CARD-*), catching up (R-PROG-1), advancing (R-PROG-5) and the final score
    (R-END-2)."""
    with i18n.using(lang):
        pages = _play_through()
    assert len(pages) == coach.PAGES
    for p in pages:
        _check_panel(p) if not p.finished else None
    assert pages[-1].finished and pages[-1].step == coach.END
    events = _events_of_the_script()
    kinds = {e.kind for e in events}
    assert {"move_token", "grow_token", "discard", "city", "attack", "attack_cards",
            "combat_cards", "combat_won", "combat_lost", "occupy", "catch_up", "advance",
            "game_over"} <= kinds
    played = {e.data["type"] for e in events if e.kind == "card" and e.seat == LEARNER}
    assert played == {"GOV", "TRA", "SAN", "HEA", "REL"}
    assert any(e.kind == "attack" and e.data["leader"] and e.seat == LEARNER for e in events)
    fought = [e.data for e in events if e.kind == "combat_cards"]
    from engine.content import CONTENT

    types = {CONTENT.cards[c].type for d in fought for c in d["attack_cards"] + d["defend_cards"]}
    assert {"WEA", "FOR"} <= types
    revealed = [c for e in events if e.kind == "progress_reveal" and e.seat == LEARNER
                for c in e.data["cards"]]
    assert "EDU" in {CONTENT.cards[c].type for c in revealed}
    crossing = next(e for e in events if e.kind == "move_token" and e.seat == LEARNER)
    src, dst = H(crossing.data["src"]), H(crossing.data["dst"])
    geo = geography(coach.position(0).terrain)
    assert distance(src, dst) > 1 and set(geo.shore_lakes[src]) & set(geo.shore_lakes[dst])
    final = coach.position(coach.END)
    assert final.phase == "over" and final.winners == [LEARNER]


def _events_of_the_script() -> list[Event]:
    out: list[Event] = []
    for chapter in CHAPTERS:
        state = chapter.start()
        for step in chapter.steps:
            for a in step.do:
                state, ev = apply(state, LEARNER, a)
                out += ev
            for seat, a in step.after:
                state, ev = apply(state, seat, a)
                out += ev
    return out


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_every_wrong_turn_is_explained_and_the_lesson_recovers(lang: str) -> None:
    """Each other choice of each step, once: the page stays, says what the engine made of
    it and the step's hint, and the right choice then leads on."""
    wrong = 0
    with i18n.using(lang):
        for n in range(coach.END):
            _, step = coach.step_at(n)
            hint = i18n.lookup(f"lesson.step.{step.key}.hint", lang) if not step.reading \
                else None
            for i, click in enumerate(coach.choices(step)):
                if click == step.do:
                    continue
                after = coach.answer(n, f"c{i}")
                assert after.step == n and not after.finished
                assert hint is not None and hint in after.panel.text
                assert ("❌" in after.panel.text) or ("↩️" in after.panel.text)
                _check_panel(after)
                wrong += 1
            assert coach.answer(n, _right(n)).step == n + 1
    assert wrong >= 30


def test_back_skip_again_and_stray_arguments() -> None:
    assert coach.answer(5, coach.BACK).step == 4
    assert coach.answer(0, coach.BACK).step == 0
    first_of = [coach.STEPS.index((c, 0)) for c in range(len(CHAPTERS))]
    assert coach.answer(1, coach.SKIP).step == first_of[1]
    assert coach.answer(first_of[-1], coach.SKIP).step == coach.END
    assert coach.answer(coach.END, coach.AGAIN).step == 0
    for stray in ("", "c99", "cx", "zzz", coach.NEXT):
        assert coach.answer(1, stray).step == 1  # page 1 is no page to read
    assert coach.answer(coach.END + 5, "c0").step == coach.END


def test_the_polish_lesson_is_polish() -> None:
    """Every page of the Polish lesson differs from the English one."""
    for n in range(coach.PAGES):
        with i18n.using("en"):
            en = coach.page(n).panel.text
        with i18n.using("pl"):
            pl = coach.page(n).panel.text
        assert en != pl


def test_tempus_offers_its_lesson_through_the_port() -> None:
    lessons = game("tempus").lessons
    assert lessons is not None and lessons.pages == coach.PAGES
    first = lessons.page(0)
    assert first.step == 0 and not first.finished
    assert lessons.answer(0, coach.NEXT).step == 1
    tip = lessons.tip(coach.position(1), LEARNER)
    assert tip is not None and tip.kind == "turn" and tip.text
    assert lessons.tip(coach.position(1), 2) is None  # Yellow owes nothing there
