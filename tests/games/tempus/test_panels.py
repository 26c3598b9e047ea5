"""Panels: every engine decision is reachable, Discord's limits hold, public panels leak
nothing (they are the same whatever the hands hold)."""

from __future__ import annotations

import contextlib
import random

from bot.store import SeatRow
from engine.game import decisions
from engine.legal import legal_actions
from games.controls import MAX_OPTIONS, MAX_ROWS, Button, Panel, Select
from games.custom_ids import ComponentId
from games.tempus import panels
from tests.bot.helpers import normalise, random_states, reachable

SEATS = [SeatRow(i, 100 + i, None, f"P{i}") for i in range(5)]


def _check_limits(panel: Panel) -> None:
    assert len(panel.rows) <= MAX_ROWS
    for row in panel.rows:
        if isinstance(row, Select):
            assert 1 <= len(row.options) <= MAX_OPTIONS
            assert 0 <= row.min_values <= row.max_values <= len(row.options)
            assert len({o.value for o in row.options}) == len(row.options)
            for o in row.options:
                assert len(o.label) <= 100 and len(o.value) <= 100
                assert len(o.description) <= 100
            assert len(ComponentId(2**40, 99999, row.op, row.arg, 4).render()) <= 100
        else:
            assert 1 <= len(row) <= 5
            for b in row:
                assert isinstance(b, Button) and len(b.label) <= 80
                assert len(ComponentId(2**40, 99999, b.op, b.arg).render()) <= 100


def _owner_panel(state, seat):
    d = panels.G.decision_for(state, seat)
    if d.kind in panels.HAND_KINDS:
        return panels.secret_panel(state, seat)
    return panels.public_panel(state, SEATS[: state.num_players])


def _check_game(seed: int, players: int, random_map: bool, kinds: set[str]) -> None:
    for i, state in enumerate(random_states(seed, players, random_map=random_map)):
        if state.phase == "tiles" and i % 3:
            continue  # tile previews are slow to walk; some suffice
        for d in decisions(state):
            panel = _owner_panel(state, d.seat)
            _check_limits(panel)
            got = {normalise(a) for a in reachable(state, d.seat, panel)}
            legal = {normalise(a) for a in legal_actions(state, d.seat)}
            assert legal <= got, (d.kind, sorted(map(str, legal - got))[:5])
            kinds.add(d.kind)


def test_every_legal_action_is_reachable_from_the_panels() -> None:
    """Every decision of random games (all eleven kinds) can be made through buttons,
    selects and menus alone."""
    kinds: set[str] = set()
    _check_game(3, 3, False, kinds)
    seed = 0
    while len(kinds) < len(panels.G.HANDLERS) and seed < 200:
        _check_game(seed, 3 + seed % 3, True, kinds)
        seed += 1
    assert kinds == set(panels.G.HANDLERS)


def test_public_panels_do_not_depend_on_hands() -> None:
    """R-INFO-1: swapping who holds which cards (and the deck order) never changes what the
    channel panel shows."""
    rng = random.Random(5)
    n = 0
    for state in random_states(11, 4, every=3):
        if not decisions(state):
            continue
        base = panels.public_panel(state, SEATS[:4])
        other = state.copy()
        pool = [c for p in other.players for c in p.hand] + other.deck
        rng.shuffle(pool)
        for p in other.players:
            k = len(p.hand)
            p.hand, pool = pool[:k], pool[k:]
        other.deck = pool
        assert panels.public_panel(other, SEATS[:4]) == base
        n += 1
    assert n > 50


def test_private_menus_respect_limits() -> None:
    for state in random_states(21, 5, every=2):
        for d in decisions(state):
            for spec in ("cards", "attack", "city", "hand"):
                with contextlib.suppress(panels.MenuError):
                    _check_limits(panels.menu(state, d.seat, spec))


def _sub_menus(state, seat, panel: Panel) -> list[tuple[str, Panel]]:  # type: ignore[no-untyped-def]
    out = []
    for c in panel.controls():
        specs = []
        if isinstance(c, Button) and c.op == "menu":
            specs = [c.arg]
        elif isinstance(c, Select) and c.op == "menu":
            specs = [f"{c.arg}:{o.value}" for o in c.options[:2]]
        for spec in specs:
            if spec in ("close", "hand", "secret"):
                continue
            with contextlib.suppress(panels.MenuError):
                out.append((spec, panels.menu(state, seat, spec)))
    return out


def test_every_multi_step_menu_has_a_back_button_and_prompts_list_the_buttons() -> None:
    """A Back button until the step is committed; the turn prompt names exactly
    the actions its buttons offer; an action that would do nothing says so."""
    menus = 0
    for state in random_states(21, 4, every=3):
        for d in decisions(state):
            if d.kind in panels.HAND_KINDS:
                continue
            panel = panels.public_panel(state, SEATS[: state.num_players])
            if d.kind == "turn":
                labels = [b.label for b in panel.controls() if isinstance(b, Button)]
                assert panel.text.endswith(" · ".join(labels) + ".")
                for b in panel.controls():
                    if isinstance(b, Button) and b.label.startswith(("👣 Move:", "🌱 Grow:")):
                        assert "uses the marker" in b.label and b.style == "secondary"
            for spec, sub in _sub_menus(state, d.seat, panel):
                if not sub.controls():
                    continue
                _check_limits(sub)
                ops = [(c.op, c.arg) for c in sub.controls() if isinstance(c, Button)]
                assert ("menu", "close") in ops or ("menu", "cards") in ops, spec
                menus += 1
    assert menus > 20


def test_attack_targets_show_both_strengths_before_commitment() -> None:
    """R-COMBAT-6/7: strengths before cards, ties to the defender, in the target menu."""
    seen = 0
    states = (st for seed in (5, 6, 7, 8) for st in random_states(seed, 5, every=1))
    for state in states:
        if seen >= 5:
            break
        for d in decisions(state):
            if d.kind != "turn":
                continue
            with contextlib.suppress(panels.MenuError):
                menu = panels.menu(state, d.seat, "attack")
                assert "ties go to the defender" in menu.text
                opts = [o.description for row in menu.rows if isinstance(row, Select)
                        for o in row.options]
                # one target is a button (a select of one is never built)
                opts += [b.label for row in menu.rows if not isinstance(row, Select)
                         for b in row if b.op == "act"]
                assert opts and all(" vs " in o for o in opts)
                seen += 1
    assert seen


def test_card_choices_show_their_worth() -> None:
    """Each card in a fight or a progress phase says what it adds ("+1 here", "+2 points",
    "worth nothing now")."""
    kinds = set()
    for seed in range(3, 20):
        for state in random_states(seed, 3, every=1):
            for d in decisions(state):
                if d.kind not in ("attack_cards", "defend_cards", "progress_cards"):
                    continue
                if len(state.players[d.seat].hand) < 2:
                    continue  # one card is a button (tests/games/tempus/test_card_worth.py)
                panel = panels.secret_panel(state, d.seat)
                select = next(r for r in panel.rows if isinstance(r, Select))
                word = "here" if d.kind != "progress_cards" else "point"
                assert all(word in o.label or "worth nothing now" in o.label
                           for o in select.options), select.options[0].label
                kinds.add(d.kind)
        if len(kinds) == 3:
            break
    assert "progress_cards" in kinds and kinds & {"attack_cards", "defend_cards"}


def test_r_card_san_at_the_move_in_is_offered_from_the_occupy_panel() -> None:
    """R-CARD-SAN / R-COMBAT-8 (rules 2): after a won fight the winner may play Sanitation
    on the won hex before moving in; the turn message offers it through "Play a card…"
    (shown whatever the hand holds, so the panel does not tell what it is). Rules 1 had no
    such play, so no button."""
    from engine import actions as A
    from tests.bot.positions import won_fight
    from tests.engine.helpers import H, card

    san, edu = card("SAN", "H"), card("EDU", "G")
    state = won_fight(2, [san])
    panel = panels.public_panel(state, SEATS[:3])
    _check_limits(panel)
    assert ("menu", "cards") in [(b.op, b.arg) for b in panel.controls()
                                 if isinstance(b, Button)]
    play = A.PlaySanitation(san, H("F5"))
    assert play in legal_actions(state, 0)
    assert play in reachable(state, 0, panel)
    # a hand without Sanitation shows the same public panel (R-INFO-1)
    assert panels.public_panel(won_fight(2, [edu]), SEATS[:3]) == panel
    for old in (won_fight(1, [san]), won_fight(2, [])):
        panel = panels.public_panel(old, SEATS[:3])
        assert all(b.op != "menu" for b in panel.controls() if isinstance(b, Button))
        assert not any(isinstance(a, A.PlaySanitation) for a in reachable(old, 0, panel))


def _help_positions():  # type: ignore[no-untyped-def]
    """Positions of every decision kind: games with tile placement (the first tile has
    more than 100 places) and the hand-made combat positions."""
    from tests.bot.positions import by_kind
    for seed, players in ((1, 3), (2, 5), (4, 4)):
        yield from random_states(seed, players, random_map=False, every=2)
    for state, _ in by_kind().values():
        yield state


def test_every_turn_message_has_the_help_button() -> None:
    """The "?" button is on every turn message, with or without Undo: public
    panels leave their last row for those buttons, whatever the decision."""
    from games.controls import HELP, UNDO
    kinds: set[str] = set()
    crowded = 0
    for state in _help_positions():
        ds = decisions(state)
        if not ds:
            continue
        base = panels.public_panel(state, SEATS[: state.num_players])
        assert len(base.rows) <= panels.PUBLIC_ROWS, ds[0].kind
        for undo in (False, True):
            panel = panels.with_undo(base, "Blue") if undo else base
            panel = panels.with_help(panel)
            _check_limits(panel)
            ops = [b.op for b in panel.controls() if isinstance(b, Button)]
            assert HELP in ops, (ds[0].kind, undo)
            assert (UNDO in ops) == undo
        kinds.add(ds[0].kind)
        crowded += len(base.rows) == panels.PUBLIC_ROWS
    assert kinds == set(panels.G.HANDLERS)
    assert crowded, "no panel used all its rows: the test would not catch a full panel"


def test_a_long_hex_choice_goes_by_column_and_stays_complete() -> None:
    """The first tile may go almost anywhere (more than 100 centres): the public panel
    picks a column first, and the column menus together offer every centre."""
    from engine import actions as A
    state = next(random_states(1, 3, random_map=False))
    seat = decisions(state)[0].seat
    centres = {a.centre for a in legal_actions(state, seat) if isinstance(a, A.PlaceTile)}
    assert len(centres) > panels.PUBLIC_ROWS * MAX_OPTIONS
    panel = panels.public_panel(state, SEATS[:3])
    (select,) = [c for c in panel.controls() if isinstance(c, Select)]
    assert select.op == "menu" and select.arg == "column"
    offered: set[str] = set()
    for o in select.options:
        sub = panels.menu(state, seat, f"column:{o.value}")
        _check_limits(sub)
        offered |= {x.value for c in sub.controls() if isinstance(c, Select) for x in c.options}
    from engine.hexgrid import label
    assert offered == {label(h) for h in centres}
    for bad in ("column:tile:", "column:tile:ZZ", "column:nope:C", "column:tile:Z"):
        with contextlib.suppress(panels.MenuError):
            assert not panels.menu(state, seat, bad).controls(), bad


def test_card_target_placeholders_name_the_card_and_never_quote_the_choices() -> None:
    """A select's placeholder (Discord: at most 150 characters) says which card is played
    and, over several selects, which of the choices each holds: it never strings the
    first and last options' whole sentences together ("Play Sanitation (forest) on…
    (Play Sanitation (forest): stack limit +1 on G1–Play …)")."""
    from lang.i18n import using
    from tests.engine.helpers import card, make_state

    san, gov = card("SAN", "W"), card("GOV", "G")
    state = make_state(tokens={"C3": (0, 2), "D3": (0, 2), "E5": (1, 1)}, hands={0: [san, gov]},
                       rules_version=2)
    for lang in ("en", "pl"):
        with using(lang):
            seen = []
            for c in (san, gov):
                menu = panels.menu(state, 0, f"card:{c}")
                _check_limits(menu)
                selects = [r for r in menu.rows if isinstance(r, Select)]
                for s in selects:
                    assert len(s.placeholder) <= 150
                    assert panels.card_name(c) in s.placeholder
                    assert not any(o.label in s.placeholder for o in s.options), s.placeholder
                    seen.append(s.placeholder)
            # Sanitation's many hexes: numbered parts, each its own range
            parts = [p for p in seen if "25" in p or "26" in p]
            assert len(parts) >= 2 and len(set(parts)) == len(parts), seen


def test_no_step_left_is_never_up_to_zero() -> None:
    """A Move with every step used, kept open by a Transport card in hand, tells what can
    be done (stop, or play a card), in the prompt, the decision line, the picture's words
    and the help; never "move up to 0 more tokens" ("przesuń jeszcze najwyżej 0")."""
    from engine import actions as A
    from engine import apply
    from engine.views import view
    from games.tempus.event_text import decision_text
    from games.tempus.help_text import help_text
    from lang.i18n import using
    from render.panel import decision_text as image_decision
    from tests.engine.helpers import H, card, make_state

    tra = card("TRA", "F")
    state = make_state(tokens={"C3": (0, 2)}, hands={0: [tra]})
    state, _ = apply(state, 0, A.BeginMove())
    while state.steps_left:
        dst = next(a.dst for a in legal_actions(state, 0) if isinstance(a, A.MoveToken))
        state, _ = apply(state, 0, A.MoveToken(H("C3"), dst))
    d = decisions(state)[0]
    assert d.kind == "move" and state.steps_left == 0
    v = view(state, None)
    for lang in ("en", "pl"):
        with using(lang):
            texts = [panels.public_panel(state, SEATS[:3]).text,
                     decision_text(d, v),
                     image_decision(v, {"kind": d.kind, "seat": d.seat}, lang),
                     help_text(state, 0)]
        for text in texts:
            assert " 0 " not in text, text
    assert "play a card" in panels.public_panel(state, SEATS[:3]).text
