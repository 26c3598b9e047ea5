"""The lesson as pages: the position at each step of the script, what the coach says,
the board with the step's hexes marked, the choices, and the verdict on a choice.

A page is numbered: page ``n`` is step ``n`` of the script (:data:`STEPS`, every
chapter's steps in order) and page :data:`END` says what was learnt. Its position is
replayed from its chapter's first position through the steps before it, so the page
number is all a host keeps of a lesson. The learner's choice is judged by the engine: the
script's click moves the lesson on; any other choice is applied to a copy of the
position, and the learner reads what the engine said (its refusal, or what the choice
would have done) with the step's hint, and tries again.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine import apply, visible
from engine.errors import IllegalAction, NotYourDecision
from engine.events import Event
from engine.score_breakdown import breakdown
from engine.state import State
from engine.views import view
from games.controls import MAX_BUTTONS_PER_ROW, Button, Op, Panel, Row, clip
from games.tempus.event_text import event_text
from games.tempus.labels import action_label, card_list, colour_name
from games.tempus.lesson.positions import LEARNER, H
from games.tempus.lesson.script import CHAPTERS, Chapter, Click, Step
from games.tempus.refusal_text import refusal_text
from lang.messages import t

#: every step of the script as (chapter index, step index), in order
STEPS: tuple[tuple[int, int], ...] = tuple(
    (c, s) for c, chapter in enumerate(CHAPTERS) for s in range(len(chapter.steps)))
#: the last page: what was learnt
END = len(STEPS)
#: how many pages a lesson has (the steps and the end)
PAGES = END + 1

#: a choice's argument: ``c<i>`` the i-th choice shown; the others move through the pages
NEXT, BACK, SKIP, AGAIN = "next", "back", "skip", "again"
#: lines of what happened shown above the coach's words at most
MAX_LINES = 8


@dataclass(frozen=True)
class Page:
    """A page of the lesson: its number, its panel, and whether it is the end."""

    step: int
    panel: Panel
    finished: bool = False


def step_at(n: int) -> tuple[Chapter, Step]:
    c, s = STEPS[n]
    return CHAPTERS[c], CHAPTERS[c].steps[s]


@cache
def _before(c: int, s: int) -> tuple[State, tuple[Event, ...]]:
    """The position before step ``s`` of chapter ``c`` and the events of the click (and
    the computers' moves) that led to it."""
    chapter = CHAPTERS[c]
    if s == 0:
        return chapter.start(), ()
    state, _ = _before(c, s - 1)
    events: list[Event] = []
    step = chapter.steps[s - 1]
    for action in step.do:
        state, ev = apply(state, LEARNER, action)
        events += ev
    for seat, action in step.after:
        state, ev = apply(state, seat, action)
        events += ev
    return state, tuple(events)


def position(n: int) -> State:
    """The position at page ``n`` (a copy: the caller may change it)."""
    c, s = STEPS[min(n, END - 1)]
    state, _ = _before(c, s)
    if n >= END:  # the end: the last step's click made
        state = _after_click(state, step_at(END - 1)[1])
    return state.copy()


def _after_click(state: State, step: Step) -> State:
    for action in step.do:
        state, _ = apply(state, LEARNER, action)
    for seat, action in step.after:
        state, _ = apply(state, seat, action)
    return state


def choices(step: Step) -> list[Click]:
    """The clicks a step offers, in the order shown: the script's among the others at a
    place that differs from step to step (never always first)."""
    others = list(step.tempt)
    at = sum(map(ord, step.key)) % (len(others) + 1)
    return [*others[:at], step.do, *others[at:]]


def click_label(click: Click) -> str:
    """A click's words: its actions' labels, as the game's controls word them."""
    text = action_label(click[0])
    for action in click[1:]:
        text = t("ack.two_steps", first=text, second=action_label(action))
    return text


def _lines(events: tuple[Event, ...] | list[Event]) -> list[str]:
    lines = [event_text(e) for e in visible(list(events), LEARNER)
             if e.kind not in ("turn", "progress_choice")]
    if len(lines) > MAX_LINES:
        lines = [t("lesson.more_lines", n=len(lines) - MAX_LINES + 1),
                 *lines[-(MAX_LINES - 1):]]
    return [f"• {line}" for line in lines]


# ------------------------------------------------------------------ pages
def page(n: int, feedback: list[str] | None = None) -> Page:
    """Page ``n`` in the current language; ``feedback``: the verdict on a choice that was
    not the step's, shown above the coach's words."""
    n = max(0, min(n, END))
    if n == END:
        return _end_page()
    c, s = STEPS[n]
    chapter, step = step_at(n)
    state, happened = _before(c, s)
    lines = [t("lesson.head", n=n + 1, steps=END, chapter=t(f"lesson.chapter.{chapter.key}"))]
    if s == 0:
        lines.append(t(f"lesson.chapter.{chapter.key}.intro"))
    elif feedback is None:
        lines += _lines(happened)
    if feedback:
        lines += feedback
    lines.append(t(f"lesson.step.{step.key}"))
    if step.key == "score":
        lines += _score_lines(state)
    hand = state.players[LEARNER].hand
    if hand and not step.reading:
        lines.append(t("lesson.your_cards", cards=card_list(hand)))
    rows: list[Row] = []
    if step.reading:
        rows.append((Button(t("lesson.btn.next"), Op.LESSON, NEXT, "primary"),))
    else:
        buttons = [Button(clip(click_label(click), 80), Op.LESSON, f"c{i}")
                   for i, click in enumerate(choices(step))]
        rows += [tuple(buttons[i:i + MAX_BUTTONS_PER_ROW])
                 for i in range(0, len(buttons), MAX_BUTTONS_PER_ROW)]
    nav = []
    if n > 0:
        nav.append(Button(t("lesson.btn.back"), Op.LESSON, BACK))
    nav.append(Button(t("lesson.btn.skip"), Op.LESSON, SKIP))
    rows.append(tuple(nav))
    marks = tuple(H(x) for x in step.marks)
    return Page(n, Panel("\n".join(lines), rows, image="board",
                         image_view=view(state, LEARNER), highlight=marks,
                         alt=[t("lesson.alt.marked", hexes=", ".join(step.marks))]
                         if marks else [t("lesson.alt.step", n=n + 1)]))


def _score_lines(state: State) -> list[str]:
    """Where each player's victory points came from (R-END-2), from the public view."""
    out = []
    for s in breakdown(view(state, None)).scores:
        out.append(t("lesson.score.row", colour=colour_name(s.seat), total=s.total,
                     hexes=s.hex_points,
                     cities=s.city_points, flight=s.flight))
    return out


def _end_page() -> Page:
    lines = [t("lesson.end.title"), t("lesson.end.learnt")]
    lines += [f"✓ {t(f'lesson.learnt.{chapter.key}')}" for chapter in CHAPTERS]
    lines.append(t("lesson.end.next"))
    rows: list[Row] = [(Button(t("lesson.btn.again"), Op.LESSON, AGAIN),)]
    state = position(END)
    return Page(END, Panel("\n".join(lines), rows, image="board",
                           image_view=view(state, LEARNER),
                           alt=[t("lesson.alt.end")]), finished=True)


# ------------------------------------------------------------------ answers
def answer(n: int, choice: str) -> Page:
    """What the learner sees after ``choice`` on page ``n``."""
    n = max(0, min(n, END))
    if choice == AGAIN:
        return page(0)
    if choice == BACK:
        return page(n - 1)
    if n == END:
        return page(END)
    c, s = STEPS[n]
    chapter, step = step_at(n)
    if choice == SKIP:
        later = [i for i, (cc, _) in enumerate(STEPS) if cc > c]
        return page(later[0] if later else END)
    if choice == NEXT:
        return page(n + 1) if step.reading else page(n)
    offered = choices(step)
    try:
        picked = offered[int(choice[1:])] if choice[:1] == "c" else None
    except (ValueError, IndexError):
        picked = None
    if picked is None:
        return page(n)
    if picked == step.do:
        return page(n + 1)
    state, _ = _before(c, s)
    return page(n, judge(state, step, picked))


def judge(state: State, step: Step, click: Click) -> list[str]:
    """The verdict on a click that is not the step's: the engine's refusal, or what it
    would have done; then the step's hint. Nothing of it is kept."""
    hint = t(f"lesson.step.{step.key}.hint")
    events: list[Event] = []
    try:
        for action in click:
            state, ev = apply(state, LEARNER, action)
            events += ev
    except (IllegalAction, NotYourDecision) as exc:
        return [t("lesson.refused", what=click_label(click), why=refusal_text(exc)), hint]
    # what the choice would have led to, with the computers' answers where they still fit
    for seat, action in step.after:
        try:
            state, ev = apply(state, seat, action)
        except (IllegalAction, NotYourDecision):
            break
        events += ev
    shown = [e for e in events if e.private_to is None]
    return [t("lesson.allowed", what=click_label(click)), *_lines(shown), hint]


def rules_met() -> dict[str, list[str]]:
    """Each rule id the script teaches and the steps that teach it."""
    out: dict[str, list[str]] = {}
    for chapter in CHAPTERS:
        for step in chapter.steps:
            for rule in step.rules:
                out.setdefault(rule, []).append(step.key)
    return out
