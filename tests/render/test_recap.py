"""The recap picture (render/recap.py): with no marks it is the plain board; each mark
changes the pixels at its own hex and nowhere far from the marks; bad marks are refused;
only public fields are read."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from engine import view
from engine.hexgrid import NEIGHBOURS, NUM_HEXES
from engine.state import State
from render.board import board_image, render_board
from render.geometry import R, hex_centre
from render.recap import (
    Mark,
    city_spot,
    grow_spot,
    recap_image,
    recap_layout_of,
    render_recap,
)
from tests.engine.helpers import H, make_state
from tests.render.helpers import open_png


def _state() -> State:
    return make_state(3, land="C3:H9", tokens={"C3": (0, 2), "F5": (2, 2), "G8": (1, 1),
                                                "E7": (1, 3)}, cities={"H6": (2, 2)})


def _differs(a: Image.Image, b: Image.Image, xy: tuple[float, float], r: float) -> bool:
    x, y = round(xy[0]), round(xy[1])
    box = (x - round(r), y - round(r), x + round(r), y + round(r))
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


def test_no_marks_draws_the_plain_board() -> None:
    """The same picture, pixel for pixel (the two PNGs may be encoded differently: a
    palette's order is the encoder's business)."""
    v = view(_state(), None)
    recap, plain = open_png(render_recap(v, ())), open_png(render_board(v))
    assert recap.size == plain.size
    assert ImageChops.difference(recap.convert("RGBA"), plain.convert("RGBA")).getbbox() is None


MARKS = {
    "move": (Mark.MOVE, H("E5"), H("F5")),
    "fight": (Mark.FIGHT, H("E7"), H("E8")),
    "grow": (Mark.GROW, H("G8"), 2),
    "city": (Mark.CITY, H("H6")),
}


@pytest.mark.parametrize("kind", list(MARKS))
def test_each_mark_changes_its_hex_and_nothing_far_away(kind: str) -> None:
    v = view(_state(), None)
    mark = MARKS[kind]
    plain = board_image(v)
    marked = recap_image(v, (mark,))
    assert recap_layout_of(v, (mark,)).size == plain.size  # same land, same frame
    lay = recap_layout_of(v, (mark,))
    sx, sy = lay.shift

    def at(xy: tuple[float, float]) -> tuple[float, float]:
        return xy[0] + sx, xy[1] + sy

    if kind in ("move", "fight"):
        (x0, y0), (x1, y1) = hex_centre(mark[1]), hex_centre(mark[2])
        assert _differs(plain, marked, at(((x0 + x1) / 2, (y0 + y1) / 2)), 6)  # the shaft
    if kind == "fight":
        assert _differs(plain, marked, at(hex_centre(mark[2])), 0.9 * R)  # outline, swords
    if kind == "grow":
        assert _differs(plain, marked, at(grow_spot(mark[1])), 4)  # the +2 disc
    if kind == "city":
        cx, cy = city_spot(mark[1])
        assert _differs(plain, marked, at((cx, cy - 0.55 * R)), 3)  # the ring above it
    # hexes at least two steps from the marked ones are untouched
    near = set(mark[1:3] if kind != "grow" else mark[1:2])
    near |= {n for h in list(near) for n in NEIGHBOURS[h]}
    far = [h for h in range(NUM_HEXES) if h not in near
           and lay.x0 + R < hex_centre(h)[0] < lay.x0 + lay.width - R
           and lay.y0 + R < hex_centre(h)[1] < lay.y0 + lay.map_h - R]
    assert far
    for h in far:
        assert not _differs(plain, marked, at(hex_centre(h)), 0.5 * R), h


def test_all_marks_at_once_and_the_png() -> None:
    v = view(_state(), None)
    png = render_recap(v, tuple(MARKS.values()))
    img = open_png(png)
    assert img.size == board_image(v).size
    assert png != render_board(v)


def test_a_mark_outside_the_land_widens_the_picture() -> None:
    v = view(_state(), None)
    far = (Mark.MOVE, H("L11"), H("M12"))
    plain = recap_layout_of(v, ())
    wide = recap_layout_of(v, (far,))
    assert plain.box == recap_layout_of(v, tuple(MARKS.values())).box  # all on the land
    assert wide.x0 + wide.width > plain.x0 + plain.width
    assert wide.y0 + wide.map_h > plain.y0 + plain.map_h


@pytest.mark.parametrize("bad", [(), (9, 1), (Mark.MOVE, 1), (Mark.GROW, 1, 0),
                                 (Mark.CITY, NUM_HEXES), (Mark.MOVE, -1, 2),
                                 (Mark.CITY, True)])
def test_bad_marks_are_refused(bad: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        render_recap(view(_state(), None), (bad,))


def test_a_seat_view_draws_the_public_picture() -> None:
    s = _state()
    marks = tuple(MARKS.values())
    public = render_recap(view(s, None), marks)
    for seat in range(3):
        assert render_recap(view(s, seat), marks) == public


def _ink(img: Image.Image, box: tuple[float, float, float, float]) -> set[tuple[int, int]]:
    """The pixels of a hex label's dark ink inside ``box``."""
    from render.terrain_layer import LABEL_INK

    x0, y0, x1, y1 = (round(c) for c in box)
    px = img.load()
    return {(x, y) for x in range(x0, x1) for y in range(y0, y1) if px[x, y] == LABEL_INK}


@pytest.mark.parametrize("mark", [(Mark.CITY, H("H6")), (Mark.MOVE, H("C3"), H("G8")),
                                  (Mark.FIGHT, H("F5"), H("E5")), (Mark.GROW, H("G8"), 2)])
def test_marks_leave_hex_labels_and_stacks_readable(mark: tuple[int, ...]) -> None:
    """A ring, an arrow, swords or a ``+n`` drawn over a hex label prints the label again
    on top; a long arrow passes under the stacks it crosses, not over them."""
    from render.geometry import token_swatch
    from render.terrain_layer import label_box

    v = view(_state(), None)
    plain, marked = board_image(v), recap_image(v, (mark,))
    sx, sy = recap_layout_of(v, (mark,)).shift
    for h in range(NUM_HEXES):
        x0, y0, x1, y1 = label_box(h)
        box = (x0 + sx, y0 + sy, x1 + sx, y1 + sy)
        if box[0] >= 0 and box[2] < plain.size[0] and box[1] >= 0 and box[3] < plain.size[1]:
            assert _ink(plain, box) <= _ink(marked, box), h
    for h in (H("E7"), H("F5")):  # stacks under or beside the long arrow
        x, y = token_swatch(h)
        assert plain.getpixel((round(x + sx), round(y + sy))) == \
            marked.getpixel((round(x + sx), round(y + sy))), h
