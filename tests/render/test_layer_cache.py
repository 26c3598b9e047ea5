"""The map layer cache: bounded by bytes in memory, shared on disk, never stale."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from PIL import Image

from engine import new_game, view
from render import layer_cache
from render.board import palette, render_board
from render.layer_cache import LayerCache
from render.terrain_layer import map_key, terrain_layer

ROOT = Path(__file__).resolve().parents[2]


def _img(shade: int, size: tuple[int, int] = (100, 50)) -> Image.Image:
    return Image.new("RGB", size, (shade, shade, shade))


def _maker(calls: list[str], key: str, shade: int = 10):
    def make() -> Image.Image:
        calls.append(key)
        return _img(shade)
    return make


def test_memory_is_bounded_by_bytes_not_count(tmp_path: Path) -> None:
    one = 100 * 50 * 3
    cache = LayerCache(None, memory_bytes=2 * one + 10)
    calls: list[str] = []
    for key in "abc":
        cache.get(key, _maker(calls, key))
    assert len(cache) == 2 and cache.used_bytes <= 2 * one + 10
    cache.get("b", _maker(calls, "b"))  # still there
    cache.get("a", _maker(calls, "a"))  # the oldest went first: drawn again
    assert calls == ["a", "b", "c", "a"]
    small = LayerCache(None, memory_bytes=40 * one)
    for k in range(30):
        small.get(str(k), _maker(calls, str(k)))
    assert len(small) == 30  # many small layers fit where a count limit of 16 would not


def test_disk_is_shared_between_processes_and_survives_restarts(tmp_path: Path) -> None:
    calls: list[str] = []
    first = LayerCache(tmp_path, 1 << 20)
    img = first.get("m1", _maker(calls, "m1", 77))
    assert (tmp_path / "m1.png").exists()
    second = LayerCache(tmp_path, 1 << 20)  # another worker, or after a restart
    again = second.get("m1", _maker(calls, "m1"))
    assert calls == ["m1"] and second.disk_hits == 1
    assert again.tobytes() == img.tobytes() and again.mode == img.mode
    assert not list(tmp_path.glob("*.tmp"))


def test_maps_still_being_built_stay_off_disk(tmp_path: Path) -> None:
    cache = LayerCache(tmp_path, 1 << 20)
    cache.get("partial", _maker([], "partial"), persist=False)
    assert not list(tmp_path.iterdir())


def test_a_damaged_file_is_drawn_again(tmp_path: Path) -> None:
    (tmp_path / "bad.png").write_bytes(b"not a png")
    calls: list[str] = []
    img = LayerCache(tmp_path, 1 << 20).get("bad", _maker(calls, "bad", 5))
    assert calls == ["bad"] and img.getpixel((0, 0)) == (5, 5, 5)
    with Image.open(tmp_path / "bad.png") as f:  # replaced by a good one
        assert f.size == (100, 50)


def test_a_file_that_does_not_fit_is_drawn_again(tmp_path: Path) -> None:
    _img(1, (3, 3)).save(tmp_path / "odd.png")
    calls: list[str] = []
    img = LayerCache(tmp_path, 1 << 20).get("odd", _maker(calls, "odd"),
                                            valid=lambda im: im.size == (100, 50))
    assert calls == ["odd"] and img.size == (100, 50)


def test_an_unwritable_directory_keeps_layers_in_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cache = LayerCache(blocker / "sub", 1 << 20)  # cannot be created
    calls: list[str] = []
    cache.get("k", _maker(calls, "k"))
    cache.get("k", _maker(calls, "k"))
    assert calls == ["k"]


def test_disk_is_trimmed_least_recently_used_first(tmp_path: Path) -> None:
    cache = LayerCache(tmp_path, 1 << 20, disk_bytes=1)
    for k in range(4):
        cache.get(f"k{k}", _maker([], f"k{k}"))
        os.utime(tmp_path / f"k{k}.png", (1000 + k, 1000 + k))
    size = (tmp_path / "k0.png").stat().st_size
    cache.disk_bytes = 2 * size
    cache.trim()
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["k2.png", "k3.png"]


def test_settings_from_the_environment(tmp_path: Path) -> None:
    off = LayerCache.from_env({"TEMPUS_RENDER_CACHE": "off"})
    assert off.directory is None
    c = LayerCache.from_env({"TEMPUS_RENDER_CACHE": str(tmp_path), "TEMPUS_RENDER_CACHE_MB": "8",
                             "TEMPUS_RENDER_DISK_MB": "1"})
    assert c.directory == tmp_path and c.memory_bytes == 8 << 20 and c.disk_bytes == 1 << 20
    default = LayerCache.from_env({})
    assert default.directory is not None and default.directory.name == "tempus-render-cache"


def test_map_keys() -> None:
    a = tuple(new_game(4, 1, random_map=True)[0].terrain)
    b = tuple(new_game(4, 2, random_map=True)[0].terrain)
    pal = palette()
    assert map_key(a, pal) == map_key(tuple(a), pal) != map_key(b, pal)
    other = Image.new("P", (1, 1))
    other.putpalette([1, 2, 3] * 256)
    assert map_key(a, other) != map_key(a, pal)  # another palette: another file


def test_a_worker_process_reuses_layers_another_one_drew(tmp_path: Path) -> None:
    """Two processes on one cache directory: the second finds the map on disk."""
    state, _ = new_game(5, 123, random_map=True)
    code = ("import json,sys\nfrom engine import view\nfrom engine.state import State\n"
            "from render.board import render_board\nfrom render import layer_cache\n"
            "s = State.from_json(json.loads(sys.stdin.read()))\n"
            "png = render_board(view(s, None))\nc = layer_cache.layer_cache()\n"
            "print(c.misses, c.disk_hits, len(png))\n")
    env = {**os.environ, "TEMPUS_RENDER_CACHE": str(tmp_path), "PYTHONPATH": str(ROOT)}
    data = json.dumps(state.to_json())
    runs = []
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True,
                             text=True, env=env, cwd=ROOT, timeout=120, check=True)
        runs.append(out.stdout.split())
    (miss1, hit1, n1), (miss2, hit2, n2) = runs
    # the first process drew the map, the second found it on disk
    assert (int(miss1), int(hit1), int(miss2), int(hit2)) == (1, 0, 0, 1)
    assert n1 == n2
    v = view(state, None)
    saved = layer_cache.layer_cache()
    layer_cache.set_layer_cache(LayerCache(tmp_path, 1 << 20))
    try:
        assert len(render_board(v)) == int(n1)
        assert layer_cache.layer_cache().disk_hits == 1
        assert terrain_layer(tuple(v["terrain"]), palette()).mode == "P"
    finally:
        layer_cache.set_layer_cache(saved)
