"""Playing Tempus by command in ``/tempus``: ``play`` (every legal choice) and the
shortcuts ``move``, ``grow``, ``attack``, ``city``, ``place``.

Options that name hexes, cards or choices autocomplete **only legal** values for the
player typing, computed from the engine's legal actions.

The front end's Tempus part: these commands name Tempus's actions and hexes, so this is
the one module of ``bot/client`` that imports the game (``engine``, ``games.tempus``);
everything else reaches a game through the port (games/port.py), as the import contracts
in ``pyproject.toml`` hold it to.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.client.commands.base import MAX_CHOICES, Choice, CommandCog, filtered
from bot.client.translator import ls
from bot.table.service import TableError
from engine import actions as A
from engine.hexgrid import label, parse_label
from games.controls import shown
from games.tempus.codec import decode_action, encode_action
from games.tempus.labels import action_label, names_an_action
from lang.messages import t

log = logging.getLogger(__name__)

#: words ``/tempus play`` takes for the choices that need no detail (kept as words of
#: ``play`` rather than commands of their own: they need no option)
PLAY_WORDS: dict[str, type | tuple[type, ...]] = {
    "draw": A.DrawCards,
    "end": (A.EndTurn, A.EndMove, A.EndGrow),
}


def _play_word(text: str) -> str | None:
    """The :data:`PLAY_WORDS` key ``text`` names, in English or in the user's language
    (``play.word.draw``: "dobierz" in Polish)."""
    wanted = text.strip().lower()
    for word in PLAY_WORDS:
        if wanted in (word, t(f"play.word.{word}").lower()):
            return word
    return None


#: how many of the choices possible now a refused choice lists (the option suggests all)
ALLOWED_SHOWN = 5


def hex_or_none(text: str | None) -> int | None:
    """The hex a typed label names (``C4``), None if none."""
    try:
        return parse_label(text or "")
    except ValueError:
        return None


def allowed_now(legal: list[A.Action]) -> str:
    """Some of the choices possible now, and where to find every one of them."""
    shown_labels = [action_label(a) for a in legal[:ALLOWED_SHOWN]]
    more = "; …" if len(legal) > ALLOWED_SHOWN else ""
    return t("error.choice_not_now.some", choices="; ".join(shown_labels) + more,
             option=t("cmd.play.choice.name"))


class PlayCommands(CommandCog):
    async def _act(self, interaction: discord.Interaction[Any], actions: list[A.Action]) -> str:
        game = await self._game(interaction)
        if len(actions) == 1:
            await self.service.act(game, interaction.user.id, actions[0])
        else:
            await self.service.act_many(game, interaction.user.id, actions)
        return t("ack.done", what=action_label(actions[-1]))

    async def _legal(self, interaction: discord.Interaction[Any],
                     prefix: list[A.Action] | None = None) -> list[A.Action]:
        try:
            game = await self._game(interaction)
            return await self.service.play.legal(game, interaction.user.id, prefix or [])
        except TableError:
            return []
        except Exception:
            log.exception("autocomplete failed in channel %s", interaction.channel_id)
            return []

    async def _prefix(self, interaction: discord.Interaction[Any], begin: A.Action
                      ) -> list[A.Action]:
        """``[begin]`` if the player must still start that action (Move/Growth), else []."""
        legal = await self._legal(interaction)
        return [begin] if any(type(a) is type(begin) for a in legal) else []

    @app_commands.command(name=ls("cmd.play.name"), description=ls("cmd.play"))
    @app_commands.rename(choice=ls("cmd.play.choice.name"))
    @app_commands.describe(choice=ls("cmd.play.choice"))
    async def play(self, interaction: discord.Interaction[Any], choice: str) -> None:
        async def work() -> str:
            return await self._act(interaction, [await self._decode(interaction, choice)])
        await self._run(interaction, work)

    async def _decode(self, interaction: discord.Interaction[Any], text: str) -> A.Action:
        try:
            return decode_action(text)
        except ValueError:
            pass
        wanted = text.strip().lower()
        legal = await self._legal(interaction)
        word = _play_word(text)
        if word is not None:  # "draw", "end": the shortcuts for the Idea action and ends
            kinds = PLAY_WORDS[word]
            found = [a for a in legal if isinstance(a, kinds)]
            if found:
                return found[0]
            # not possible now: the table's refusal says why (whose turn it is, or what is
            # owed instead), which "nothing of that kind" did not
            first = kinds[0] if isinstance(kinds, tuple) else kinds
            action: A.Action = first()
            return action
        for a in legal:
            if action_label(a).lower() == wanted:
                return a
        if names_an_action(text):  # a choice of the game, but not one possible now
            if not legal:  # not their decision: why (whose turn it is ...), if known
                game = await self._game(interaction)  # no game here says so rather
                why = await self.service.why_not_deciding(game, interaction.user.id)
                raise TableError("error.choice_not_now", choice=shown(text),
                                 allowed=str(why) if why is not None
                                 else t("error.choice_not_now.none"))
            raise TableError("error.choice_not_now", choice=shown(text),
                             allowed=allowed_now(legal))
        raise TableError("error.bad_choice", reason=shown(text))

    @play.autocomplete("choice")
    async def _play_ac(self, interaction: discord.Interaction[Any], current: str
                       ) -> list[Choice[str]]:
        acts = await self._legal(interaction)
        return filtered([(action_label(a), encode_action(a)) for a in acts], current)

    @app_commands.command(name=ls("cmd.move.name"), description=ls("cmd.move"))
    @app_commands.rename(src=ls("cmd.move.from.name"), dst=ls("cmd.move.to.name"))
    @app_commands.describe(src=ls("cmd.move.from"), dst=ls("cmd.move.to"))
    async def move(self, interaction: discord.Interaction[Any], src: str, dst: str) -> None:
        async def work() -> str:
            a, b = hex_or_none(src), hex_or_none(dst)
            if a is None or b is None:
                raise TableError("error.bad_choice", reason=shown(f"{src} → {dst}"))
            prefix = await self._prefix(interaction, A.BeginMove())
            return await self._act(interaction, [*prefix, A.MoveToken(a, b)])
        await self._run(interaction, work)

    async def _moves(self, interaction: discord.Interaction[Any]) -> list[A.MoveToken]:
        prefix = await self._prefix(interaction, A.BeginMove())
        return [a for a in await self._legal(interaction, prefix) if isinstance(a, A.MoveToken)]

    @move.autocomplete("src")
    async def _move_src_ac(self, interaction: discord.Interaction[Any], current: str
                           ) -> list[Choice[str]]:
        srcs = sorted({label(a.src) for a in await self._moves(interaction)})
        return filtered([(s, s) for s in srcs], current)

    @move.autocomplete("dst")
    async def _move_dst_ac(self, interaction: discord.Interaction[Any], current: str
                           ) -> list[Choice[str]]:
        src = hex_or_none(getattr(interaction.namespace, "from", None))
        dsts = sorted({label(a.dst) for a in await self._moves(interaction)
                       if src is None or a.src == src})
        return filtered([(d, d) for d in dsts], current)

    @app_commands.command(name=ls("cmd.grow.name"), description=ls("cmd.grow"))
    @app_commands.rename(hex=ls("cmd.grow.hex.name"))
    @app_commands.describe(hex=ls("cmd.grow.hex"))
    async def grow(self, interaction: discord.Interaction[Any], hex: str) -> None:  # noqa: A002
        async def work() -> str:
            h = hex_or_none(hex)
            if h is None:
                raise TableError("error.bad_choice", reason=shown(hex))
            prefix = await self._prefix(interaction, A.BeginGrow())
            return await self._act(interaction, [*prefix, A.GrowToken(h)])
        await self._run(interaction, work)

    @grow.autocomplete("hex")
    async def _grow_ac(self, interaction: discord.Interaction[Any], current: str
                       ) -> list[Choice[str]]:
        prefix = await self._prefix(interaction, A.BeginGrow())
        hexes = sorted({label(a.hex) for a in await self._legal(interaction, prefix)
                        if isinstance(a, A.GrowToken)})
        return filtered([(h, h) for h in hexes], current)

    @app_commands.command(name=ls("cmd.attack.name"), description=ls("cmd.attack"))
    @app_commands.rename(src=ls("cmd.attack.from.name"), dst=ls("cmd.attack.to.name"))
    @app_commands.describe(src=ls("cmd.attack.from"), dst=ls("cmd.attack.to"))
    async def attack(self, interaction: discord.Interaction[Any], src: str, dst: str) -> None:
        async def work() -> str:
            a, b = hex_or_none(src), hex_or_none(dst)
            if a is None or b is None:
                raise TableError("error.bad_choice", reason=shown(f"{src} → {dst}"))
            return await self._act(interaction, [A.Attack(a, b)])
        await self._run(interaction, work)

    async def _attacks(self, interaction: discord.Interaction[Any]) -> list[A.Attack]:
        return [a for a in await self._legal(interaction)
                if isinstance(a, A.Attack) and a.leader is None]

    @attack.autocomplete("src")
    async def _attack_src_ac(self, interaction: discord.Interaction[Any], current: str
                             ) -> list[Choice[str]]:
        srcs = sorted({label(a.src) for a in await self._attacks(interaction)})
        return filtered([(s, s) for s in srcs], current)

    @attack.autocomplete("dst")
    async def _attack_dst_ac(self, interaction: discord.Interaction[Any], current: str
                             ) -> list[Choice[str]]:
        src = hex_or_none(getattr(interaction.namespace, "from", None))
        dsts = sorted({label(a.dst) for a in await self._attacks(interaction)
                       if src is None or a.src == src})
        return filtered([(d, d) for d in dsts], current)

    @app_commands.command(name=ls("cmd.city.name"), description=ls("cmd.city"))
    @app_commands.rename(hex=ls("cmd.city.hex.name"), value=ls("cmd.city.value.name"))
    @app_commands.describe(hex=ls("cmd.city.hex"), value=ls("cmd.city.value"))
    async def city(self, interaction: discord.Interaction[Any], hex: str,  # noqa: A002
                   value: int) -> None:
        async def work() -> str:
            h = hex_or_none(hex)
            if h is None:
                raise TableError("error.bad_choice", reason=shown(hex))
            return await self._act(interaction, [A.BuildCity(h, value)])
        await self._run(interaction, work)

    @city.autocomplete("hex")
    async def _city_hex_ac(self, interaction: discord.Interaction[Any], current: str
                           ) -> list[Choice[str]]:
        hexes = sorted({label(a.hex) for a in await self._legal(interaction)
                        if isinstance(a, A.BuildCity)})
        return filtered([(h, h) for h in hexes], current)

    @city.autocomplete("value")
    async def _city_value_ac(self, interaction: discord.Interaction[Any], current: str
                             ) -> list[Choice[int]]:
        h = hex_or_none(getattr(interaction.namespace, "hex", None))
        values = sorted({a.value for a in await self._legal(interaction)
                         if isinstance(a, A.BuildCity) and (h is None or a.hex == h)})
        return [Choice(name=str(v), value=v) for v in values][:MAX_CHOICES]

    @app_commands.command(name=ls("cmd.place.name"), description=ls("cmd.place"))
    @app_commands.rename(hex=ls("cmd.place.hex.name"), rotation=ls("cmd.place.rotation.name"))
    @app_commands.describe(hex=ls("cmd.place.hex"), rotation=ls("cmd.place.rotation"))
    async def place(self, interaction: discord.Interaction[Any], hex: str,  # noqa: A002
                    rotation: app_commands.Range[int, 0, 5] = 0) -> None:
        """Setup: the current map tile while tiles are placed, else a starting token (one
        command for both: the player never has to tell them apart)."""
        async def work() -> str:
            h = hex_or_none(hex)
            if h is None:
                raise TableError("error.bad_choice", reason=shown(hex))
            legal = await self._legal(interaction)
            if any(isinstance(a, A.PlaceTile) for a in legal):
                return await self._act(interaction, [A.PlaceTile(h, rotation)])
            return await self._act(interaction, [A.PlaceStartToken(h)])
        await self._run(interaction, work)

    @place.autocomplete("hex")
    async def _place_ac(self, interaction: discord.Interaction[Any], current: str
                        ) -> list[Choice[str]]:
        legal = await self._legal(interaction)
        hexes = sorted({label(a.centre) for a in legal if isinstance(a, A.PlaceTile)}
                       | {label(a.hex) for a in legal if isinstance(a, A.PlaceStartToken)})
        return filtered([(h, h) for h in hexes], current)
