"""Data files and hex geometry (docs/components.md; R-SETUP-1, R-CARD-4, R-ERA-1, R-ERA-2,
R-MOVE-9)."""

from collections import Counter

import pytest

from engine.content import CONTENT, load_content
from engine.geography import geography
from engine.hexgrid import EDGE, NEIGHBOURS, NUM_HEXES, distance, label, parse_label, tile_hexes
from tests.engine.helpers import H


def test_content_counts_r_card_4_r_setup_1():
    """R-CARD-4 / R-SETUP-1: 54 cards = 9 types x 6; 12 tiles x 7 hexes; 8 cities; 16 tokens."""
    c = load_content()
    assert len(c.cards) == 54
    assert Counter(x.type for x in c.cards) == {k: 6 for k in c.card_types}
    assert len(c.tiles) == 12 and all(len(t.ring) == 6 for t in c.tiles)
    letters = Counter(x for t in c.tiles for x in (t.centre, *t.ring))
    assert letters == {"M": 22, "G": 16, "H": 16, "W": 15, "F": 15}
    assert c.city_values == (2, 2, 2, 3, 3, 3, 4, 4)
    assert c.tokens_per_player == 16
    assert Counter(x.terrain for x in c.cards) == {"G": 14, "F": 14, "W": 13, "H": 13}


def test_era_table_r_era_1_r_era_2():
    """R-ERA-1: the era table as printed; R-ERA-2: each era has a non-mountain terrain."""
    e = CONTENT.eras
    assert [x.name for x in e][0] == "Starting box" and e[-1].name == "Flight"
    assert [(x.move, x.distance, x.growth, x.stack, x.sea, x.draw, x.limit, x.actions)
            for x in e[:10]] == [
        (1, 1, 1, 2, False, 1, 5, 3), (1, 1, 1, 2, False, 2, 5, 3),
        (1, 1, 2, 2, False, 2, 5, 3), (1, 1, 2, 3, False, 2, 5, 4),
        (1, 2, 2, 3, False, 2, 5, 4), (2, 2, 2, 3, False, 2, 5, 4),
        (2, 2, 2, 3, True, 2, 5, 5), (2, 2, 2, 3, True, 2, 7, 5),
        (2, 2, 2, 4, True, 2, 7, 6), (3, 5, 2, 4, True, 2, 7, 6)]
    assert all(x.terrain in "GFWH" for x in e[1:])
    assert (e[1].terrain, e[2].terrain, e[6].terrain) == ("F", "H", "W")


def test_labels_round_trip_and_parse_forms():
    assert [label(h) for h in (0, 12, 143, 155)] == ["A1", "M1", "A12", "M12"]
    assert all(parse_label(label(h)) == h for h in range(NUM_HEXES))
    assert parse_label("c04") == parse_label("C4")
    for bad in ("N1", "A13", "A0", "4C", "", "hello"):
        with pytest.raises(ValueError):
            parse_label(bad)


def test_neighbours_odd_r():
    assert sorted(label(n) for n in NEIGHBOURS[H("B2")]) == ["A2", "B1", "B3", "C1", "C2", "C3"]
    assert sorted(label(n) for n in NEIGHBOURS[H("B3")]) == ["A2", "A3", "A4", "B2", "B4", "C3"]
    assert all(a in NEIGHBOURS[b] for a in range(NUM_HEXES) for b in NEIGHBOURS[a])
    assert len(NEIGHBOURS[H("A1")]) == 2 and H("A1") in EDGE and H("F6") not in EDGE
    assert distance(H("A1"), H("C1")) == 2


def test_tile_hexes_rotation():
    """A tile's ring starts east and turns clockwise with the rotation."""
    hexes = tile_hexes(H("E5"), 0)
    assert hexes is not None
    assert [label(h) for h, _ in hexes] == ["E5", "F5", "E6", "D6", "D5", "D4", "E4"]
    rot1 = tile_hexes(H("E5"), 1)
    assert rot1 is not None and label(rot1[1][0]) == "E6"  # ring entry 0 now SE
    assert tile_hexes(H("A1"), 0) is None


def test_geography_lakes_open_sea_and_edge_r_move_9():
    """Lakes are enclosed sea; open sea touches the edge; edge land is coastal (R-MOVE-9)."""
    ter = [None] * NUM_HEXES
    for h in range(NUM_HEXES):
        if 1 <= h % 13 <= 11 and 1 <= h // 13 <= 10:
            ter[h] = "G"
    ter[H("F6")] = None  # an enclosed lake of one hex
    ter[H("H8")] = ter[H("I8")] = None  # a second lake of two hexes
    geo = geography(ter)
    assert len(geo.lakes) == 2
    assert geo.lakes[0] == {H("F6")} and geo.lakes[1] == {H("H8"), H("I8")}
    assert geo.lakeshores[0] == set(NEIGHBOURS[H("F6")])
    assert H("B2") in geo.coastal and H("E5") not in geo.coastal
    # land on the board edge counts as coastal even with no sea beside it
    full = ["G"] * NUM_HEXES
    g2 = geography(full)
    assert g2.coastal == EDGE and not g2.lakes and not g2.open_sea
