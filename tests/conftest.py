"""Suite-wide hooks: with several workers (pytest-xdist, ``-n`` in pyproject.toml), the
tests that keep real time (``real_time``: a bot in another process, minutes of real
waiting) start first, so that the rest of the suite runs on the other workers meanwhile
instead of after them."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not getattr(config.option, "numprocesses", None):
        return
    items.sort(key=lambda item: item.get_closest_marker("real_time") is None)  # stable
