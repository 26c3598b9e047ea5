"""``/tempus hint``: the move the strongest computer player would make now for your seat.

The work is split so that the slow part runs off the event loop:

* :func:`think` (in a worker: ``await offloader.run(think, view, seed, budget_s)``) asks
  ``engine.ai.hint(view, seed, budget_s)``: the strongest level that fits the budget, the
  planner's steps after a Begin Move / Begin Grow, and the reasons, how the move changes
  the terms of the evaluation the computer players choose by. It returns plain JSON.
* :func:`hint_text` turns that into a short private reply in the current language: the
  move, then why: a sentence read from the position, and the reasons the evaluation gives
  (the same evaluation the move came from), named in the player's words.

Both take the seat's **view** (R-INFO): the hint can never depend on cards the player
cannot see, and the same view with the same seed always gives the same hint.
"""

from __future__ import annotations

import hashlib
import logging
import random
from typing import Any

from engine import actions as A
from engine import game as G
from engine.actions import action_from_json
from engine.ai import hint as ai_hint
from engine.ai.sampling import determinise
from engine.combat import combat_strengths
from engine.content import CONTENT
from engine.hexgrid import label
from engine.progress import new_era_index, progress_points
from engine.state import State
from engine.views import view as make_view
from games.port import Offload
from games.tempus.labels import action_label, colour_name, terrain_name
from lang.messages import decimal, join_names, join_steps, t

log = logging.getLogger(__name__)

#: seconds of search per hint; with start-up and the reply the answer comes within ~2 s
BUDGET_S = 1.5
#: the evaluation terms a hint's reasons name (engine.ai.hints; ``vp``: victory points now,
#: ``endings``: what games played to the end gave the move over the first choice)
REASON_KEYS = ("endings", "vp", "score", "board", "cities", "threat", "growth", "city_ready",
               "frontier", "cards", "actions_left", "supply", "flight", "progress_race",
               "rivals")
#: reasons named in one reply, largest first
MAX_REASONS = 3
#: the options key a host sets to switch hints off (default on)
OPTION = "hints"


def seed_for(game_seed: object, version: int, seat: int) -> int:
    """A hint's seed: fixed for one position (asking twice gives the same answer) and
    one-way, so nothing about the game's seed (hence the deck order) reaches the search."""
    digest = hashlib.sha256(f"tempus-hint:{game_seed}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % 2**31


def think(view: dict[str, Any], seed: int, budget_s: float | None = BUDGET_S,
          iterations: int | None = None) -> dict[str, Any]:
    """The strongest computer player's choice for ``view["seat"]`` (run it in a worker).

    Returns ``{"action", "level", "reasons": [{"key", "value"}], "plan", "candidates",
    "rollouts", "legal"}`` (JSON, :meth:`engine.ai.hints.Hint.to_json`)."""
    return ai_hint(view, seed, budget_s, iterations=iterations).to_json()


# ------------------------------------------------------------------ words
def hint_text(view: dict[str, Any], result: dict[str, Any]) -> str:
    """The private reply for a :func:`think` result, in the current language."""
    seat = int(view["seat"])
    action = action_from_json(result["action"])
    plan = [action_from_json(a) for a in result.get("plan", ())]
    lines = [t("hint.title", action=action_label(action))]
    shown = [a for a in plan if not isinstance(a, A.EndMove | A.EndGrow)]
    if shown:
        lines.append(t("hint.plan", steps=join_steps([action_label(a) for a in shown])))
    state = determinise(view, random.Random(0))
    why = [why_text(state, seat, action, plan)]
    if result.get("legal", 2) <= 1:
        why.append(t("hint.only"))
    elif result.get("candidates", 0) > 1:
        why.append(t("hint.search", n=result["candidates"], rollouts=result["rollouts"]))
    else:
        why.append(t("hint.planner"))
    reasons = reasons_text(result.get("reasons", ()))
    if reasons:
        why.append(reasons)
    lines.append(" ".join(why))
    lines.append(t("hint.footer"))
    return "\n".join(lines)


def reasons_text(reasons: Any) -> str:
    """The evaluation's reasons (``[{"key", "value"}]``, VP units, largest first) as one
    sentence in a player's words: what speaks for the move and what against it, each with
    what it is worth ("presence on the board (about 1.4 victory points)"); a key this
    version has no words for is left out."""
    shown = [r for r in reasons if r.get("key") in REASON_KEYS][:MAX_REASONS]

    def items(rs: list[dict[str, Any]]) -> str:
        return join_names([t("hint.reason.item", what=t(f"hint.reason.{r['key']}"),
                             value=decimal(abs(r["value"]))) for r in rs])

    pro = [r for r in shown if r["value"] > 0]
    con = [r for r in shown if r["value"] < 0]
    parts = ([t("hint.reasons.for", items=items(pro))] if pro else []) + \
        ([t("hint.reasons.against", items=items(con))] if con else [])
    return t("hint.reasons", reasons="; ".join(parts)) if parts else ""


def why_text(state: State, seat: int, action: A.Action, plan: list[A.Action]) -> str:
    """One sentence on why ``action`` (and its planned steps) is good, from the seat's own
    knowledge (``state`` is a determinisation of its view)."""
    a = action
    if isinstance(a, A.BeginMove | A.MoveToken):
        moves = [x for x in [a, *plan] if isinstance(x, A.MoveToken)]
        return _why_move(state, seat, moves)
    if isinstance(a, A.BeginGrow | A.GrowToken):
        sites = {h for h, o in enumerate(state.owner)
                 if o == seat and state.terrain[h] == "G"
                 and state.count[h] < state.stack_limit(seat, h)}
        return t("hint.why.grow", n=len(sites))
    if isinstance(a, A.EndMove):
        return t("hint.why.end_move")
    if isinstance(a, A.EndGrow):
        return t("hint.why.end_grow")
    if isinstance(a, A.DrawCards):
        return t("hint.why.draw", terrain=terrain_name(_next_terrain(state)),
                 hand=len(state.players[seat].hand), limit=state.era(seat).limit)
    if isinstance(a, A.BuildCity):
        return t("hint.why.city", value=a.value, n=state.count[a.hex])
    if isinstance(a, A.Attack):
        dfn = state.city_value[a.dst] if state.city_owner[a.dst] >= 0 else state.count[a.dst]
        text = t("hint.why.attack", att=state.count[a.src], dfn=dfn, dst=label(a.dst))
        return f"{text} {t('hint.why.attack_leader')}" if a.leader is not None else text
    if isinstance(a, A.EndTurn):
        return t("hint.why.end_turn")
    if isinstance(a, A.PlayGovernment):
        return t(f"hint.why.card.GOV.{a.mode}")
    if isinstance(a, A.PlaySanitation):
        return t("hint.why.card.SAN", hex=label(a.hex))
    if isinstance(a, A.PlayTransport | A.PlayHealthCare | A.PlayReligion):
        return t(f"hint.why.card.{CONTENT.cards[a.card].type}")
    if isinstance(a, A.CommitAttackCards):
        if not a.cards:
            return t("hint.why.attack_cards_none")
        att, dfn = combat_strengths(state, list(a.cards), [])
        return t("hint.why.attack_cards", att=att, dfn=dfn)
    if isinstance(a, A.DefendCards):
        if not a.cards:
            return t("hint.why.defend_none")
        c = state.combat
        assert c is not None and c.attack_cards is not None
        att, dfn = combat_strengths(state, [], list(a.cards))
        return t("hint.why.defend_cards", att=att, dfn=dfn, n=len(c.attack_cards))
    if isinstance(a, A.NameCityTerrain):
        n = sum(1 for c in state.players[seat].hand if CONTENT.cards[c].terrain == a.terrain)
        return t("hint.why.city_terrain", n=n)
    if isinstance(a, A.Occupy):
        c = state.combat
        assert c is not None
        return t("hint.why.occupy", n=a.count, left=state.count[c.src] - a.count,
                 src=label(c.src))
    if isinstance(a, A.Discard):
        return t("hint.why.discard")
    if isinstance(a, A.ProgressCards):
        if not a.cards:
            return t("hint.why.progress_none")
        points = progress_points(state, seat, list(a.cards), new_era_index(state))
        return t("hint.why.progress", points=points)
    if isinstance(a, A.PlaceTile):
        return t("hint.why.tile")
    if isinstance(a, A.PlaceStartToken):
        terrain = state.terrain[a.hex]
        first = CONTENT.eras[1].terrain
        if terrain == "G":
            return t("hint.why.start_grass")
        if terrain == first:
            return t("hint.why.start_terrain", terrain=terrain_name(first))
        return t("hint.why.start")
    return t("hint.why.move")


def _next_terrain(state: State) -> str | None:
    return CONTENT.eras[min(new_era_index(state), CONTENT.flight)].terrain


def _why_move(state: State, seat: int, moves: list[A.MoveToken]) -> str:
    terrain = _next_terrain(state)
    if any(state.terrain[m.dst] == terrain for m in moves):
        return t("hint.why.move_terrain", terrain=terrain_name(terrain))
    if any(state.terrain[m.dst] == "G" and state.owner[m.dst] != seat for m in moves):
        return t("hint.why.move_grass")
    fresh = {m.dst for m in moves if state.owner[m.dst] < 0 and state.terrain[m.dst] != "M"}
    if fresh:
        return t("hint.why.move_spread", n=len(fresh))
    return t("hint.why.move")


# ------------------------------------------------------------------ the command
async def hint_for_user(table: Any, user_id: int, offloader: Offload,
                        budget_s: float = BUDGET_S) -> str:
    """``/tempus hint`` for ``user_id`` at a table of :class:`bot.table.service.TableService`
    (the search runs in ``offloader``, the computer players' workers)."""
    state = table.state
    seat = table.seat_of(user_id)
    if state is None:  # "take a seat" only to who has none
        return t("help.lobby" if seat is None else "help.lobby_seated", game=table.id)
    if seat is None:
        return t("hint.spectator", game=table.id)
    if table.seats[seat].left:  # a computer plays it now: its hand is nobody's to see
        return t("error.left", game=table.id, colour=colour_name(seat))
    if not table.game.options.get(OPTION, True):
        return t("hint.off")
    if G.decision_for(state, seat) is None:
        return t("hint.none")
    v = make_view(state, seat)
    seed = seed_for(table.game.options.get("seed"), table.version, seat)
    try:
        result = await offloader.run(think, v, seed, budget_s)
    except Exception:
        log.exception("game %s: a hint for seat %s failed", table.id, seat)
        return t("hint.failed")
    return hint_text(v, result)
