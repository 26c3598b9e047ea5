"""The ``/tempus`` slash commands. Each one defers at once (privately), then asks the table
service; results are announced in the channel by the publisher, refusals are private.

Options that name hexes, cards or choices autocomplete **only legal** values for the
player typing, computed from the engine's legal actions.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from engine import actions as A
from engine.hexgrid import label, parse_label

from . import options, players
from .codec import decode_action, encode_action
from .commands_after import AfterCommands
from .labels import action_label
from .messages import RULE_TOPICS, t
from .panels import CARD_PLAYS
from .table import TableError

if TYPE_CHECKING:
    from .app import TempusBot

log = logging.getLogger(__name__)

Choice = app_commands.Choice
MAX_CHOICES = 25


def _filter(items: list[tuple[str, str]], current: str) -> list[Choice[str]]:
    cur = current.strip().lower()
    out = [Choice(name=n[:100], value=v[:100]) for n, v in items
           if not cur or cur in n.lower() or cur == v.lower()]
    return out[:MAX_CHOICES]


def _hex_or_none(text: str | None) -> int | None:
    try:
        return parse_label(text or "")
    except ValueError:
        return None


class BadOption(app_commands.CheckFailure):
    """An option value outside what the command declares; the message is for the user."""


@app_commands.guild_only()  # a game needs a server channel: not offered in DMs
class TempusCog(AfterCommands, commands.GroupCog, group_name="tempus",
                group_description=t("cmd.group")):
    """``/tempus``; board, status, history, show and stats come from AfterCommands."""

    def __init__(self, bot: TempusBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> Any:
        assert self.bot.service is not None
        return self.bot.service

    # ------------------------------------------------------------------ bad input (issue 16)
    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Refuse option values no Discord client sends (outside the declared choices,
        range or type) before the command runs."""
        command = interaction.command
        if isinstance(command, app_commands.Command):
            problem = options.refusal(command, interaction.namespace)
            if problem is not None:
                raise BadOption(problem)
        return True

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        """A command that could not run: a private refusal, never Python text."""
        if isinstance(error, BadOption):
            text = str(error)
        elif isinstance(error, app_commands.CommandInvokeError):
            log.error("/tempus %s failed", getattr(interaction.command, "name", "?"),
                      exc_info=error.original)
            text = t("error.internal")
        else:  # an option discord.py could not convert (an unknown user ...)
            text = t("error.bad_command")
        if interaction.response.is_done():
            return  # already answered (the handler may be reached twice for a group cog)
        try:
            await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not refuse /%s", interaction.command)

    # ------------------------------------------------------------------ plumbing
    async def _run(self, interaction: discord.Interaction[Any],
                   work: Callable[[], Awaitable[str | None]]) -> None:
        """Defer privately, run ``work``, reply with its text or the refusal."""
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException:
            log.warning("could not acknowledge /%s in time", interaction.command)
            return
        try:
            text = await work()
        except TableError as exc:
            text = str(exc)
        except Exception:
            log.exception("/tempus %s in channel %s failed",
                          getattr(interaction.command, "name", "?"), interaction.channel_id)
            text = t("error.internal")
        if text:
            try:
                await interaction.followup.send(text, ephemeral=True)
            except discord.HTTPException:
                log.warning("could not reply to /%s", interaction.command)

    async def _game(self, interaction: discord.Interaction[Any]) -> int:
        if interaction.channel_id is None:
            raise TableError("error.no_game")
        return await self.service.channel_game_id(interaction.channel_id)

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
            return await self.service.legal(game, interaction.user.id, prefix or [])
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

    # ------------------------------------------------------------------ lobby
    @app_commands.command(name="new", description=t("cmd.new"))
    @app_commands.describe(seats=t("cmd.new.seats"), map=t("cmd.new.map"),
                           city_protects=t("cmd.new.city_protects"))
    async def new(self, interaction: discord.Interaction[Any],
                  seats: app_commands.Range[int, 3, 5] = 5,
                  map: Literal["random", "place"] = "random",  # noqa: A002
                  city_protects: bool = False) -> None:
        async def work() -> str:
            if interaction.channel_id is None or interaction.guild_id is None:
                raise TableError("error.guild_only")
            o = await self.service.create(interaction.guild_id, interaction.channel_id,
                                          interaction.user.id, interaction.user.display_name,
                                          seats=seats, random_map=map == "random",
                                          protection_counts_cities=city_protects,
                                          in_thread=isinstance(interaction.channel,
                                                               discord.Thread))
            return t("lobby.created", game=o.game_id)
        await self._run(interaction, work)

    @app_commands.command(name="join", description=t("cmd.join"))
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            await self.service.join(game, interaction.user.id, interaction.user.display_name)
            return t("lobby.joined", name=interaction.user.display_name, game=game)
        await self._run(interaction, work)

    @app_commands.command(name="leave", description=t("cmd.leave"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            await self.service.leave(game, interaction.user.id)
            return t("lobby.left", name=interaction.user.display_name, game=game)
        await self._run(interaction, work)

    @app_commands.command(name="addbot", description=t("cmd.addbot"))
    @app_commands.describe(level=t("cmd.addbot.level"))
    async def addbot(self, interaction: discord.Interaction[Any],
                     level: str | None = None) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            o = await self.service.add_ai(game, interaction.user.id, level)
            return o.lines[0]
        await self._run(interaction, work)

    @addbot.autocomplete("level")
    async def _level_ac(self, interaction: discord.Interaction[Any], current: str
                        ) -> list[Choice[str]]:
        return _filter([(lv, lv) for lv in players.levels()], current)

    @app_commands.command(name="removebot", description=t("cmd.removebot"))
    async def removebot(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            o = await self.service.remove_ai(game, interaction.user.id)
            return o.lines[0]
        await self._run(interaction, work)

    @app_commands.command(name="autopilot", description=t("cmd.autopilot"))
    @app_commands.describe(on=t("cmd.autopilot.on"), player=t("cmd.autopilot.player"),
                           level=t("cmd.addbot.level"))
    async def autopilot(self, interaction: discord.Interaction[Any], on: bool = True,
                        player: discord.User | None = None, level: str | None = None) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            perms = interaction.permissions
            o = await self.service.autopilot(
                game, interaction.user.id, player.id if player else None, on, level,
                can_manage=bool(perms and perms.manage_channels))
            return o.lines[0]
        await self._run(interaction, work)

    @autopilot.autocomplete("level")
    async def _autopilot_level_ac(self, interaction: discord.Interaction[Any], current: str
                                  ) -> list[Choice[str]]:
        return _filter([(lv, lv) for lv in players.levels()], current)

    @app_commands.command(name="start", description=t("cmd.start"))
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            await self.service.start(game, interaction.user.id)
            return t("lobby.started", game=game)
        await self._run(interaction, work)

    @app_commands.command(name="cancel", description=t("cmd.cancel"))
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            perms = interaction.permissions
            await self.service.cancel(game, interaction.user.id,
                                      can_manage=bool(perms and perms.manage_channels))
            return t("lobby.cancelled", game=game, user=interaction.user.id)
        await self._run(interaction, work)

    # ------------------------------------------------------------------ looking
    @app_commands.command(name="hand", description=t("cmd.hand"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            game = await self._game(interaction)
            panel, version = await self.service.menu(game, interaction.user.id, "hand")
            await self.bot.show_panel(interaction, panel, game, version)
        await self._run(interaction, work)

    @app_commands.command(name="rules", description=t("cmd.rules"))
    @app_commands.describe(topic=t("cmd.rules.topic"))
    @app_commands.choices(topic=[Choice(name=x, value=x) for x in RULE_TOPICS])
    async def rules(self, interaction: discord.Interaction[Any],
                    topic: str = "overview") -> None:
        async def work() -> str:
            if topic not in RULE_TOPICS:
                raise TableError("error.bad_topic", topic=topic[:40],
                                 topics=", ".join(RULE_TOPICS))
            return "\n\n".join([t(f"rules.{topic}"),
                                t("rules.topics", topics=", ".join(RULE_TOPICS))])
        await self._run(interaction, work)

    # ------------------------------------------------------------------ playing
    @app_commands.command(name="play", description=t("cmd.play"))
    @app_commands.describe(choice=t("cmd.play.choice"))
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
        for a in await self._legal(interaction):
            if action_label(a).lower() == wanted:
                return a
        raise TableError("error.bad_choice", reason=text[:50])

    @play.autocomplete("choice")
    async def _play_ac(self, interaction: discord.Interaction[Any], current: str
                       ) -> list[Choice[str]]:
        acts = await self._legal(interaction)
        return _filter([(action_label(a), encode_action(a)) for a in acts], current)

    @app_commands.command(name="move", description=t("cmd.move"))
    @app_commands.rename(src="from", dst="to")
    @app_commands.describe(src=t("cmd.move.from"), dst=t("cmd.move.to"))
    async def move(self, interaction: discord.Interaction[Any], src: str, dst: str) -> None:
        async def work() -> str:
            a, b = _hex_or_none(src), _hex_or_none(dst)
            if a is None or b is None:
                raise TableError("error.bad_choice", reason=f"{src} → {dst}")
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
        return _filter([(s, s) for s in srcs], current)

    @move.autocomplete("dst")
    async def _move_dst_ac(self, interaction: discord.Interaction[Any], current: str
                           ) -> list[Choice[str]]:
        src = _hex_or_none(getattr(interaction.namespace, "from", None))
        dsts = sorted({label(a.dst) for a in await self._moves(interaction)
                       if src is None or a.src == src})
        return _filter([(d, d) for d in dsts], current)

    @app_commands.command(name="grow", description=t("cmd.grow"))
    @app_commands.describe(hex=t("cmd.hex"))
    async def grow(self, interaction: discord.Interaction[Any], hex: str) -> None:  # noqa: A002
        async def work() -> str:
            h = _hex_or_none(hex)
            if h is None:
                raise TableError("error.bad_choice", reason=hex)
            prefix = await self._prefix(interaction, A.BeginGrow())
            return await self._act(interaction, [*prefix, A.GrowToken(h)])
        await self._run(interaction, work)

    @grow.autocomplete("hex")
    async def _grow_ac(self, interaction: discord.Interaction[Any], current: str
                       ) -> list[Choice[str]]:
        prefix = await self._prefix(interaction, A.BeginGrow())
        hexes = sorted({label(a.hex) for a in await self._legal(interaction, prefix)
                        if isinstance(a, A.GrowToken)})
        return _filter([(h, h) for h in hexes], current)

    @app_commands.command(name="attack", description=t("cmd.attack"))
    @app_commands.rename(src="from", dst="to")
    @app_commands.describe(src=t("cmd.attack.from"), dst=t("cmd.attack.to"))
    async def attack(self, interaction: discord.Interaction[Any], src: str, dst: str) -> None:
        async def work() -> str:
            a, b = _hex_or_none(src), _hex_or_none(dst)
            if a is None or b is None:
                raise TableError("error.bad_choice", reason=f"{src} → {dst}")
            return await self._act(interaction, [A.Attack(a, b)])
        await self._run(interaction, work)

    async def _attacks(self, interaction: discord.Interaction[Any]) -> list[A.Attack]:
        return [a for a in await self._legal(interaction)
                if isinstance(a, A.Attack) and a.leader is None]

    @attack.autocomplete("src")
    async def _attack_src_ac(self, interaction: discord.Interaction[Any], current: str
                             ) -> list[Choice[str]]:
        srcs = sorted({label(a.src) for a in await self._attacks(interaction)})
        return _filter([(s, s) for s in srcs], current)

    @attack.autocomplete("dst")
    async def _attack_dst_ac(self, interaction: discord.Interaction[Any], current: str
                             ) -> list[Choice[str]]:
        src = _hex_or_none(getattr(interaction.namespace, "from", None))
        dsts = sorted({label(a.dst) for a in await self._attacks(interaction)
                       if src is None or a.src == src})
        return _filter([(d, d) for d in dsts], current)

    @app_commands.command(name="city", description=t("cmd.city"))
    @app_commands.describe(hex=t("cmd.hex"), value=t("cmd.city.value"))
    async def city(self, interaction: discord.Interaction[Any], hex: str,  # noqa: A002
                   value: int) -> None:
        async def work() -> str:
            h = _hex_or_none(hex)
            if h is None:
                raise TableError("error.bad_choice", reason=hex)
            return await self._act(interaction, [A.BuildCity(h, value)])
        await self._run(interaction, work)

    @city.autocomplete("hex")
    async def _city_hex_ac(self, interaction: discord.Interaction[Any], current: str
                           ) -> list[Choice[str]]:
        hexes = sorted({label(a.hex) for a in await self._legal(interaction)
                        if isinstance(a, A.BuildCity)})
        return _filter([(h, h) for h in hexes], current)

    @city.autocomplete("value")
    async def _city_value_ac(self, interaction: discord.Interaction[Any], current: str
                             ) -> list[Choice[int]]:
        h = _hex_or_none(getattr(interaction.namespace, "hex", None))
        values = sorted({a.value for a in await self._legal(interaction)
                         if isinstance(a, A.BuildCity) and (h is None or a.hex == h)})
        return [Choice(name=str(v), value=v) for v in values][:MAX_CHOICES]

    @app_commands.command(name="draw", description=t("cmd.draw"))
    async def draw(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            return await self._act(interaction, [A.DrawCards()])
        await self._run(interaction, work)

    @app_commands.command(name="card", description=t("cmd.card"))
    @app_commands.describe(choice=t("cmd.card.choice"))
    async def card(self, interaction: discord.Interaction[Any], choice: str) -> None:
        async def work() -> str:
            return await self._act(interaction, [await self._decode(interaction, choice)])
        await self._run(interaction, work)

    @card.autocomplete("choice")
    async def _card_ac(self, interaction: discord.Interaction[Any], current: str
                       ) -> list[Choice[str]]:
        acts = [a for a in await self._legal(interaction) if isinstance(a, CARD_PLAYS)
                or (isinstance(a, A.Attack) and a.leader is not None)]
        return _filter([(action_label(a), encode_action(a)) for a in acts], current)

    @app_commands.command(name="end", description=t("cmd.end"))
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            ends = [a for a in await self._legal(interaction)
                    if isinstance(a, A.EndTurn | A.EndMove | A.EndGrow)]
            if not ends:
                raise TableError("error.no_options")
            return await self._act(interaction, ends[:1])
        await self._run(interaction, work)

    @app_commands.command(name="tile", description=t("cmd.tile"))
    @app_commands.describe(hex=t("cmd.hex"), rotation=t("cmd.tile.rotation"))
    async def tile(self, interaction: discord.Interaction[Any], hex: str,  # noqa: A002
                   rotation: app_commands.Range[int, 0, 5] = 0) -> None:
        async def work() -> str:
            h = _hex_or_none(hex)
            if h is None:
                raise TableError("error.bad_choice", reason=hex)
            return await self._act(interaction, [A.PlaceTile(h, rotation)])
        await self._run(interaction, work)

    @tile.autocomplete("hex")
    async def _tile_ac(self, interaction: discord.Interaction[Any], current: str
                       ) -> list[Choice[str]]:
        hexes = sorted({label(a.centre) for a in await self._legal(interaction)
                        if isinstance(a, A.PlaceTile)})
        return _filter([(h, h) for h in hexes], current)

    @app_commands.command(name="token", description=t("cmd.token"))
    @app_commands.describe(hex=t("cmd.hex"))
    async def token(self, interaction: discord.Interaction[Any], hex: str) -> None:  # noqa: A002
        async def work() -> str:
            h = _hex_or_none(hex)
            if h is None:
                raise TableError("error.bad_choice", reason=hex)
            return await self._act(interaction, [A.PlaceStartToken(h)])
        await self._run(interaction, work)

    @token.autocomplete("hex")
    async def _token_ac(self, interaction: discord.Interaction[Any], current: str
                        ) -> list[Choice[str]]:
        hexes = sorted({label(a.hex) for a in await self._legal(interaction)
                        if isinstance(a, A.PlaceStartToken)})
        return _filter([(h, h) for h in hexes], current)
