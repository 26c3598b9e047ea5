"""A throw-away PostgreSQL server for the tests and benchmarks (real binaries, no Docker).

``initdb`` into a fresh temporary directory, ``pg_ctl start`` on a free localhost port with
``trust`` authentication, ``pg_ctl stop`` and delete afterwards. PostgreSQL refuses to run
as root (CI does run as root): then the server runs as the unprivileged system user
``nobody`` (created as ``tempus-pg`` with ``useradd`` if a machine has no ``nobody``).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Any

USER = "tempus"


def pg_bin_dir() -> Path | None:
    """Where ``initdb`` and ``pg_ctl`` are: ``$PG_BIN``, the newest
    ``/usr/lib/postgresql/*/bin``, or ``PATH``; None if nowhere."""
    candidates: list[Path] = []
    if os.environ.get("PG_BIN"):
        candidates.append(Path(os.environ["PG_BIN"]))
    found = glob.glob("/usr/lib/postgresql/*/bin")
    found.sort(key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0,
               reverse=True)
    candidates += [Path(p) for p in found]
    which = shutil.which("pg_ctl")
    if which:
        candidates.append(Path(which).parent)
    for c in candidates:
        if (c / "initdb").exists() and (c / "pg_ctl").exists():
            return c
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _server_account() -> tuple[int, int] | None:
    """(uid, gid) to run the server as, or None to run it as ourselves (not root)."""
    if os.geteuid() != 0:
        return None
    for name in ("nobody", "tempus-pg"):
        with contextlib.suppress(KeyError):
            entry = pwd.getpwnam(name)
            return entry.pw_uid, entry.pw_gid
    subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                    "tempus-pg"], check=True, capture_output=True)
    entry = pwd.getpwnam("tempus-pg")
    return entry.pw_uid, entry.pw_gid


class PgServer:
    def __init__(self, bindir: Path, *, durable: bool = False,
                 stat_statements: bool = False) -> None:
        """``durable``: fsync on as in production (benchmarks); off for tests (speed).
        ``stat_statements``: load ``pg_stat_statements`` (with planning time) so that a
        benchmark can read the server's time per statement (``CREATE EXTENSION
        pg_stat_statements`` in its database)."""
        self.bindir = bindir
        self.durable = durable
        self.stat_statements = stat_statements
        self.root: Path | None = None
        self.port = 0
        self._account = _server_account()

    def _run(self, *cmd: str, server: bool = True, **kw: Any) -> subprocess.CompletedProcess[str]:
        extra: dict[str, Any] = {}
        if server and self._account is not None:
            uid, gid = self._account
            extra = {"user": uid, "group": gid, "extra_groups": []}
        env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
        proc = subprocess.run([str(self.bindir / cmd[0]), *cmd[1:]], cwd=self.root, env=env,
                              capture_output=True, text=True, **extra, **kw)
        if proc.returncode != 0:
            raise RuntimeError(f"{cmd[0]} failed ({proc.returncode}): {proc.stderr.strip()}"
                               f"{self._log_tail()}")
        return proc

    def _log_tail(self) -> str:
        if self.root is None or not (self.root / "log").exists():
            return ""
        return "\nserver log:\n" + "\n".join(
            (self.root / "log").read_text(errors="replace").splitlines()[-20:])

    def start(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="tempus-pg-"))
        if self._account is not None:
            os.chown(self.root, *self._account)
        data = str(self.root / "data")
        self._run("initdb", "-D", data, "-U", USER, "-A", "trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        options = ["-p {port}", f"-k {self.root}", "-c listen_addresses=127.0.0.1",
                   "-c max_connections=200", "-c shared_buffers=64MB"]
        if self.stat_statements:
            options += ["-c shared_preload_libraries=pg_stat_statements",
                        "-c pg_stat_statements.track_planning=on"]
        if not self.durable:
            options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        for attempt in range(5):  # a free port may be taken before the server binds it
            self.port = _free_port()
            try:
                self._run("pg_ctl", "-D", data, "-l", str(self.root / "log"), "-w", "-t", "60",
                          "-o", " ".join(options).format(port=self.port), "start")
                return
            except RuntimeError:
                if attempt == 4:
                    raise

    def postmaster_pid(self) -> int | None:
        """The server's main process (its backends are its children); None if stopped."""
        if self.root is None:
            return None
        try:
            return int((self.root / "data" / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, name,
                  server=False)
        return self.url(name)

    def stop(self) -> None:
        if self.root is None:
            return
        with contextlib.suppress(RuntimeError):
            self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = None
