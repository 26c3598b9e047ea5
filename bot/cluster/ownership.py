"""Which process works for a game: the one whose gateway shards include the game's server.

Discord sends a server's events to shard ``(guild_id >> 22) % shard_count``, and events
without a server (DMs) to shard 0. The process running that shard is the game's owner: it
runs the computer players, the deadlines and the board posts. Any process may still accept
an action (DM clicks all arrive on shard 0); it then tells the owner (``bot.store.pg_notify``).
"""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives ``guild_id``'s events (Discord's formula); DMs: shard 0."""
    if guild_id is None:
        return 0
    return (guild_id >> 22) % shard_count


def parse_shards(text: str) -> list[int]:
    """``"0-3"``, ``"4,6,7"``, ``"0-1,5"`` -> sorted shard ids; ValueError with a readable
    message for anything else."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        lo, dash, hi = part.partition("-")
        try:
            a = int(lo)
            b = int(hi) if dash else a
        except ValueError:
            raise ValueError(f"TEMPUS_SHARDS: {part!r} is not a shard id or a range like "
                             "0-3") from None
        if a < 0 or b < a:
            raise ValueError(f"TEMPUS_SHARDS: {part!r} is not a range of shard ids "
                             "(like 0-3)")
        ids.update(range(a, b + 1))
    if not ids:
        raise ValueError("TEMPUS_SHARDS is empty; give shard ids like 0-3")
    return sorted(ids)


@dataclass(frozen=True)
class Ownership:
    """The shards this process runs; ``shard_ids`` None: all of them (the only process)."""

    shard_ids: frozenset[int] | None = None
    shard_count: int | None = None

    def __post_init__(self) -> None:
        if self.shard_ids is None:
            return
        if self.shard_count is None or self.shard_count < 1:
            raise ValueError("TEMPUS_SHARDS needs TEMPUS_SHARD_COUNT (the total number of "
                             "shards over all processes)")
        bad = sorted(s for s in self.shard_ids if s >= self.shard_count)
        if bad:
            raise ValueError(f"TEMPUS_SHARDS: shard {bad[0]} does not exist with "
                             f"TEMPUS_SHARD_COUNT={self.shard_count} (ids are 0 to "
                             f"{self.shard_count - 1})")

    @classmethod
    def of(cls, shard_ids: list[int] | None, shard_count: int | None) -> Ownership:
        return cls(None if shard_ids is None else frozenset(shard_ids), shard_count)

    @property
    def everything(self) -> bool:
        """This process runs every shard (so it owns every game)."""
        return self.shard_ids is None or len(self.shard_ids) == self.shard_count

    def owns(self, guild_id: int | None) -> bool:
        if self.shard_ids is None:
            return True
        assert self.shard_count is not None
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    @property
    def share(self) -> float:
        """This process's part of the bot's work, by shards (1.0: the only process). The
        processes of one bot share its token, hence Discord's global request limit: each
        may use this part of it (bot.publish.request_pace)."""
        if self.shard_ids is None or not self.shard_count:
            return 1.0
        return len(self.shard_ids) / self.shard_count
