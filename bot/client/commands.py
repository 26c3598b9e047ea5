"""The ``/tempus`` slash commands. Each one defers at once (privately), then asks the table
service; results are announced in the channel by the publisher, refusals are private.

Options that name hexes, cards or choices autocomplete **only legal** values for the
player typing, computed from the engine's legal actions.

Names and descriptions are catalogue keys (:func:`bot.client.translator.ls`): Discord shows them
in each user's client language. Replies are written in the user's language (the command
tree sets the locale for every interaction, see :mod:`bot.client.app`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import options
from bot.client.commands_after import AfterCommands
from bot.client.translator import ls
from bot.table.service import TableError
from bot.tempus import computer_levels as players
from bot.tempus import help_text as guide
from bot.tempus import hint as hinting
from bot.tempus.codec import decode_action, encode_action
from bot.tempus.labels import action_label, colour_name
from bot.timing.pace import DEFAULT_PACE
from engine import actions as A
from engine.hexgrid import label, parse_label
from lang import i18n
from lang.messages import RULE_TOPICS, rule_text, t

if TYPE_CHECKING:
    from bot.client.app import TempusBot

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


def _levels(current: str) -> list[Choice[str]]:
    return _filter([(t(f"level.{lv}"), lv) for lv in players.levels()], current)


#: words ``/tempus play`` takes for the choices that need no detail (Discord allows 25
#: subcommands per group, so these are not commands of their own)
PLAY_WORDS: dict[str, type | tuple[type, ...]] = {
    "draw": A.DrawCards,
    "end": (A.EndTurn, A.EndMove, A.EndGrow),
}

#: the paces a game can be played at, named in each client's language
PACE_CHOICES = [Choice(name=ls(f"pace.{p}"), value=p)
                for p in ("live", "daily", "relaxed", "none")]


def _play_word(text: str) -> str | None:
    """The :data:`PLAY_WORDS` key ``text`` names, in English or in the user's language
    (``play.word.draw``: "dobierz" in Polish)."""
    wanted = text.strip().lower()
    for word in PLAY_WORDS:
        if wanted in (word, t(f"play.word.{word}").lower()):
            return word
    return None


class BadOption(app_commands.CheckFailure):
    """An option value outside what the command declares; the message is for the user."""


@app_commands.guild_only()  # a game needs a server channel: not offered in DMs
class TempusCog(AfterCommands, commands.GroupCog, group_name=ls("cmd.group.name"),
                group_description=ls("cmd.group")):
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
            cmd = interaction.command
            log.warning("could not acknowledge /%s in time",
                        cmd.qualified_name if cmd is not None else "?")
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
    @app_commands.command(name=ls("cmd.new.name"), description=ls("cmd.new"))
    @app_commands.rename(seats=ls("cmd.new.seats.name"), map=ls("cmd.new.map.name"),
                         hints=ls("cmd.new.hints.name"),
                         city_protects=ls("cmd.new.city_protects.name"),
                         pace=ls("cmd.new.pace.name"))
    @app_commands.describe(seats=ls("cmd.new.seats"), map=ls("cmd.new.map"),
                           hints=ls("cmd.new.hints"), city_protects=ls("cmd.new.city_protects"),
                           pace=ls("cmd.new.pace"))
    @app_commands.choices(map=[Choice(name=ls("cmd.new.map.random"), value="random"),
                               Choice(name=ls("cmd.new.map.place"), value="place")],
                          pace=PACE_CHOICES)
    async def new(self, interaction: discord.Interaction[Any],
                  seats: app_commands.Range[int, 3, 5] = 5,
                  map: str = "random", hints: bool = True,  # noqa: A002
                  city_protects: bool = False, pace: str = DEFAULT_PACE) -> None:
        async def work() -> str:
            if interaction.channel_id is None or interaction.guild_id is None:
                raise TableError("error.guild_only")
            # channel posts of this game follow the server's language (DMs and private
            # replies follow each user's)
            locale = i18n.normalize(interaction.guild_locale or interaction.locale)
            o = await self.service.create(interaction.guild_id, interaction.channel_id,
                                          interaction.user.id, interaction.user.display_name,
                                          seats=seats, random_map=map != "place",
                                          protection_counts_cities=city_protects,
                                          in_thread=isinstance(interaction.channel,
                                                               discord.Thread),
                                          extra={"hints": hints, "locale": locale},
                                          pace_name=pace)
            return t("lobby.created", game=o.game_id)
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.join.name"), description=ls("cmd.join"))
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            await self.service.join(game, interaction.user.id, interaction.user.display_name)
            return t("lobby.joined", name=interaction.user.display_name, game=game)
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.leave.name"), description=ls("cmd.leave_any"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str | None:
            game = await self._game(interaction)
            confirm = await self.service.leave_panel(game, interaction.user.id)
            if confirm is not None:  # a running game: ask first (privately)
                panel, version = confirm
                await self.bot.show_panel(interaction, panel, game, version)
                return None
            await self.service.leave(game, interaction.user.id)
            return t("lobby.left", name=interaction.user.display_name, game=game)
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.pace.name"), description=ls("cmd.pace"))
    @app_commands.rename(pace=ls("cmd.pace.pace.name"))
    @app_commands.describe(pace=ls("cmd.pace.pace"))
    @app_commands.choices(pace=PACE_CHOICES)
    async def pace(self, interaction: discord.Interaction[Any], pace: str) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            perms = interaction.permissions
            await self.service.set_pace(game, interaction.user.id, pace,
                                        can_manage=bool(perms and perms.manage_channels))
            # the channel is told in the game's language; this reply is in the user's
            return t("clock.pace_changed", user=interaction.user.id, pace=t(f"pace.{pace}"))
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.remind.name"), description=ls("cmd.remind"))
    @app_commands.rename(state=ls("cmd.remind.state.name"))
    @app_commands.describe(state=ls("cmd.remind.state"))
    @app_commands.choices(state=[Choice(name=ls("cmd.remind.state.on"), value="on"),
                                 Choice(name=ls("cmd.remind.state.off"), value="off")])
    async def remind(self, interaction: discord.Interaction[Any], state: str) -> None:
        async def work() -> str:
            return await self.service.set_reminders(interaction.user.id, state == "on")
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.replace.name"), description=ls("cmd.replace"))
    @app_commands.rename(seat=ls("cmd.replace.seat.name"), player=ls("cmd.replace.player.name"))
    @app_commands.describe(seat=ls("cmd.replace.seat"), player=ls("cmd.replace.player"))
    async def replace(self, interaction: discord.Interaction[Any], seat: discord.User,
                      player: discord.User) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            perms = interaction.permissions
            o = await self.service.replace(
                game, interaction.user.id, seat.id, player.id, player.display_name,
                new_is_bot=player.bot, can_manage=bool(perms and perms.manage_channels))
            seat_no = next(s.seat for s in o.seats if s.user_id == player.id)
            return t("replace.ack", new=player.id, colour=colour_name(seat_no), game=game)
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.addbot.name"), description=ls("cmd.addbot"))
    @app_commands.rename(level=ls("cmd.addbot.level.name"))
    @app_commands.describe(level=ls("cmd.addbot.level"))
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
        return _levels(current)

    @app_commands.command(name=ls("cmd.removebot.name"), description=ls("cmd.removebot"))
    async def removebot(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            o = await self.service.remove_ai(game, interaction.user.id)
            return o.lines[0]
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.autopilot.name"), description=ls("cmd.autopilot"))
    @app_commands.rename(on=ls("cmd.autopilot.on.name"), player=ls("cmd.autopilot.player.name"),
                         level=ls("cmd.autopilot.level.name"))
    @app_commands.describe(on=ls("cmd.autopilot.on"), player=ls("cmd.autopilot.player"),
                           level=ls("cmd.autopilot.level"))
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
        return _levels(current)

    @app_commands.command(name=ls("cmd.start.name"), description=ls("cmd.start"))
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            await self.service.start(game, interaction.user.id)
            return t("lobby.started", game=game)
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.cancel.name"), description=ls("cmd.cancel"))
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            perms = interaction.permissions
            await self.service.cancel(game, interaction.user.id,
                                      can_manage=bool(perms and perms.manage_channels))
            return t("lobby.cancelled", game=game, user=interaction.user.id)
        await self._run(interaction, work)

    # ------------------------------------------------------------------ looking
    @app_commands.command(name=ls("cmd.hand.name"), description=ls("cmd.hand"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> None:
            game = await self._game(interaction)
            panel, version = await self.service.menu(game, interaction.user.id, "hand")
            await self.bot.show_panel(interaction, panel, game, version)
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.help.name"), description=ls("cmd.help"))
    @app_commands.rename(topic=ls("cmd.help.topic.name"))
    @app_commands.describe(topic=ls("cmd.help.topic"))
    @app_commands.choices(topic=[Choice(name=ls(f"rules.topic.{x}"), value=x)
                                 for x in RULE_TOPICS])
    async def help_(self, interaction: discord.Interaction[Any],
                    topic: str | None = None) -> None:
        """What to do now in this game; with a ``topic``, that rule (Discord allows 25
        subcommands, so the rules are topics of help)."""
        async def work() -> str:
            if topic is not None:
                if topic not in RULE_TOPICS:
                    raise TableError("error.bad_topic", topic=topic[:40],
                                     topics=", ".join(RULE_TOPICS))
                return rule_text(topic)
            try:
                game = await self._game(interaction)
            except TableError:
                return t("help.no_game")
            return guide.help_for_user(await self.service.table(game), interaction.user.id)
        await self._run(interaction, work)

    @app_commands.command(name=ls("cmd.hint.name"), description=ls("cmd.hint"))
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> str:
            game = await self._game(interaction)
            return await hinting.hint_for_user(await self.service.table(game),
                                             interaction.user.id, self.bot.ai_offloader)
        await self._run(interaction, work)

    # ------------------------------------------------------------------ playing
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
            found = [a for a in legal if isinstance(a, PLAY_WORDS[word])]
            if not found:
                raise TableError("error.no_options")
            return found[0]
        for a in legal:
            if action_label(a).lower() == wanted:
                return a
        raise TableError("error.bad_choice", reason=text[:50])

    @play.autocomplete("choice")
    async def _play_ac(self, interaction: discord.Interaction[Any], current: str
                       ) -> list[Choice[str]]:
        acts = await self._legal(interaction)
        return _filter([(action_label(a), encode_action(a)) for a in acts], current)

    @app_commands.command(name=ls("cmd.move.name"), description=ls("cmd.move"))
    @app_commands.rename(src=ls("cmd.move.from.name"), dst=ls("cmd.move.to.name"))
    @app_commands.describe(src=ls("cmd.move.from"), dst=ls("cmd.move.to"))
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

    @app_commands.command(name=ls("cmd.grow.name"), description=ls("cmd.grow"))
    @app_commands.rename(hex=ls("cmd.grow.hex.name"))
    @app_commands.describe(hex=ls("cmd.grow.hex"))
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

    @app_commands.command(name=ls("cmd.attack.name"), description=ls("cmd.attack"))
    @app_commands.rename(src=ls("cmd.attack.from.name"), dst=ls("cmd.attack.to.name"))
    @app_commands.describe(src=ls("cmd.attack.from"), dst=ls("cmd.attack.to"))
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

    @app_commands.command(name=ls("cmd.city.name"), description=ls("cmd.city"))
    @app_commands.rename(hex=ls("cmd.city.hex.name"), value=ls("cmd.city.value.name"))
    @app_commands.describe(hex=ls("cmd.city.hex"), value=ls("cmd.city.value"))
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

    @app_commands.command(name=ls("cmd.place.name"), description=ls("cmd.place"))
    @app_commands.rename(hex=ls("cmd.place.hex.name"), rotation=ls("cmd.place.rotation.name"))
    @app_commands.describe(hex=ls("cmd.place.hex"), rotation=ls("cmd.place.rotation"))
    async def place(self, interaction: discord.Interaction[Any], hex: str,  # noqa: A002
                    rotation: app_commands.Range[int, 0, 5] = 0) -> None:
        """Setup: the current map tile while tiles are placed, else a starting token (one
        command for both: Discord allows 25 subcommands)."""
        async def work() -> str:
            h = _hex_or_none(hex)
            if h is None:
                raise TableError("error.bad_choice", reason=hex)
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
        return _filter([(h, h) for h in hexes], current)
