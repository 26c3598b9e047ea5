"""Every user-facing sentence of the bot, in one catalogue (so it can be translated later).

Use ``t("key", name=value)``. Engine events bring their own English text; everything the
bot itself says comes from here. Rule summaries for ``/tempus rules`` are at the end.
"""

from __future__ import annotations

import string
from typing import Any

from .messages_after import MESSAGES_AFTER

MESSAGES: dict[str, str] = {
    # ------------------------------------------------------------ errors and refusals
    "error.internal": "Something went wrong on my side; it has been logged. Please try again.",
    "error.no_game": "There is no Tempus game in this channel. Start one with `/tempus new`.",
    "error.game_exists": "This channel already has a Tempus game (#{game}). Finish or cancel it "
    "first (`/tempus cancel`).",
    "error.not_lobby": "Game #{game} has already started; seats can no longer change.",
    "error.not_active": "Game #{game} is not running.",
    "error.already_seated": "You already have a seat in game #{game}.",
    "error.table_full": "The table is full ({seats} seats).",
    "error.not_seated": "You are not playing in game #{game}.",
    "error.host_leave": "As the host you cannot leave; cancel the game instead "
    "(`/tempus cancel`).",
    "error.host_only": "Only the host (<@{host}>) can do that.",
    "error.cancel_denied": "Only the host (<@{host}>) or someone who may manage this channel can "
    "cancel the game.",
    "error.too_few": "Tempus needs at least {min} players; {have} seated. Ask others to "
    "`/tempus join` or add computer players with `/tempus addbot`.",
    "error.no_ai": "Computer players are not available in this version.",
    "error.no_bot_seat": "There is no computer player to remove.",
    "error.not_your_turn": "It is not your turn. Waiting for: {waiting}.",
    "error.stale": "That choice is no longer current: the game has moved on. Use the newest "
    "message, or `/tempus status`.",
    "error.illegal": "Not allowed: {reason}.",
    "error.bad_choice": "I could not understand that choice ({reason}). Pick one of the "
    "suggestions.",
    "error.no_options": "There is nothing of that kind you can do now.",
    "error.guild_only": "Use this command in the channel of your game.",
    "error.wrong_player": "These controls belong to another player.",
    "error.no_token": "The environment variable DISCORD_TOKEN is not set. Create a bot in the "
    "Discord developer portal, copy its token and run: DISCORD_TOKEN=your-token python -m bot "
    "(or try the game offline: python -m bot --offline).",
    "error.on_autopilot": "A computer is playing your seat. Use `/tempus autopilot on:False` "
    "to take it back.",
    "error.not_seated_other": "<@{user}> has no seat in game #{game}.",
    "error.autopilot_denied": "Only the seat's player, the host (<@{host}>) or someone who may "
    "manage this channel can hand a seat to a computer.",
    "error.autopilot_already": "A computer already plays the seat of <@{user}>.",
    "error.autopilot_not_on": "<@{user}> already plays their own seat.",
    "resume.reposted": "I was restarted: game #{game} goes on from here.",
    "autopilot.on": "A computer ({level}) now plays {colour} for <@{user}>. "
    "`/tempus autopilot on:False` takes the seat back.",
    "autopilot.off": "<@{user}> plays {colour} again.",
    "error.unknown_level": "Unknown computer level {level!r}; choose one of: {levels}.",
    # ------------------------------------------------------------ storage and bad input (issue 16)
    "error.storage_full": "Not done: the bot's storage is full, so your action was not saved "
    "and the game is unchanged. This is a problem on the bot's side; try again once its "
    "operator has freed disk space.",
    "error.storage_busy": "Not done: the bot's database is locked by another program, so your "
    "action was not saved and the game is unchanged. This is a problem on the bot's side; "
    "try again in a moment.",
    "error.storage_readonly": "Not done: the bot's database cannot be written to (read-only), "
    "so your action was not saved and the game is unchanged. This is a problem on the bot's "
    "side; it goes on once its operator has fixed it.",
    "error.storage_gone": "Not done: the bot's database file was deleted or replaced while the "
    "bot was running, so I take no more actions (they could not be kept). This is a problem "
    "on the bot's side; its operator must restore the file and restart the bot.",
    "error.storage_io": "Not done: the bot's storage reported a disk error, so your action was "
    "not saved and the game is unchanged. This is a problem on the bot's side; try again "
    "later.",
    "error.storage_offline": "Not done: the bot cannot reach its database server right now, "
    "so your action was not saved and the game is unchanged. This is a problem on the bot's "
    "side; try again in a moment.",
    "error.storage_corrupt": "Not done: the bot's database is damaged, so your action was not "
    "saved. This is a problem on the bot's side; its operator has to repair it "
    "(`python -m bot check-db`).",
    "error.game_set_aside": "Game #{game} cannot be read from the bot's storage and has been "
    "set aside; nothing can be played in it until the bot's operator repairs it "
    "(`python -m bot check-db`). Other games are not affected.",
    "notice.set_aside": "Game #{game} could not be loaded after a restart: its stored data is "
    "damaged, so it is paused. The bot's operator has been told; other games go on.",
    "error.bad_control": "That control is not one of mine (or no longer exists). Use the "
    "buttons and menus of the newest message, or `/tempus status`.",
    "error.bad_option": "`{option}` cannot be {value}. {allowed}",
    "error.bad_option.choices": "Choose one of: {choices}.",
    "error.bad_option.range": "Use a whole number from {min} to {max}.",
    "error.bad_option.min": "Use a number of at least {min}.",
    "error.bad_option.max": "Use a number of at most {max}.",
    "error.bad_option.int": "Use a whole number.",
    "error.bad_option.number": "Use a number.",
    "error.bad_option.bool": "Use True or False.",
    "error.bad_option.text": "Use at most {max} characters; pick one of the suggestions.",
    "error.bad_option.text_type": "Use text; pick one of the suggestions.",
    "error.bad_option.user": "Choose a member of this server from the list.",
    "error.bad_option.object": "Choose from the list Discord offers.",
    "error.bad_command": "I could not use that command's options. Type the command again and "
    "pick from the suggestions.",
    "error.bad_topic": "There is no rules topic {topic!r}; choose one of: {topics}.",
    "error.store_in_use": "The database {path} is already in use by another bot process "
    "({who}). Two processes on one database would answer every click twice. Stop the other "
    "one first, or give this one its own database with --db or TEMPUS_DB.",
    "error.store_in_use.who": "pid {pid}",
    "error.store_in_use.who_host": "pid {pid} on {host}",
    "error.store_in_use.unknown": "pid not known",
    "error.store_open": "Cannot open the database {path}: {reason}.",
    # check-db: the operator's report
    "checkdb.title": "Checking {path}",
    "checkdb.cannot_open": "Cannot open {path}: {reason}",
    "checkdb.integrity_ok": "SQLite integrity check: ok",
    "checkdb.integrity_bad": "SQLite integrity check: {n} {n:problem|problems}:",
    "checkdb.foreign_keys_bad": "Foreign keys: {n} {n:row|rows} point at nothing "
    "(first: table {table}, row {row}).",
    "checkdb.schema": "Schema version {have} (this bot: {want}).",
    "checkdb.schema_newer": "Schema version {have} is newer than this bot ({want}): upgrade "
    "the bot before checking.",
    "checkdb.unreadable_list": "The list of games cannot be read: {reason}",
    "checkdb.game_ok": "Game #{game} ({status}, channel {channel}): ok, {n} "
    "{n:action|actions} replayed.",
    "checkdb.game_lobby": "Game #{game} ({status}, channel {channel}): ok, not started.",
    "checkdb.game_bad": "Game #{game} ({status}, channel {channel}): PROBLEM: {problem}",
    "checkdb.problem.unreadable": "it cannot be read ({reason}); the bot sets it aside",
    "checkdb.problem.replay": "its log does not replay: {reason}; the bot sets it aside",
    "checkdb.problem.seq": "its log has a gap: entry {expected} is missing (found {found})",
    "checkdb.problem.snapshot_unreadable": "its snapshot cannot be read ({reason}); the log "
    "replays, so the bot rebuilds it at the next start",
    "checkdb.problem.snapshot_differs": "its snapshot differs from the replayed log; the bot "
    "rebuilds it at the next start",
    "checkdb.problem.no_snapshot": "it has started but has no snapshot; the bot rebuilds it at "
    "the next start",
    "checkdb.problem.status": "its status is {status} but the replayed game is {phase}",
    "checkdb.summary_ok": "All {n} {n:game|games} ok.",
    "checkdb.summary_bad": "{bad} of {n} {n:game|games} with problems; database checks: "
    "{db}.",
    "checkdb.db_ok": "ok",
    "checkdb.db_bad": "FAILED",
    # ------------------------------------------------------------ end storage and bad input
    # ------------------------------------------------------------ lobby
    "lobby.title": "**Tempus** game #{game} (host <@{host}>): {map}, {seated}/{seats} seats.",
    "lobby.opt1.on": "Table option R-OPT-1 is on: a hex with only a city counts for "
    "protection (the designer's e-mail ruling).",
    "lobby.opt1.off": "Protection counts only hexes with tokens (the rulebook; table option "
    "R-OPT-1 is off).",
    "status.rules": "Rules version {version}; {option}",
    "lobby.map.random": "random map",
    "lobby.map.place": "players place the map tiles",
    "lobby.seat": "{n}. {name}",
    "lobby.empty": "{n}. (free)",
    "lobby.hint": "Join with the button or `/tempus join`. The host starts with `/tempus start` "
    "once at least {min} players are seated.",
    "lobby.created": "Game #{game} created.",
    "lobby.joined": "{name} joins game #{game}.",
    "lobby.left": "{name} leaves game #{game}.",
    "lobby.bot_added": "{name} takes a seat in game #{game}.",
    "lobby.bot_removed": "{name} leaves game #{game}.",
    "lobby.cancelled": "Game #{game} has been cancelled by <@{user}>.",
    "lobby.started": "Game #{game} begins!",
    "lobby.seat_colour": "{colour}: {name}",
    "ai.name": "Computer {n} ({level})",
    # ------------------------------------------------------------ buttons and menus
    "btn.join": "Join",
    "btn.leave": "Leave",
    "btn.addbot": "Add computer",
    "btn.start": "Start",
    "btn.cancel": "Cancel game",
    "btn.move": "Move",
    "btn.grow": "Grow",
    "btn.draw": "Draw cards",
    "btn.attack": "Attack…",
    "btn.city": "Build city…",
    "btn.cards": "Play a card…",
    "btn.end_turn": "End turn",
    "btn.end_move": "End move",
    "btn.end_grow": "End growth",
    "btn.secret": "Choose my cards (private)",
    "btn.no_cards": "Play no cards",
    "btn.rotate": "Rotate ↻",
    "btn.place": "Place the tile here",
    "btn.occupy": "Move {n} in",
    "btn.hand": "Show my hand",
    "btn.undo": "Undo ↶",
    "btn.undo_for": "Undo ↶ ({colour})",
    "btn.back": "◀ Back",
    "btn.move_idle": "Move: no token can move, uses the marker",
    "btn.grow_idle": "Grow: no room on your hexes, uses the marker",
    "btn.city_terrain": "Name the terrain (private)",
    "btn.terrain_match": "{terrain}: {n} of your cards match",
    "menu.city_terrain": "Which terrain does your city count as? Each card of that terrain "
    "adds 1 to your defence.",
    "menu.no_card_play": "No card can be played for its effect now.",
    "menu.closed": "Closed. Choose again on the turn message.",
    "attack.worth": "you {att} vs {owner} {dfn} ({terrain}), before cards",
    "attack.worth_city": "you {att} vs {owner} city {dfn} ({terrain} or the terrain its "
    "owner names), before cards",
    "attack.ties": "Strength before cards is shown per target; ties go to the defender.",
    "worth.fight": "+{n} here",
    "worth.progress": "+{n} {n:point|points}",
    "undo.done": "{colour} took back: {what}.",
    "error.undo_refused": "Nothing to undo: {reason}.",
    "ph.tile": "Centre the tile on… ({first}–{last})",
    "ph.token": "Place a starting token on… ({first}–{last})",
    "ph.move_src": "Move a token from…",
    "ph.move_dst": "…to ({first}–{last})",
    "ph.grow": "Grow a token on…",
    "ph.attack": "Attack…",
    "ph.city": "Build a city on…",
    "ph.card": "Play which card?",
    "ph.card_target": "Play {card} on… ({first}–{last})",
    "ph.cards.attack_cards": "Attack cards (face down)",
    "ph.cards.defend_cards": "Defence cards (face up)",
    "ph.cards.discard": "Discard exactly {n} {n:card|cards}",
    "ph.cards.progress_cards": "Progress cards (secret until all have chosen)",
    "menu.truncated": "(Only the first {n} choices fit here; use `/tempus play` to see all.)",
    # ------------------------------------------------------------ prompts
    "prompt.waiting_ai": "Waiting for {name} (computer)…",
    "prompt.place_tile": "{who}: place tile {tile} ({left} left). Choose the centre hex, then "
    "the rotation.",
    "prompt.place_start_token": "{who}: place a starting token ({left} left). The 3 tokens must "
    "form one group, at most 2 per hex.",
    "prompt.turn": "{who}: your turn (era {era}, round {round}, "
    "{markers} {markers:marker|markers} left). Choose one action; cards may be played "
    "before or after it. Here: {options}.",
    "prompt.turn_done": "{who}: your action is done. Here: {options}.",
    "prompt.move": "{who}: move up to {n} more {n:token|tokens}, one at a time, or end the move.",
    "prompt.grow": "{who}: place up to {n} more {n:token|tokens} on your grassland, "
    "or end the growth.",
    "prompt.name_city_terrain": "{who}: your city on {hex} is attacked. Name the terrain it "
    "counts as (cards with that background add 1 each).",
    "prompt.attack_cards": "{who}: choose attack cards in secret (or none).",
    "prompt.defend_cards": "{who}: {attacker} played {n} {n:card|cards} face down. Answer with "
    "defence cards (or none).",
    "prompt.occupy": "{who}: you won! Move how many tokens from {src} into {dst}?",
    "prompt.discard": "{who}: over the hand limit: discard {n} {n:card|cards} (privately).",
    "prompt.progress_cards": "Progress phase: {who} choose cards in secret. New era: {era} "
    "(terrain {terrain}).",
    "prompt.over": "The game is over.",
    # ------------------------------------------------------------ acks
    "ack.done": "Done: {what}.",
    "ack.chosen": "Chosen: {what}. Waiting for the others.",
    "ack.opened": "Your choices are below (only you can see them).",
    # ------------------------------------------------------------ hand, DMs
    "hand.title": "Your hand in game #{game} ({n}/{limit} cards):",
    "hand.empty": "Your hand in game #{game} is empty.",
    "hand.card": "• **{name}** ({terrain}): {text}",
    "hand.drawn": "New: {what}",
    "hand.spectator": "You are not playing in game #{game}, so you have no hand.",
    "notice.posts_refused": "Discord is refusing my posts in <#{channel}> at the moment, so "
                            "game #{game}'s board there may lag behind. Nothing is lost: I "
                            "keep trying. To play on meanwhile, use `/tempus board` there: it "
                            "shows you the board and the turn's buttons privately.",
    "dm.failed": "<@{user}>, I could not send you a direct message. Use `/tempus hand` to see "
    "your cards, or allow direct messages from server members (Server menu → Privacy Settings).",
    "secret.intro": "Game #{game}: {prompt}",
    "secret.points": "Your progress points before cards: {base} "
    "({tokens} {tokens:token|tokens} on {terrain}, {cities} {cities:city|cities}). "
    "Each card with a {terrain} background adds 1, each Education 1.",
    "secret.combat": "Strength so far: attacker {att} ({src}), defender {dfn} ({dst}, {terrain})."
    " Each card of that background adds 1; Weapons +1; Fortification +2 when defending.",
    # ------------------------------------------------------------ status and board
    "status.head": "**Tempus** game #{game}, era {era_number}: {phase}.",
    "status.phase.tiles": "placing map tiles",
    "status.phase.tokens": "placing starting tokens",
    "status.phase.actions": "action round {round}",
    "status.phase.progress": "progress phase",
    "status.phase.over": "game over",
    "status.player": "{mark}{colour} ({name}): {era}, {markers} {markers:marker|markers}, "
    "{hand} {hand:card|cards}, "
    "{supply} {supply:token|tokens} in supply, {vp} VP",
    "status.deck": "Draw pile {deck}, discard pile {discard}.",
    "status.waiting": "Waiting for: {waiting}.",
    "status.start_mark": "★ ",
    "board.caption": "Game #{game}, version {version}.",
    "post.more": "(… {n} more lines)",
    # ------------------------------------------------------------ end of game
    "end.title": "**Final scores, game #{game}**",
    "end.row": "{rank}. {colour} ({name}): {vp} VP, {hand} {hand:card|cards} in hand, "
    "{cities} {cities:city|cities}",
    "end.winner": "Winner: {names}!",
    "end.winners": "Shared win: {names}!",
    "end.tiebreak": "Ties are broken by cards in hand, then by cities on the board.",
    "end.record": "The game record (JSON) is attached: it replays the whole game move by move.",
    "end.record_file": "The game record, JSON",
    "end.thread": "The whole game is in <#{thread}>.",
    "thread.name": "Tempus game #{game}",
    "thread.start_line": "Game #{game} has started: follow it in <#{thread}>.",
    "thread.denied": "<@{host}>, I may not create threads in this channel (the bot needs the "
    "Create Public Threads permission), so game #{game} is played right here.",
    "lobby.started_in": "Game #{game} is being played in <#{thread}>.",
    "alt.board": "Tempus board, era {era_number}. Victory points: {scores}.",
    "alt.waiting": "Now: {waiting}.",
    "alt.changed": "Last: {changed}",
    # ------------------------------------------------------------ action labels
    "act.place_tile": "Place the tile on {centre}, rotation {rotation}",
    "act.place_start_token": "Starting token on {hex}",
    "act.begin_move": "Move (take the Move action)",
    "act.move_token": "Move a token {src} → {dst}",
    "act.end_move": "End the move",
    "act.begin_grow": "Grow (take the Growth action)",
    "act.grow_token": "Grow a token on {hex}",
    "act.play_health_care": "Play {card}: one more token grows",
    "act.end_grow": "End the growth",
    "act.attack": "Attack {dst} from {src}",
    "act.attack_leader": "Attack {dst} from {src} with {card} (no action used)",
    "act.draw_cards": "Draw cards (the Idea action)",
    "act.build_city": "Build a city of value {value} on {hex}",
    "act.name_city_terrain": "The city counts as {terrain}",
    "act.commit_attack_cards": "Attack with {cards}",
    "act.defend_cards": "Defend with {cards}",
    "act.occupy": "Move {count} {count:token|tokens} in",
    "act.play_religion": "Play {card}: convert the token on {target} onto {own}",
    "act.play_sanitation": "Play {card}: stack limit +1 on {hex}",
    "act.play_transport": "Play {card}: one more token moves",
    "act.play_government.double": "Play {card}: take another action at once",
    "act.play_government.pass": "Play {card}: pass now, act last this era",
    "act.end_turn": "End your turn",
    "act.discard": "Discard {cards}",
    "act.progress_cards": "Progress with {cards}",
    "act.no_cards": "no cards",
    # ------------------------------------------------------------ rules
    "rules.topics": "Topics: {topics}. Example: `/tempus rules move`.",
    "rules.overview": "Tempus: lead a people through ten eras. Each era every player takes "
    "action markers (3 to 6 by era) and, in turn, uses one per action: Move, Grow, Draw cards, "
    "Attack or Build city. Then comes the progress phase: whoever scores most progress points "
    "moves to the next era, and better eras give better abilities. After the era in which "
    "someone reaches Flight, the game ends: 1 VP per hex with your tokens (not mountains), "
    "city values, 3 VP for Flight.",
    "rules.turn": "On your turn use one action marker for one action. Cards are not actions: "
    "play them before or after. Passing is only possible with Government.",
    "rules.move": "Move: up to your era's number of tokens, each up to its distance over land. "
    "Never through other players' tokens or cities; never end on a city. Lake shores connect "
    "across the lake; from Seafaring, coasts connect across the sea (that uses the whole move).",
    "rules.grow": "Grow: put new tokens from your supply on grassland hexes you already occupy, "
    "at most one per hex per action, within the stack limit.",
    "rules.attack": "Attack: from your hex to an adjacent hex with another player's tokens or "
    "city. Players on 3 or fewer hexes are protected. Attacker picks cards face down, defender "
    "answers face up. Strength = tokens (or city value) + 1 per card whose background matches "
    "the terrain + Weapons 1 + Fortification 2 (defender). Ties go to the defender. The loser "
    "of the attack loses one token; a losing defender loses everything on the hex.",
    "rules.city": "Build city: take all your tokens off a hex (not mountains, not next to a "
    "city) and put a city of value at most that many tokens. Cities score their value in VP and "
    "1 progress point each era.",
    "rules.draw": "Draw cards: take your era's number of cards. Over the hand limit, discard "
    "down at once.",
    "rules.cards": "Cards: each has a type (its effect) and a background terrain (for combat "
    "and progress). Education, Fortification, Health care, Leader, Transport, Sanitation, "
    "Weapons, Religion, Government. `/tempus hand` shows yours with their effects.",
    "rules.progress": "Progress: everyone behind the leader catches up, then everyone secretly "
    "picks cards. Points: 1 per token on the new era's terrain, 1 per card with that "
    "background, 1 per Education, 1 per city. The most points (ties too) advance.",
    "rules.end": "End: after the era in which someone reaches Flight. VP: 1 per hex with your "
    "tokens (not mountains), city values, 3 for Flight. Ties: most cards in hand, then most "
    "cities.",
    "rules.setup": "Setup: players place map tiles in turn (or the map is random), then each "
    "places 3 starting tokens in one connected group, at most 2 per hex.",
    "rules.commands": "Playing: use the buttons under the newest board, or slash commands: "
    "`/tempus play` (every legal choice, with suggestions), `/tempus move`, `/tempus grow`, "
    "`/tempus attack`, `/tempus city`; `/tempus play draw` and `/tempus play end` for the "
    "Idea action and ending a turn, move or growth; cards through `/tempus play` too. "
    "`/tempus hand` shows your cards privately.",
    # ------------------------------------------------------------ command descriptions
    "cmd.group": "Play the board game Tempus",
    "cmd.new": "Create a Tempus game in this channel",
    "cmd.new.seats": "Most players (3-5)",
    "cmd.new.city_protects": "Table option R-OPT-1: a hex with only a city counts for "
    "protection (default: off)",
    "cmd.new.map": "Random map, or players place the tiles",
    "cmd.join": "Take a seat in this channel's game",
    "cmd.leave": "Give up your seat before the game starts",
    "cmd.addbot": "Add a computer player",
    "cmd.addbot.level": "How strong the computer plays",
    "cmd.removebot": "Remove a computer player",
    "cmd.autopilot": "Let a computer play your seat (or an absent player's), or take it back",
    "cmd.autopilot.on": "True: a computer plays the seat; False: the person plays again",
    "cmd.autopilot.player": "Whose seat (default: yours; the host may choose an absent player)",
    "cmd.start": "Start the game (host)",
    "cmd.cancel": "Cancel the game (host or channel managers)",
    "cmd.board": "Show the current board",
    "cmd.status": "Show whose turn it is and everyone's position",
    "cmd.hand": "Show your cards (only to you)",
    "cmd.rules": "Explain a rule briefly",
    "cmd.rules.topic": "What to explain",
    "cmd.play": "Make any legal choice, a card too (type to filter; 'draw', 'end')",
    "cmd.play.choice": "What to do",
    "cmd.move": "Move a token (starts the Move action if needed)",
    "cmd.move.from": "Hex to move from",
    "cmd.move.to": "Hex to move to",
    "cmd.grow": "Grow a token on your grassland (starts the Growth action if needed)",
    "cmd.hex": "Hex",
    "cmd.attack": "Attack an adjacent hex",
    "cmd.attack.from": "Your hex",
    "cmd.attack.to": "The hex to attack",
    "cmd.city": "Build a city",
    "cmd.city.value": "City value",
    "cmd.tile": "Place the current map tile",
    "cmd.tile.rotation": "Rotation 0-5 (clockwise steps of 60°)",
    "cmd.token": "Place a starting token",
    # ============================================================ issue 11 (one block, for
    # the merge with the gettext catalogues): turn clock, reminders, leaving, replacing
    "pace.live": "live (3 minutes per decision)",
    "pace.daily": "daily (24 hours per decision)",
    "pace.relaxed": "relaxed (72 hours per decision)",
    "pace.none": "no time limit",
    "pace.short.live": "Live pace",
    "pace.short.daily": "Daily pace",
    "pace.short.relaxed": "Relaxed pace",
    "pace.short.none": "No time limit",
    "lobby.pace": "Pace: {pace}. Anyone whose time runs out is reminded first; then a "
    "computer decides for them.",
    "lobby.pace_none": "Pace: no time limit (the game waits for everyone).",
    "clock.line": "⏰ {pace}: {due}",
    "clock.due": "{colour} <t:{when}:R>",
    "clock.status": "Pace: {pace}.",
    "clock.status_due": "{colour} ({name}) must decide <t:{when}:R> (<t:{when}:f>); "
    "deadlines missed in a row: {strikes}.",
    "clock.status_covering": "{colour}: time ran out, a computer is deciding this turn.",
    "clock.remind_dm.1": "⏰ Game #{game} in <#{channel}>: you ({colour}) have a decision to "
    "make. Half of your time has passed; a computer decides for you <t:{when}:R>. "
    "Your turn: {link}",
    "clock.remind_dm.2": "⏰ Last call, game #{game} in <#{channel}>: you ({colour}) have a "
    "decision to make; a computer decides for you <t:{when}:R>. Your turn: {link}",
    "clock.remind_off_hint": "(`/tempus remind off` in the game's channel stops these "
    "reminders.)",
    "clock.remind_public": "<@{user}> ({colour}): a reminder, your decision is due "
    "<t:{when}:R>; then a computer decides for you. (`/tempus remind off` stops reminders.)",
    "clock.timeout": "⏰ Time is up for <@{user}> ({colour}): a computer ({level}) makes this "
    "decision for them. Deadlines missed in a row: {n} of {limit}.",
    "clock.autopilot": "⏰ <@{user}> ({colour}) missed {n} deadlines in a row: a computer "
    "({level}) plays the seat until they come back with `/tempus autopilot on:False`.",
    "clock.restart_late": "I was offline while the time of {who} ran out. A computer decides "
    "<t:{when}:R> unless they act first.",
    "clock.pace_changed": "<@{user}> changed the pace to {pace}.",
    "remind.on": "Turn reminders are on for you: a direct message at half your time and "
    "shortly before it runs out.",
    "remind.off": "Turn reminders are off for you. `/tempus remind on` turns them on again.",
    "error.unknown_pace": "Unknown pace {pace!r}; choose one of: {paces}.",
    "error.pace_denied": "Only the host (<@{host}>) or someone who may manage this channel can "
    "change the pace.",
    "error.pace_same": "Game #{game} is already played at this pace ({pace}).",
    "error.not_lobby_join": "Game #{game} has already started. To take over a seat, ask the "
    "host (<@{host}>) to use `/tempus replace`.",
    "error.left": "You left game #{game}; a computer plays {colour} to the end.",
    "error.left_other": "<@{user}> left game #{game}; the seat stays with the computer. The "
    "host can give it to someone with `/tempus replace`.",
    "error.replace_lobby": "Game #{game} has not started yet: <@{old}> can `/tempus leave` and "
    "<@{new}> can `/tempus join`.",
    "error.replace_denied": "Only the host (<@{host}>) or someone who may manage this channel "
    "can give a seat to someone else.",
    "error.replace_seated": "<@{user}> already has a seat in game #{game}; choose someone "
    "without one.",
    "error.replace_bot": "<@{user}> is a bot. Only people can take a seat; to let a computer "
    "play it, use `/tempus autopilot`.",
    "leave.confirm": "Leave game #{game}? A computer ({level}) plays your seat ({colour}) for "
    "the rest of the game and your cards stay hidden. You cannot take the seat back yourself.",
    "btn.leave_game": "Yes, leave the game",
    "leave.done": "You left game #{game}. Thank you for playing!",
    "leave.public": "<@{user}> ({colour}) left the game: a computer ({level}) plays the seat "
    "to the end.",
    "replace.done": "<@{new}> takes over {colour} from <@{old}>; the cards come by direct "
    "message.",
    "replace.ack": "<@{new}> now plays {colour} in game #{game}.",
    "menu.expired": "(No longer current: this decision has been made.)",
    "cmd.new.pace": "Time per decision: live 3 min, daily 24 h, relaxed 72 h, or none",
    "cmd.leave_any": "Give up your seat (during a game a computer takes it over)",
    "cmd.pace": "Change the time per decision (host or channel managers)",
    "cmd.pace.pace": "live 3 min, daily 24 h, relaxed 72 h, or none",
    "cmd.remind": "Turn reminders by direct message: on or off (for you, in every game)",
    "cmd.remind.state": "on or off",
    "cmd.replace": "Give a player's seat to another person (host or channel managers)",
    "cmd.replace.seat": "The player whose seat changes hands",
    "cmd.replace.player": "The person who takes the seat over",
}

MESSAGES.update(MESSAGES_AFTER)  # issue 13's sentences (bot/messages_after.py)


class _Formatter(string.Formatter):
    """``{n:card|cards}`` picks the singular or the plural word by the number ``n``."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            one, many = format_spec.split("|", 1)
            return one if value == 1 else many
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def t(key: str, /, **kwargs: Any) -> str:
    """The catalogue text for ``key`` with ``kwargs`` filled in."""
    template = MESSAGES[key]
    return _FORMATTER.format(template, **kwargs) if kwargs else template


RULE_TOPICS = ("overview", "setup", "turn", "move", "grow", "attack", "city", "draw", "cards",
               "progress", "end", "commands")
