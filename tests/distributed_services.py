"""Processes of the distributed check (tests/distributed_check.py): Postgres and Redis in a temp
folder, Celery workers, the daemon. Each starts in its own session, so killing its process group
takes its children along (a Celery worker's pool, the daemon's code server and run workers);
`stop_all` ends every group it started, newest first, also when the check fails."""
from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path


class ServiceError(RuntimeError):
    """A service did not start; the message carries the end of its log."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(probe, timeout_s: float, what: str, log: Path | None = None, proc=None) -> None:
    deadline = time.monotonic() + timeout_s
    last = ""
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            break
        try:
            if probe():
                return
        except Exception as exc:  # noqa: BLE001 - not up yet
            last = f"{type(exc).__name__}: {exc}"
        time.sleep(0.5)
    tail = "\n".join(log.read_text(errors="replace").splitlines()[-15:]) if log and log.exists() else ""
    raise ServiceError(f"{what} did not start within {timeout_s:.0f}s ({last})\n{tail}")


def postgres_bin(name: str) -> str | None:
    found = shutil.which(name) or sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found if isinstance(found, str) else (found[-1] if found else None)


class Services:
    def __init__(self, root: Path):
        self.root = root
        self.procs: dict[str, subprocess.Popen] = {}

    def start(self, name: str, args: list[str], env: dict | None = None, cwd: Path | None = None) -> subprocess.Popen:
        log = self.root / f"{name}.log"
        with log.open("ab") as out:
            proc = subprocess.Popen(args, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
        self.procs[name] = proc
        return proc

    def kill(self, name: str, sig: int = signal.SIGKILL, wait_s: float = 15) -> None:
        proc = self.procs.pop(name, None)
        if proc is None:
            return
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=wait_s)
        if sig != signal.SIGKILL:  # stragglers of the group (a child that ignored the signal)
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def stop_all(self) -> None:
        """SIGTERM to every group at once (newest first), a short grace, then SIGKILL to what is left."""
        names = list(reversed(list(self.procs)))
        for name in names:
            try:
                os.killpg(self.procs[name].pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(self.procs[n].poll() is None for n in names):
            time.sleep(0.2)
        for name in names:
            self.kill(name, signal.SIGKILL)

    # --- the two stores ---------------------------------------------------------------------------
    def start_postgres(self, port: int) -> str:
        """A throwaway cluster with trust auth on 127.0.0.1; its URL names the psycopg2 driver."""
        initdb, postgres = postgres_bin("initdb"), postgres_bin("postgres")
        if not initdb or not postgres:
            raise ServiceError("no PostgreSQL server binaries (apt-get install postgresql)")
        data, sockets = self.root / "pg", self.root / "pg-socket"
        data.mkdir()
        sockets.mkdir()
        as_user: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root: run the cluster as the postgres user
            shutil.chown(data, "postgres")
            shutil.chown(sockets, "postgres")
            os.chmod(self.root, 0o755)
            as_user = ["runuser", "-u", "postgres", "--"]
        init_log = self.root / "initdb.log"
        with init_log.open("wb") as out:
            code = subprocess.run([*as_user, initdb, "-D", str(data), "-U", "mmeb", "--auth=trust", "-E", "UTF8"],
                                  stdout=out, stderr=subprocess.STDOUT, timeout=180).returncode
        if code != 0:
            raise ServiceError(f"initdb failed (rc={code}): {init_log.read_text(errors='replace')[-800:]}")
        proc = self.start("postgres", [*as_user, postgres, "-D", str(data), "-p", str(port), "-k", str(sockets),
                                       "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
                                       "-c", "max_connections=200"])
        url = f"postgresql+psycopg2://mmeb@127.0.0.1:{port}/postgres"

        def ready() -> bool:
            import psycopg2

            psycopg2.connect(host="127.0.0.1", port=port, user="mmeb", dbname="postgres").close()
            return True

        wait_until(ready, 90, "postgres", self.root / "postgres.log", proc)
        return url

    def start_redis(self, port: int) -> str:
        server = shutil.which("redis-server")
        if not server:
            raise ServiceError("no redis-server (apt-get install redis-server)")
        (self.root / "redis").mkdir()
        proc = self.start("redis", [server, "--port", str(port), "--bind", "127.0.0.1", "--dir",
                                    str(self.root / "redis"), "--save", "", "--appendonly", "no"])

        def ready() -> bool:
            import redis

            return bool(redis.Redis(host="127.0.0.1", port=port, socket_timeout=2).ping())

        wait_until(ready, 60, "redis", self.root / "redis.log", proc)
        return f"redis://127.0.0.1:{port}"
