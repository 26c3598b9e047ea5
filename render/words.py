"""Every word drawn inside an image (and the image descriptions), in one place.

The render modules never hold English text: they call :func:`word` with a key and a
language (``lang``, threaded through :func:`render.board.render_board`,
:func:`render.hand.render_hand` and :func:`render.board.render_crop`). English names of
game content (eras, terrains, card types and texts, colours) come from ``data/`` through
:data:`engine.content.CONTENT`; everything else is in :data:`WORDS`.

Polish is kept here as a plain dict for now; moving both languages into gettext
catalogues only needs :func:`word` to read from there instead.

A value is either a template (``str.format`` fields) or, for words that depend on a
number, a tuple of plural forms: English ``(one, other)``, Polish ``(one, few, many)``;
pass the number as ``count``.
"""

from __future__ import annotations

from typing import Any

from engine.content import CONTENT

Text = str | tuple[str, ...]
DEFAULT_LANG = "en"

_EN: dict[str, Text] = {
    # panel: header and status
    "title": "TEMPUS",
    "status.setup": "Setup",
    "status.era": "Era {n}",
    "status.round": "Action round {n}",
    "phase.tiles": "placing map tiles",
    "phase.tokens": "placing starting tokens",
    "phase.progress": "Progress phase",
    "phase.over": "Game over",
    "start_player": "\u2605 start player: {name}",
    # panel: who acts
    "to_act": "TO ACT",
    "game_over": "GAME OVER",
    "winner": "Winner: {names}",
    "winners": "Winners (shared): {names}",
    "more": "+{n} more",
    "list_sep": ", ",
    "decision.place_tile": "place tile {tile}",
    "decision.place_start_token": "place a starting token ({n} left)",
    "decision.turn": "choose an action",
    "decision.move": ("move up to {n} more token", "move up to {n} more tokens"),
    "decision.grow": ("grow up to {n} more token", "grow up to {n} more tokens"),
    "decision.discard": ("discard {n} card", "discard {n} cards"),
    "decision.progress_cards": "choose progress cards in secret",
    "decision.name_city_terrain": "name the terrain of the city on {hex}",
    "decision.attack_cards": "choose attack cards in secret",
    "decision.defend_cards": "answer with defence cards",
    "decision.occupy": "move tokens into {hex}?",
    "decision.other": "to act",
    "who_what": "{who}: {what}",
    # panel: era track
    "era_track": "ERA TRACK",
    "next": "\u25c2 next",
    # panel: players
    "players": "PLAYERS",
    "col.actions": "Actions",
    "col.cards": "Cards",
    "col.supply": "Supply",
    "col.cities": "Cities",
    "col.vp": "VP",
    "player.start": "\u2605 start",
    "player.to_act": "to act",
    "player.cities": "unused cities: {cities}",
    "player.no_cities": "none",
    "dot_sep": " \u00b7 ",
    # panel: map key and footer
    "map_key": "MAP KEY",
    "key.stack_limit": "stack limit",
    "piles": "Draw pile {deck} \u00b7 discard pile {discard}",
    "piles.tiles": " \u00b7 tiles left {n}",
    "piles.placing": " (placing tile {tile})",
    "combat": "{attacker} attacks {dst} ({defender}) from {src}",
    "combat.terrain": ", fighting on {terrain}",
    "combat.cards": ("; {n} card face down", "; {n} cards face down"),
    "progress_chosen": "Progress cards chosen: {names}",
    # hand image
    "hand.spectator": "Spectators hold no cards",
    "hand.title": "{name}'s hand",
    "hand.count": "{n} / {limit} cards",
    "hand.era": "Era: {era} \u00b7 Idea action draws {draw} \u00b7 hand limit {limit}",
    "hand.progress_note": "Chosen for progress (face down): {cards}",
    "hand.combat_note": "Played face down in combat: {cards}",
    "hand.empty": "No cards in hand",
    "hand.empty_hint": "The Idea action draws cards.",
    "card.background": "{Terrain} background",
    "card.in_list": "{name} ({terrain})",
    # image descriptions (alt text, /tempus describe)
    "alt.board": "Tempus board, {status}.",
    "alt.to_act": "To act: {lines}.",
    "alt.scores": "Scores: {scores}.",
    "alt.score": "{name} {vp}",
    "alt.changed": "What changed: {lines}",
    "alt.more": "(more in /tempus describe)",
    "desc.start": "Start player: {name}.",
    "desc.player": "{name}: era {era} ({era_name}), {vp} VP, {markers} actions left, "
                   "{cards} cards in hand, {supply} tokens in supply, {on_board} on the map, "
                   "unused cities: {cities}.",
    "desc.map": "The map, row by row (every hex that is not open sea):",
    "desc.hex": "{hex} {terrain}: {what}.",
    "desc.empty": "empty",
    "desc.tokens": ("{name}, {n} token", "{name}, {n} tokens"),
    "desc.city": "{name} city of value {value}",
    "desc.bonus": "stack limit +{n}",
    "desc.sea": "All other hexes are open sea.",
    "desc.no_land": "No land has been placed yet.",
    "desc.piles": "Draw pile {deck}, discard pile {discard}.",
    "desc.tiles": "Tiles left to place: {n}.",
}

_PL: dict[str, Text] = {
    "title": "TEMPUS",
    "status.setup": "Przygotowanie",
    "status.era": "Era {n}",
    "status.round": "Runda akcji {n}",
    "phase.tiles": "układanie kafli mapy",
    "phase.tokens": "stawianie żetonów startowych",
    "phase.progress": "Faza postępu",
    "phase.over": "Koniec gry",
    "start_player": "\u2605 gracz startowy: {name}",
    "to_act": "RUCH",
    "game_over": "KONIEC GRY",
    "winner": "Zwycięzca: {names}",
    "winners": "Zwycięzcy (ex aequo): {names}",
    "more": "+{n} więcej",
    "list_sep": ", ",
    "decision.place_tile": "połóż kafel {tile}",
    "decision.place_start_token": "postaw żeton startowy (zostało {n})",
    "decision.turn": "wybierz akcję",
    "decision.move": ("przesuń jeszcze do {n} żetonu", "przesuń jeszcze do {n} żetonów",
                      "przesuń jeszcze do {n} żetonów"),
    "decision.grow": ("dołóż jeszcze do {n} żetonu", "dołóż jeszcze do {n} żetonów",
                      "dołóż jeszcze do {n} żetonów"),
    "decision.discard": ("odrzuć {n} kartę", "odrzuć {n} karty", "odrzuć {n} kart"),
    "decision.progress_cards": "wybierz w tajemnicy karty postępu",
    "decision.name_city_terrain": "wskaż teren miasta na {hex}",
    "decision.attack_cards": "wybierz w tajemnicy karty ataku",
    "decision.defend_cards": "odpowiedz kartami obrony",
    "decision.occupy": "wejść żetonami na {hex}?",
    "decision.other": "ma ruch",
    "who_what": "{who}: {what}",
    "era_track": "TOR ER",
    "next": "\u25c2 następna",
    "players": "GRACZE",
    "col.actions": "Akcje",
    "col.cards": "Karty",
    "col.supply": "Zapas",
    "col.cities": "Miasta",
    "col.vp": "PZ",
    "player.start": "\u2605 start",
    "player.to_act": "ma ruch",
    "player.cities": "wolne miasta: {cities}",
    "player.no_cities": "brak",
    "dot_sep": " \u00b7 ",
    "map_key": "LEGENDA",
    "key.stack_limit": "limit stosu",
    "piles": "Talia {deck} \u00b7 odrzucone {discard}",
    "piles.tiles": " \u00b7 kafli zostało {n}",
    "piles.placing": " (układany kafel {tile})",
    "combat": "{attacker} atakuje {dst} ({defender}) z {src}",
    "combat.terrain": ", walka na terenie: {terrain}",
    "combat.cards": ("; {n} karta zakryta", "; {n} karty zakryte", "; {n} kart zakrytych"),
    "progress_chosen": "Karty postępu wybrali: {names}",
    "hand.spectator": "Widzowie nie mają kart",
    "hand.title": "Ręka: {name}",
    "hand.count": "{n} / {limit} kart",
    "hand.era": "Era: {era} \u00b7 akcja Idea dobiera {draw} \u00b7 limit ręki {limit}",
    "hand.progress_note": "Wybrane na postęp (zakryte): {cards}",
    "hand.combat_note": "Zagrane zakryte w walce: {cards}",
    "hand.empty": "Brak kart na ręce",
    "hand.empty_hint": "Akcja Idea dobiera karty.",
    "card.background": "Tło: {terrain}",
    "card.in_list": "{name} ({terrain})",
    "alt.board": "Plansza Tempus, {status}.",
    "alt.to_act": "Ruch: {lines}.",
    "alt.scores": "Punkty: {scores}.",
    "alt.score": "{name} {vp}",
    "alt.changed": "Co się zmieniło: {lines}",
    "alt.more": "(więcej: /tempus describe)",
    "desc.start": "Gracz startowy: {name}.",
    "desc.player": "{name}: era {era} ({era_name}), {vp} PZ, akcje do wykonania: {markers}, "
                   "karty na ręce: {cards}, żetony w zapasie: {supply}, na mapie: {on_board}, "
                   "wolne miasta: {cities}.",
    "desc.map": "Mapa, wiersz po wierszu (każdy heks poza otwartym morzem):",
    "desc.hex": "{hex} {terrain}: {what}.",
    "desc.empty": "pusto",
    "desc.tokens": ("{name}, {n} żeton", "{name}, {n} żetony", "{name}, {n} żetonów"),
    "desc.city": "miasto ({name}) o wartości {value}",
    "desc.bonus": "limit stosu +{n}",
    "desc.sea": "Wszystkie pozostałe heksy to otwarte morze.",
    "desc.no_land": "Nie położono jeszcze lądu.",
    "desc.piles": "Talia {deck}, odrzucone {discard}.",
    "desc.tiles": "Kafli do ułożenia: {n}.",
    # game content
    "colour.0": "Czerwony", "colour.1": "Niebieski", "colour.2": "Żółty",
    "colour.3": "Zielony", "colour.4": "Fioletowy",
    "letter.0": "C", "letter.1": "N", "letter.2": "Ż", "letter.3": "Z", "letter.4": "F",
    "terrain.G": "łąki", "terrain.F": "pola", "terrain.W": "las", "terrain.H": "wzgórza",
    "terrain.M": "góry", "terrain.lake": "jezioro", "terrain.sea": "otwarte morze",
    "era.0": "Start", "era.1": "Pismo", "era.2": "Rolnictwo", "era.3": "Budowa miast",
    "era.4": "Budowa dróg", "era.5": "Handel", "era.6": "Żegluga", "era.7": "Druk",
    "era.8": "Przemysł", "era.9": "Kolej", "era.10": "Lotnictwo",
    "card.EDU": "Edukacja", "card.FOR": "Fortyfikacje", "card.HEA": "Medycyna",
    "card.LEA": "Przywódca", "card.TRA": "Transport", "card.SAN": "Higiena",
    "card.WEA": "Broń", "card.REL": "Religia", "card.GOV": "Rząd",
    "cardtext.EDU": "Faza postępu: +1 punkt postępu (+1 więcej, jeśli tło pasuje do "
                    "nowej ery).",
    "cardtext.FOR": "Obrona: +2 do siły walki (+1, jeśli tło pasuje). Atak: tylko punkt "
                    "terenu.",
    "cardtext.HEA": "Akcja wzrostu: dołóż jeden żeton więcej (nadal jeden na heks łąk).",
    "cardtext.LEA": "Twoja tura: wykonaj jeden dodatkowy atak, który nie jest akcją.",
    "cardtext.TRA": "Akcja ruchu: przesuń jeden żeton więcej.",
    "cardtext.SAN": "Podnieś o 1 limit stosu na jednym heksie, dopóki żeton go nie opuści.",
    "cardtext.WEA": "Walka: +1 do siły atakującego lub obrońcy (+1, jeśli tło pasuje).",
    "cardtext.REL": "Twoja tura: zamień sąsiedni żeton wroga na swój z zapasu, obok "
                    "twojego heksu.",
    "cardtext.GOV": "Wykonaj następną akcję od razu (podwójna tura) albo spasuj w tej "
                    "rundzie i działaj ostatni.",
}


def _content_en() -> dict[str, Text]:
    """English names of game content, from ``data/`` (the one source of the game's text)."""
    out: dict[str, Text] = {}
    for i, colour in enumerate(CONTENT.colours):
        out[f"colour.{i}"] = colour
        out[f"letter.{i}"] = colour[:1].upper()
    for letter, name in CONTENT.terrain_names.items():
        out[f"terrain.{letter}"] = name
    out["terrain.lake"] = "lake"
    out["terrain.sea"] = "open sea"
    for i, era in enumerate(CONTENT.eras):
        out[f"era.{i}"] = era.name
    for key, kind in CONTENT.card_types.items():
        out[f"card.{key}"] = kind.name
        out[f"cardtext.{key}"] = kind.text
    return out


#: ``WORDS[lang][key]``; a key missing in a language falls back to English.
WORDS: dict[str, dict[str, Text]] = {"en": {**_EN, **_content_en()}, "pl": _PL}


def plural_index(n: int, lang: str) -> int:
    """Which plural form a number takes: English 0 = one, 1 = other; Polish 0 = one,
    1 = few (2-4, 22-24, ...), 2 = many."""
    n = abs(n)
    if lang == "pl":
        if n == 1:
            return 0
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return 1
        return 2
    return 0 if n == 1 else 1


def word(key: str, lang: str = DEFAULT_LANG, count: int | None = None, **fields: Any) -> str:
    """The text for ``key`` in ``lang`` with ``fields`` filled in (``count`` picks the
    plural form and is also available as ``{n}`` unless ``n`` is given)."""
    table = WORDS.get(lang) or WORDS[DEFAULT_LANG]
    value = table.get(key)
    if value is None:
        lang, value = DEFAULT_LANG, WORDS[DEFAULT_LANG][key]
    if isinstance(value, tuple):
        if count is None:
            raise ValueError(f"word {key!r} needs a count")
        value = value[min(plural_index(count, lang), len(value) - 1)]
    if count is not None:
        fields.setdefault("n", count)
    return value.format(**fields) if fields else value


def colour_name(seat: int, lang: str = DEFAULT_LANG) -> str:
    key = f"colour.{seat}"
    if key not in WORDS[DEFAULT_LANG]:
        return f"{seat + 1}"
    return word(key, lang)


def colour_letter(seat: int, lang: str = DEFAULT_LANG) -> str:
    key = f"letter.{seat}"
    if key not in WORDS[DEFAULT_LANG]:
        return f"{seat + 1}"
    return word(key, lang)


def terrain_name(kind: str | None, lang: str = DEFAULT_LANG) -> str:
    """``kind``: a terrain letter, ``"lake"``, ``"sea"`` (None: open sea)."""
    return word(f"terrain.{kind or 'sea'}", lang)


def era_name(era: int, lang: str = DEFAULT_LANG) -> str:
    return word(f"era.{era}", lang)


def card_type_name(kind: str, lang: str = DEFAULT_LANG) -> str:
    return word(f"card.{kind}", lang)


def card_type_text(kind: str, lang: str = DEFAULT_LANG) -> str:
    return word(f"cardtext.{kind}", lang)


def names(seats: list[int], lang: str = DEFAULT_LANG) -> str:
    return word("list_sep", lang).join(colour_name(s, lang) for s in seats)
