"""The annotation web app on the standard library's `http.server`.

Routes: `/` (annotators), `/a/<annotator>/` (resume at the first unjudged item), `/a/<annotator>/item/<id>`
(GET the item, POST a judgment), `/a/<annotator>/item-list`, `/image/<project>/<record id>`, `/guidelines`,
`/static/*`.

Errors: unknown annotator / item / image -> 404 naming it; a malformed form -> 400 naming the field; a stale
form whose content differs from the saved judgment -> 409 and the saved judgment is kept; the same form
submitted twice -> idempotent (the second submit changes nothing and redirects like the first).
When started with a token every request needs it (`?token=` once, then a cookie, or `X-MMEB-Token`).
"""
from __future__ import annotations

import hmac
import json
import mimetypes
import re
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator
from urllib.parse import parse_qs, quote, unquote, urlsplit

from mmeb_assets.annotation import db, views
from mmeb_assets.annotation.guidelines import guidelines_page
from mmeb_assets.annotation.guard import (FORM_TOKEN_FIELD, form_key, form_token, host_refusal, is_loopback,
                                          origin_refusal, own_hosts, token_matches)
from mmeb_assets.annotation.sampling import RECORDS_FILE, AnnotationInputError, load_records
from mmeb_assets.schema.records import Record

STATIC_DIR = Path(__file__).resolve().parent / "static"
STATIC_FILES = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}
MAX_FORM_BYTES = 64 * 1024
MAX_COMMENT_CHARS = 4000
FORM_FIELDS = {"c1": db.C1_VALUES, "c2": db.C2_VALUES, "c3": db.C3_VALUES}
TOKEN_COOKIE = "mmeb_token"


class HttpError(Exception):
    def __init__(self, status: HTTPStatus, message: str, link: tuple[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.link = link


@dataclass
class AnnotationApp:
    """What every request needs: the data home, the database file, and the optional token."""

    home: Path
    token: str | None = None
    quiet: bool = False
    hosts: frozenset[str] = frozenset()  # the Host values a loopback app answers (set by make_server)
    _records: dict[str, tuple[float, list[Record]]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _form_key: bytes | None = None

    @property
    def db_file(self) -> Path:
        return db.db_path(self.home)

    @property
    def form_key(self) -> bytes:
        """The home's form-token key, read once (made on first use) rather than on every request."""
        with self._lock:  # request threads: the key is made once
            if self._form_key is None:
                self._form_key = form_key(self.db_file.parent)
            return self._form_key

    def form_token(self, annotator: str, item_id: str) -> str:
        return form_token(self.form_key, annotator, item_id)

    @contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        conn = db.connect(self.db_file)
        try:
            yield conn
        finally:
            conn.close()

    def records(self, project: str) -> list[Record]:
        path = self.home / "projects" / project / RECORDS_FILE
        if not path.exists():
            return []
        mtime = path.stat().st_mtime
        with self._lock:
            cached = self._records.get(project)
            if cached and cached[0] == mtime:
                return cached[1]
        try:
            loaded = load_records(path)
        except AnnotationInputError as exc:
            raise HttpError(HTTPStatus.INTERNAL_SERVER_ERROR, str(exc)) from exc
        with self._lock:
            self._records[project] = (mtime, loaded)
        return loaded


def parse_judgment_form(body: bytes, annotator: str, item_id: str) -> tuple[db.Judgment, int]:
    """The assessment form -> (Judgment, base_revision); HttpError 400 naming the bad field."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HttpError(HTTPStatus.BAD_REQUEST, "form body is not UTF-8") from exc
    fields = parse_qs(text, keep_blank_values=True)
    unknown = sorted(set(fields) - {*FORM_FIELDS, "comment", "base_revision", FORM_TOKEN_FIELD})
    if unknown:
        raise HttpError(HTTPStatus.BAD_REQUEST, f"field {unknown[0]!r} is not part of the assessment form")
    values = {}
    for name, allowed in FORM_FIELDS.items():
        given = fields.get(name)
        if not given or given == [""]:
            raise HttpError(HTTPStatus.BAD_REQUEST, f"field {name!r} is missing: choose one of {', '.join(allowed)}")
        if len(given) > 1:
            raise HttpError(HTTPStatus.BAD_REQUEST, f"field {name!r} was given {len(given)} times")
        if given[0] not in allowed:
            raise HttpError(HTTPStatus.BAD_REQUEST,
                            f"field {name!r} has invalid value {given[0][:40]!r}: choose one of {', '.join(allowed)}")
        values[name] = given[0]
    comment = fields.get("comment", [""])
    if len(comment) > 1:
        raise HttpError(HTTPStatus.BAD_REQUEST, "field 'comment' was given more than once")
    if len(comment[0]) > MAX_COMMENT_CHARS:
        raise HttpError(HTTPStatus.BAD_REQUEST, f"field 'comment' is longer than {MAX_COMMENT_CHARS} characters")
    base = fields.get("base_revision")
    if not base or len(base) > 1 or not re.fullmatch(r"\d{1,9}", base[0]):
        raise HttpError(HTTPStatus.BAD_REQUEST, "field 'base_revision' is missing or not a whole number")
    judgment = db.Judgment(annotator, item_id, values["c1"], values["c2"], values["c3"], comment[0].strip())
    return judgment, int(base[0])


class Handler(BaseHTTPRequestHandler):
    server_version = "mmeb-annotate/1"
    app: AnnotationApp  # set on the subclass made by make_server

    # --- plumbing ---------------------------------------------------------------------------
    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        if not self.app.quiet:  # the query may hold the token: log paths without it
            super().log_message(format, *[str(a).split("?")[0] for a in args])

    def _send(self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "same-origin")  # own forms carry their Origin; others see nothing
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Security-Policy",
                         "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _html(self, status: int, text: str, headers: dict[str, str] | None = None) -> None:
        self._send(status, text.encode("utf-8"), "text/html; charset=utf-8", headers)

    def _redirect(self, location: str, headers: dict[str, str] | None = None) -> None:
        self._send(HTTPStatus.SEE_OTHER, b"", "text/plain", {"Location": location, **(headers or {})})

    def _error(self, error: HttpError) -> None:
        self._html(error.status, views.error_page(int(error.status), error.status.phrase, error.message, error.link),
                   {"X-MMEB-Error": json.dumps(error.message)[1:-1][:300]})

    def _authorized(self, query: dict[str, list[str]]) -> bool | str:
        """True, False, or the token given in the query (to be moved into a cookie)."""
        token = self.app.token
        if not token:
            return True
        given = [self.headers.get("X-MMEB-Token", "")]
        for part in (self.headers.get("Cookie") or "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == TOKEN_COOKIE:
                given.append(value)
        if any(hmac.compare_digest(g.encode(), token.encode()) for g in given if g):
            return True
        from_query = query.get("token", [""])[0]
        if from_query and hmac.compare_digest(from_query.encode(), token.encode()):
            return "query"
        return False

    def _dispatch(self, method: str) -> None:
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        try:
            refused = host_refusal(self.headers.get("Host", ""), self.app.hosts)
            if refused:
                raise HttpError(HTTPStatus.MISDIRECTED_REQUEST, refused)
            auth = self._authorized(query)
            if auth is False:
                raise HttpError(HTTPStatus.UNAUTHORIZED, "an access token is required: open the address printed by "
                                "`mmeb annotate` (it ends in ?token=...)")
            if auth == "query" and method == "GET":
                cookie = f"{TOKEN_COOKIE}={self.app.token}; HttpOnly; SameSite=Strict; Path=/"
                return self._redirect(parts.path or "/", {"Set-Cookie": cookie})
            segments = [unquote(s) for s in parts.path.split("/")[1:]]
            if method == "POST":
                return self._post(segments)
            return self._get(segments)
        except HttpError as error:
            self._error(error)
        except sqlite3.OperationalError as exc:
            self._error(HttpError(HTTPStatus.SERVICE_UNAVAILABLE, f"the annotation database is busy or unreadable "
                                  f"({exc}); nothing was changed, try again"))
        except Exception as exc:  # answer instead of dropping the connection; the traceback goes to the log
            self.log_error("internal error on %s: %r", parts.path, exc)
            self._error(HttpError(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error ({type(exc).__name__}: {exc}); "
                                  "saved judgments are unaffected"))

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self._dispatch("GET")

    def do_HEAD(self) -> None:  # noqa: N802
        self._dispatch("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._dispatch("POST")

    # --- routes -----------------------------------------------------------------------------
    def _get(self, seg: list[str]) -> None:
        if seg in ([""], []):
            return self._index()
        if seg == ["guidelines"]:
            return self._html(HTTPStatus.OK, guidelines_page())
        if len(seg) == 2 and seg[0] == "static" and seg[1] in STATIC_FILES:
            return self._send(HTTPStatus.OK, (STATIC_DIR / seg[1]).read_bytes(), STATIC_FILES[seg[1]])
        if len(seg) == 3 and seg[0] == "image":
            return self._image(seg[1], seg[2])
        if len(seg) >= 2 and seg[0] == "a":
            annotator = seg[1]
            with self.app.connection() as conn:
                self._require_annotator(conn, annotator)
                if seg[2:] in ([], [""]):
                    return self._resume(conn, annotator)
                if seg[2:] == ["item-list"]:
                    judged = db.judged_item_ids(conn, annotator)
                    rows = [(r.position, r.item_id, r.item_id in judged, str(r.item.get("task", "")))
                            for r in db.sample(conn)]
                    return self._html(HTTPStatus.OK, views.item_list_page(annotator, rows))
                if len(seg) == 4 and seg[2] == "item":
                    return self._item(conn, annotator, seg[3])
        raise HttpError(HTTPStatus.NOT_FOUND, f"no page at {self.path.split('?')[0]!r}")

    def _post(self, seg: list[str]) -> None:
        if not (len(seg) == 4 and seg[0] == "a" and seg[2] == "item"):
            raise HttpError(HTTPStatus.NOT_FOUND, f"nothing accepts a form at {self.path.split('?')[0]!r}")
        refused = origin_refusal(self.headers.get("Origin"), self.headers.get("Sec-Fetch-Site"),
                                 self.headers.get("Host", ""))
        if refused:
            raise HttpError(HTTPStatus.FORBIDDEN, refused)
        annotator, item_id = seg[1], seg[3]
        with self.app.connection() as conn:
            self._require_annotator(conn, annotator)
            if db.sample_item(conn, item_id) is None:
                raise HttpError(HTTPStatus.NOT_FOUND, f"unknown item id {item_id!r}: it is not in the annotation sample")
            body = self._read_form()
            given = parse_qs(body.decode("utf-8", "replace")).get(FORM_TOKEN_FIELD, [""])[0]
            if not token_matches(self.app.form_key, annotator, item_id, given):
                raise HttpError(HTTPStatus.FORBIDDEN, "the form does not carry this app's form token for this item, "
                                "so it did not come from the app's own page; nothing was saved",
                                (f"/a/{quote(annotator, safe='')}/item/{quote(item_id, safe='')}", "Open the item"))
            try:
                judgment, base = parse_judgment_form(body, annotator, item_id)
            except HttpError as error:
                error.link = error.link or (f"/a/{quote(annotator, safe='')}/item/{quote(item_id, safe='')}",
                                            "Back to the item")
                raise
            try:
                db.save_judgment(conn, judgment, base)
            except db.ConflictError as exc:
                item_url = f"/a/{quote(annotator, safe='')}/item/{quote(item_id, safe='')}"
                raise HttpError(HTTPStatus.CONFLICT, f"{exc}. Reload the item to see the saved judgment, "
                                "then change it there if you mean to.", (item_url, "Reload the item")) from exc
            self._redirect(self._next_location(conn, annotator, after=item_id))

    def _read_form(self) -> bytes:
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind != "application/x-www-form-urlencoded":
            raise HttpError(HTTPStatus.BAD_REQUEST, f"the form must be sent as application/x-www-form-urlencoded, "
                            f"not {kind or 'no content type'!r}")
        length = self.headers.get("Content-Length", "")
        if not length.isdigit():
            raise HttpError(HTTPStatus.LENGTH_REQUIRED, "Content-Length is required")
        if int(length) > MAX_FORM_BYTES:
            raise HttpError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"form larger than {MAX_FORM_BYTES} bytes")
        return self.rfile.read(int(length))

    def _require_annotator(self, conn: sqlite3.Connection, annotator: str) -> None:
        if annotator not in db.annotators(conn):
            raise HttpError(HTTPStatus.NOT_FOUND, f"unknown annotator {annotator!r}: start `mmeb annotate --annotator "
                            f"{annotator[:40]}` to add them")

    def _index(self) -> None:
        with self.app.connection() as conn:
            total = db.sample_size(conn)
            progress = [(name, len(db.judged_item_ids(conn, name))) for name in db.annotators(conn)]
        self._html(HTTPStatus.OK, views.index_page(progress, total))

    def _next_location(self, conn: sqlite3.Connection, annotator: str, after: str | None) -> str:
        order = [r.item_id for r in db.sample(conn)]
        judged = db.judged_item_ids(conn, annotator)
        start = order.index(after) + 1 if after in order else 0
        for item_id in order[start:] + order[:start]:
            if item_id not in judged:
                return f"/a/{quote(annotator, safe='')}/item/{quote(item_id, safe='')}"
        return f"/a/{quote(annotator, safe='')}/"

    def _resume(self, conn: sqlite3.Connection, annotator: str) -> None:
        total = db.sample_size(conn)
        if len(db.judged_item_ids(conn, annotator)) >= total:
            return self._html(HTTPStatus.OK, views.done_page(annotator, total))
        self._redirect(self._next_location(conn, annotator, after=None))

    def _item(self, conn: sqlite3.Connection, annotator: str, item_id: str) -> None:
        row = db.sample_item(conn, item_id)
        if row is None:
            raise HttpError(HTTPStatus.NOT_FOUND, f"unknown item id {item_id!r}: it is not in the annotation sample")
        order = [r.item_id for r in db.sample(conn)]
        index = order.index(item_id)
        html = views.item_page(
            annotator=annotator, position=row.position, total=len(order),
            done=len(db.judged_item_ids(conn, annotator)), item=row.item, records=self.app.records(row.project),
            saved=db.get_judgment(conn, annotator, item_id), prev_id=order[index - 1] if index > 0 else None,
            next_id=order[index + 1] if index + 1 < len(order) else None,
            form_token=self.app.form_token(annotator, item_id))
        self._html(HTTPStatus.OK, html)

    def _image(self, project: str, record_id: str) -> None:
        record = next((r for r in self.app.records(project) if r.id == record_id), None)
        if record is None or not record.image_path:
            raise HttpError(HTTPStatus.NOT_FOUND, f"no image for record {record_id!r} in project {project!r}")
        folder = (self.app.home / "projects" / project).resolve()
        path = (folder / record.image_path).resolve()
        kind = mimetypes.guess_type(path.name)[0] or ""
        if folder not in path.parents or not path.is_file() or not kind.startswith("image/"):
            raise HttpError(HTTPStatus.NOT_FOUND, f"image of record {record_id!r} is missing or outside its project")
        self._send(HTTPStatus.OK, path.read_bytes(), kind)


def make_server(app: AnnotationApp, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """A ready server (port 0 = any free port); the caller runs serve_forever()."""
    if not is_loopback(host) and not app.token:
        raise ValueError(f"refusing to listen on {host!r} without an access token: pass --token, or use 127.0.0.1")
    handler = type("BoundHandler", (Handler,), {"app": app})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    app.hosts = own_hosts(host, server.server_address[1])
    return server
