"""Sentences of "after the game" (issue 13): results, history, stats, ratings, rematch.

Kept apart while the catalogue is being moved to gettext; :mod:`bot.messages` merges this
dict into ``MESSAGES`` so everything is still said through ``t("key", ...)``.
"""

from __future__ import annotations

MESSAGES_AFTER: dict[str, str] = {
    # ------------------------------------------------------------ the final result
    "result.title": "**Game #{game}: the final result**",
    "result.who": "{colour} ({name})",
    "result.and": " and ",
    "result.winner": "🏆 {who} wins with {vp} VP!",
    "result.shared": "🏆 Shared win: {names}, with {vp} VP each!",
    "result.row": "{rank}. {who}: **{vp} VP** = {parts}",
    "result.part.hexes": "{n} {n:hex|hexes} with tokens",
    "result.part.city": "city {value} on {hex}",
    "result.part.flight": "Flight {vp}",
    "result.part.join": " + ",
    "result.hexes": "   hexes: {hexes}",
    "result.mountains": "   on mountains (no VP): {hexes}",
    "result.tie.intro": "Tie: {names} have {vp} VP each. The rules break it by cards in "
    "hand, then by cities on the board.",
    "result.tie.value": "{colour} {n}",
    "result.tie.cards": "Cards in hand: {values}.",
    "result.tie.cities": "Cities on the board: {values}.",
    "result.tie.winner": "So {who} wins.",
    "result.tie.shared": "Still level: they share the win.",
    "result.rating": "Ratings on this server: {changes}.",
    "result.rating.change": "{name} {before} → {after}",
    "result.files": "Attached: the score chart (era track and points, era by era), the final "
    "board, and the game record, JSON (every move, to replay the game).",
    "result.channel": "**Game #{game} is over.** {winner}",
    "result.short_row": "{rank}. {who} {vp}",
    "result.see_thread": "The full result, the chart and the game record are in the game's "
    "thread.",
    "file.chart": "Score chart: each player's era-track position and victory points at the "
    "end of every era",
    "file.board": "The final board",
    "file.record": "The game record, JSON: every move, to replay the game",
    "chart.title": "Game #{game}",
    "chart.era_track": "Era track",
    "chart.points": "Victory points",
    "chart.axis": "End of era",
    "chart.start": "start",
    "chart.vp": "VP",
    "btn.rematch": "Rematch",
    # ------------------------------------------------------------ rematch
    "rematch.created": "Rematch of game #{old}: game #{game}, same options. {invited}: click "
    "**Join** to take your seat again.",
    "rematch.created_alone": "Rematch of game #{old}: game #{game}, same options.",
    "rematch.joined": "You join the rematch, game #{game}.",
    "lobby.invited": "{n}. (kept for {name}: click Join)",
    "error.rematch_not_over": "Game #{game} has not ended yet; the rematch button works after "
    "the end.",
    "error.rematch_not_player": "Only the people who played game #{game} can start its "
    "rematch.",
    "error.rematch_busy": "This channel already has game #{game}. Finish or cancel it first.",
    "error.seat_reserved": "The free seats of game #{game} are kept for the players of the "
    "rematch ({names}).",
    # ------------------------------------------------------------ looking back
    "history.title.channel": "**Finished games in this channel** (page {page})",
    "history.title.server": "**Finished games on this server** (page {page})",
    "history.row": "#{game} · {date} · {players} · winner: {winners}, {vp} VP",
    "history.empty.channel": "No finished games in this channel yet. `/tempus history "
    "where:server` lists the whole server's.",
    "history.empty.server": "No finished games on this server yet.",
    "history.more": "More: `/tempus history page:{page}`.",
    "history.hint": "Look closer: `/tempus show game:#{game}`, `/tempus board game:#{game} "
    "at:era-3`, `/tempus replay game:#{game}`.",
    "show.board": "The final board of game #{game}.",
    "board.at_era": "Game #{game} at the end of era {era}.",
    "board.at_start": "Game #{game} at the start of era 1, after the setup.",
    "board.at_choice": "era-{era}: the end of era {era}",
    "board.at_choice_start": "start: after the setup",
    "board.at_choice_end": "end: the final position",
    "replay.caption": "Game #{game} from start to end, one picture per action round "
    "({frames} pictures).",
    "record.caption": "The game record of game #{game}, JSON: every move, to replay the game.",
    "error.bad_game": "I could not read the game number {text!r}; write it like `#12`.",
    "error.unknown_game": "There is no game #{game} on this server.",
    "error.not_finished": "Game #{game} has not ended yet.",
    "error.cancelled_game": "Game #{game} was cancelled; it has no result to show.",
    "error.bad_era": "Write the moment like `era-5` (the end of era 5), `start` or `end`; "
    "a game has eras 1 to {last}.",
    "error.era_not_reached": "Game #{game} has not finished era {era} yet (eras finished: "
    "{done}).",
    "error.record_running": "The record of game #{game} comes when the game has ended: until "
    "then it would give the cards away.",
    "error.too_big": "I could not make the animation of game #{game}: it would be too large "
    "to post.",
    "error.no_finished_game": "This channel has no running or finished game. `/tempus history "
    "where:server` lists the server's games.",
    # ------------------------------------------------------------ stats and ratings
    "stats.title": "**{name}** on this server",
    "stats.games": "Games: {games}, wins: {wins} ({share}%)",
    "stats.vp": "Average victory points: {avg}",
    "stats.opening": "Favourite opening (era 1): {opening}, in {n} of {games} "
    "{games:game|games}",
    "stats.rating": "Rating: {mu} ± {spread} (95% range), from {rated} rated "
    "{rated:game|games}",
    "stats.unrated": "Rating: none yet: it needs a finished game with at least two people.",
    "stats.none": "{name} has no finished games on this server yet.",
    "opening.move": "Move",
    "opening.grow": "Growth",
    "opening.attack": "Attack",
    "opening.draw": "Draw cards",
    "opening.city": "Build city",
    "opening.none": "no action",
    "opening.sep": " → ",
    "leaderboard.title": "**Leaderboard of this server**",
    "leaderboard.row": "{rank}. {name}: {ordinal} (rating {mu} ± {spread}, {games} "
    "{games:game|games}, {wins} {wins:win|wins})",
    "leaderboard.empty": "No rated games on this server yet: a rating needs a finished game "
    "with at least two people.",
    "leaderboard.note": "Sorted by the sure part of the rating: the rating less three times "
    "its uncertainty, so a few lucky games do not put anyone on top.",
    # ------------------------------------------------------------ command descriptions
    "cmd.history": "Finished games of this channel or of the whole server",
    "cmd.history.where": "This channel, or the whole server",
    "cmd.history.page": "Page (10 games a page)",
    "cmd.show": "A finished game: its result, its record (JSON) or its animation",
    "cmd.show.what": "result (default), record (the JSON file) or replay (an animation, "
    "posted in the channel)",
    "cmd.game": "Game number, like #12 (default: this channel's game)",
    "cmd.board.at": "A moment of the game: era-5 = the end of era 5, start = after the setup",
    "cmd.stats": "A player's games, wins, points and rating, and the server's leaderboard",
    "cmd.stats.player": "Whose statistics (default: yours)",
    "cmd.leaderboard": "The best players of this server",
    "cmd.replay": "Post an animation of a whole game",
    "cmd.record": "The game record (JSON) of a finished game",
}
