"""Discord's REST rate limits for :mod:`tests.bot.fake_discord`: buckets, their headers, the
429 answer, and a log of every write so tests can measure how fast the bot wrote.

What Discord documents (developers/topics/rate-limits): per-route buckets that count per
top-level resource (the channel id for ``/channels/{id}/...``), announced on every answer with
``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch seconds), ``-Reset-After`` (seconds)
and ``-Bucket`` (one hash per route, not per channel); a bucket resets all at once when its
window ends. A refused request gets HTTP 429 with ``{"message", "retry_after", "global"}``,
``Retry-After`` and ``X-RateLimit-Scope`` (``user``, ``global`` or ``shared``). Every bot may
make 50 requests per second in all (the global limit); interaction endpoints
(``/interactions/...`` and ``/webhooks/{app}/{token}...``) are not bound to it.

What Discord does not document and the fake takes as configurable defaults: 5 message posts
per 5 s per channel, and 5 message edits per 5 s per channel in a bucket of their own (the
docs only say per-route limits "may include the HTTP method"; ``shared_edits=True`` makes
edits count against the posting bucket instead), and 5 requests per 2 s per interaction token
for webhook follow-ups (the docs say interaction webhooks "share the same rate limit
properties as normal webhooks" without numbers).

discord.py 2.7.1 (``discord/http.py``) reads ``X-Ratelimit-Limit``, ``-Remaining``,
``-Reset-After`` (or ``-Reset``) and ``-Bucket`` to pace itself, and on a 429 sleeps
``retry_after`` from the body and retries (up to 5 tries), but only when the answer carries a
``Via`` header; a 429 without it is taken for a Cloudflare ban and raised. Real Discord
answers with ``Via: 1.1 google``, and so does the fake. Its webhook adapter (interaction
follow-ups) does the same with ``Remaining == "0"`` and ``Reset-After``.
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass, field

#: the kinds of write the log knows
POST, EDIT = "post", "edit"


def loop_time() -> float:
    """The fake's time base: the running event loop's clock, which the bot's pacing and
    discord.py's rate limiting read too (so that a loop whose clock skips idle waits,
    tests/bot/virtual_time.py, moves all of them alike); ``time.monotonic()`` outside one
    (the same clock as a standard loop's)."""
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()


@dataclass
class Bucket:
    """A fixed window: ``limit`` requests, then refused until ``per`` seconds after the
    window's first request (Discord's buckets reset whole, they do not slide)."""

    limit: int
    per: float
    name: str
    start: float | None = None
    used: int = 0

    def _roll(self, now: float) -> None:
        if self.start is None or now >= self.start + self.per:
            self.start, self.used = now, 0

    def take(self, now: float) -> bool:
        """Count one request if the window has room; False if it must be refused."""
        self._roll(now)
        if self.used >= self.limit:
            return False
        self.used += 1
        return True

    def reset_after(self, now: float) -> float:
        self._roll(now)
        assert self.start is not None
        return max(0.0, self.start + self.per - now)

    def headers(self, now: float) -> dict[str, str]:
        after = self.reset_after(now)
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(0, self.limit - self.used)),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": self.name,
        }


@dataclass(frozen=True)
class Write:
    """One write the fake accepted: when (fake clock), where, what."""

    t: float
    channel_id: int
    kind: str  # POST or EDIT
    message_id: int
    #: True for interaction callbacks and webhook follow-ups (not the channel routes)
    interaction: bool = False
    #: files uploaded with it (a board write carries the board's picture)
    files: int = 0


@dataclass(frozen=True)
class Refusal:
    """One 429 the fake answered."""

    t: float
    route: str
    channel_id: int | None
    scope: str
    is_global: bool
    retry_after: float


@dataclass
class Fault:
    """Forced answers for the next ``count`` requests of ``route`` to a channel."""

    status: int
    count: int
    route: str  # POST, EDIT or "any"
    retry_after: float


@dataclass
class Limits:
    """The fake's rate limits (constructor arguments of :class:`FakeDiscord`)."""

    post_limit: int = 5
    post_per: float = 5.0
    edit_limit: int = 5
    edit_per: float = 5.0
    shared_edits: bool = False
    global_limit: int = 50
    global_per: float = 1.0
    webhook_limit: int = 5
    webhook_per: float = 2.0
    #: turn rate limiting off entirely (the log still records every write)
    enabled: bool = True


@dataclass
class RateLimiter:
    limits: Limits
    buckets: dict[tuple[str, int | str], Bucket] = field(default_factory=dict)
    global_bucket: Bucket | None = None
    writes: list[Write] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    faults: dict[int, list[Fault]] = field(default_factory=dict)
    #: forced answers that were given: (time, channel id, route, status)
    faulted: list[tuple[float, int, str, int]] = field(default_factory=list)

    def bucket(self, route: str, key: int | str) -> Bucket:
        lim = self.limits
        if route == EDIT and lim.shared_edits:
            route = POST
        spec = {POST: (lim.post_limit, lim.post_per),
                EDIT: (lim.edit_limit, lim.edit_per),
                "webhook": (lim.webhook_limit, lim.webhook_per)}[route]
        b = self.buckets.get((route, key))
        if b is None:
            b = self.buckets[(route, key)] = Bucket(*spec, name=f"fake-{route}")
        return b

    def check_global(self, now: float) -> Refusal | None:
        lim = self.limits
        if not lim.enabled:
            return None
        if self.global_bucket is None:
            self.global_bucket = Bucket(lim.global_limit, lim.global_per, "global")
        if self.global_bucket.take(now):
            return None
        r = Refusal(now, "global", None, "global", True, self.global_bucket.reset_after(now))
        self.refusals.append(r)
        return r

    def check_route(self, now: float, route: str, key: int | str, channel_id: int | None
                    ) -> tuple[Bucket | None, Refusal | None]:
        """The bucket of a request (for its headers) and a refusal if it is over."""
        if not self.limits.enabled:
            return None, None
        b = self.bucket(route, key)
        if b.take(now):
            return b, None
        r = Refusal(now, route, channel_id, "user", False, b.reset_after(now))
        self.refusals.append(r)
        return b, r

    def fault(self, now: float, channel_id: int, route: str) -> Fault | None:
        queue = self.faults.get(channel_id) or []
        for f in queue:
            if f.route in (route, "any"):
                f.count -= 1
                if f.count <= 0:
                    queue.remove(f)
                self.faulted.append((now, channel_id, route, f.status))
                return f
        return None

    def record(self, w: Write) -> None:
        self.writes.append(w)

    # ------------------------------------------------------------------ measures
    def times(self, channel_id: int | None, kinds: tuple[str, ...], interactions: bool
              ) -> dict[int, list[float]]:
        out: dict[int, list[float]] = {}
        for w in self.writes:
            if w.kind not in kinds or (w.interaction and not interactions):
                continue
            if channel_id is not None and w.channel_id != channel_id:
                continue
            out.setdefault(w.channel_id, []).append(w.t)
        return out

    def max_in_window(self, channel_id: int | None, window: float, kinds: tuple[str, ...],
                      interactions: bool) -> int:
        """The most writes in any ``window`` seconds (a sliding window, so stricter than
        Discord's fixed buckets), in one channel or the busiest one."""
        best = 0
        for ts in self.times(channel_id, kinds, interactions).values():
            ts.sort()
            lo = 0
            for hi, t in enumerate(ts):
                while t - ts[lo] >= window:
                    lo += 1
                best = max(best, hi - lo + 1)
        return best


def too_many(r: Refusal, bucket: Bucket | None, now: float, *, message: str | None = None,
             code: int | None = None) -> tuple[dict[str, object], dict[str, str]]:
    """The 429 body and headers Discord sends for ``r``."""
    body: dict[str, object] = {"message": message or "You are being rate limited.",
                               "retry_after": round(r.retry_after, 3), "global": r.is_global}
    if code is not None:
        body["code"] = code
    headers = {"Retry-After": str(max(1, math.ceil(r.retry_after))),
               "X-RateLimit-Scope": r.scope}
    if r.is_global:
        headers["X-RateLimit-Global"] = "true"
    elif bucket is not None:
        headers.update(bucket.headers(now))
    return body, headers
