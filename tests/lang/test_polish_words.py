"""Polish as someone who writes it well would put it: each phrase a player met and found
unnatural, and what it reads now."""

from __future__ import annotations

from bot.store import SeatRow
from engine import actions as A
from engine.game import apply, decisions
from games.tempus import panels
from lang import i18n
from lang.messages import t_in
from tests.bot.positions import by_kind


def test_the_phrases_players_found_unnatural_read_naturally() -> None:
    pl = i18n.catalogue()["pl"].messages
    everything = "\n".join(pl.values())
    for old in ("⚔️ Walka…", "ma już wybrane karty", "odkrywa: bez kart",
                "(nie ma o co pytać)", "jako teren:", "karty zużyte", "elementów",
                "się zaczyna!", "po końcu gry", "Teraz dobre:", "Jak to ważą",
                "karty w tajemnicy wybierają:"):
        assert old not in everything, old
    assert t_in("pl", "btn.attack") == "⚔️ Atakuj…"
    assert t_in("pl", "event.progress_choice", colour="Niebieski") == \
        "Niebieski wybrał już karty na fazę postępu."
    assert t_in("pl", "event.city_terrain", colour="Niebieski",
                terrain=t_in("pl", "city_as.G")) == "Niebieski broni miasta jako łąki."
    assert t_in("pl", "status.deck", deck=3, discard=4) == \
        "Stos kart: 3, karty odrzucone: 4."
    assert t_in("pl", "event.map", tiles=8) == "Ułożono losową mapę z 8 kafelków."
    assert t_in("pl", "lobby.started", game=1) == "Zaczyna się gra #1!"
    assert "po zakończeniu gry" in pl["shuffle.commitment"]
    assert "Dobre pola teraz:" in pl["help.start_token"]
    assert pl["hint.reasons"].startswith("Jak oceniają to gracze komputerowi")


def test_the_progress_prompt_agrees_with_how_many_choose() -> None:
    """"Faza postępu: karty w tajemnicy wybiera @brian", plural when several."""
    state, _ = by_kind()["progress_cards"]
    seats = [SeatRow(i, 100 + i, None, f"P{i}") for i in range(state.num_players)]
    with i18n.using("pl"):
        several = panels.public_panel(state, seats).text
    assert several.startswith("Faza postępu: karty w tajemnicy wybierają <@")
    for d in decisions(state)[1:]:
        state, _ = apply(state, d.seat, A.ProgressCards(()))
    assert len(decisions(state)) == 1
    with i18n.using("pl"):
        one = panels.public_panel(state, seats).text
    assert one.startswith("Faza postępu: karty w tajemnicy wybiera <@")
    with i18n.using("en"):
        assert panels.public_panel(state, seats).text.startswith(
            "Progress phase: <@100> (Red) chooses cards in secret.")


def test_the_polish_catalogue_says_one_thing_one_way() -> None:
    """Read once more as someone who writes Polish well: cards are held "na ręce", the
    reader is "ty" in lower case, the overview topic is named as its command choice
    ("ogólnie"), a city counts as a terrain, the winner's line does not read as "wins
    against"."""
    pl = i18n.catalogue()["pl"].messages
    for key, text in pl.items():
        assert "w ręce" not in text, key
        assert "Twojego" not in text, key
        assert "temat:przegląd" not in text, key
        assert "Po końcu" not in text and "po końcu" not in text, key
    assert t_in("pl", "result.winner", who="Żółty", vp=22) == "🏆 Żółty wygrywa, zdobywając 22 PZ!"
    assert t_in("pl", "act.name_city_terrain", terrain="łąka") == "Miasto liczy się jako łąka"
    assert "Atak albo Budowę miasta" in pl["rules.overview"]
    assert pl["help.attack"].startswith("**Atak**")
