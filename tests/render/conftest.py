"""Render tests keep their map layer cache in a temporary directory of their own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from render import layer_cache


@pytest.fixture(autouse=True, scope="session")
def _own_layer_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    where = tmp_path_factory.mktemp("render-cache")
    layer_cache.set_layer_cache(layer_cache.LayerCache(where, 64 << 20))
    yield where
    layer_cache.set_layer_cache(None)
