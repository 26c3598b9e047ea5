"""R-INFO-1 on the bot's side of rules 4: after a player's last action with cards in hand,
none of them playable, the turn waits for them. The public turn message offers "End turn"
and "Play a card…" (a hand's size is public, whether a card can be played is not), the
private card menu says quietly that nothing can be played and offers "End turn" instead,
and the table does not answer "End turn" for them (the public view cannot tell that it is
their only answer)."""

from __future__ import annotations

from bot.store import ACTIVE
from bot.store.rows import GameRow
from bot.table.forced import forced_action, forced_step
from bot.table.model import Table
from engine import actions as A
from engine import apply
from engine.game import TURN, decision_for
from engine.legal import legal_actions
from engine.rules import RULES_VERSION
from engine.state import State
from games.controls import ACT, MENU, Button
from games.tempus import panels
from games.tempus.codec import encode_action
from lang.i18n import using
from lang.messages import t
from tests.engine.helpers import H, card, make_state
from tests.games.tempus.test_panels import SEATS

EDUCATION = card("EDU", "W")  # never played for an effect in the action phase


def _after_last_action(rules_version: int = RULES_VERSION) -> State:
    """Red moves her token E5 -> F5, her one action, with Education in hand."""
    s = make_state(3, tokens={"E5": (0, 1), "K10": (1, 1), "C10": (2, 1)},
                   hands={0: [EDUCATION]}, markers=1, rules_version=rules_version)
    for action in (A.BeginMove(), A.MoveToken(H("E5"), H("F5"))):
        s, _ = apply(s, 0, action)
    if s.stage == "move":  # rules 5 (R-INFO-4): she ends the Move herself
        s, _ = apply(s, 0, A.EndMove())
    return s


def test_the_turn_waits_and_offers_end_turn_and_the_cards_menu() -> None:
    s = _after_last_action()
    d = decision_for(s, 0)
    assert s.turn == 0 and d is not None and d.kind == TURN
    assert legal_actions(s, 0) == [A.EndTurn()], "no card can be played: one real answer"
    # rules 3 ended the turn by itself here, which told the table what the hand lacks
    assert _after_last_action(rules_version=3).turn == 1
    with using("en"):
        panel = panels.public_panel(s, SEATS[:3])
        buttons = [b for b in panel.controls() if isinstance(b, Button)]
        assert (ACT, encode_action(A.EndTurn())) in [(b.op, b.arg) for b in buttons]
        assert (MENU, "cards") in [(b.op, b.arg) for b in buttons]
        private = panels.menu(s, 0, "cards")
        assert t("menu.no_card_play") in private.text
        offered = [(c.op, c.arg) for c in private.controls() if isinstance(c, Button)]
        assert (ACT, encode_action(A.EndTurn())) in offered


def test_the_table_does_not_end_a_turn_for_a_hand_that_holds_cards() -> None:
    s = _after_last_action()
    game = GameRow(1, 1, 10, SEATS[0].user_id or 0, ACTIVE, {}, 1, None, None)
    table = Table(game, list(SEATS[:3]), state=s)
    assert forced_action(table, 0) is None and forced_step(table) is None
