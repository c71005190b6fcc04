"""A real HTTP receiver of webhooks on loopback (``http.server`` in a thread), for the tests.

It answers each POST with the next status of ``answers`` (then 200) and keeps what it got;
``verify`` is the receiver's check from docs/api.md, run on every request as a program would.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def docs_verifier():  # noqa: ANN201 - the function defined in docs/api.md
    """``verify(secret, headers, body)`` exactly as docs/api.md shows it to receivers."""
    text = (ROOT / "docs" / "api.md").read_text()
    match = re.search(r"```python\n(# verify a webhook.*?)```", text, re.S)
    assert match, "docs/api.md lost its webhook verification snippet"
    scope: dict[str, Any] = {}
    exec(match.group(1), scope)  # noqa: S102 - our own documentation, tested as code
    return scope["verify"]


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    verified: bool

    @property
    def json(self) -> dict[str, Any]:
        return json.loads(self.body)


@dataclass
class Receiver:
    secret: str = ""  # set once the webhook is registered; checked on every request
    answers: list[int] = field(default_factory=list)
    delay: float = 0.0  # seconds before answering (a slow receiver)
    received: list[Received] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        assert self.server is not None
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/hooks/botifarra"

    def start(self) -> Receiver:
        receiver = self
        verify = docs_verifier()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                headers = dict(self.headers.items())
                ok = bool(receiver.secret) and verify(receiver.secret, headers, body)
                time.sleep(receiver.delay)
                with receiver.lock:
                    receiver.received.append(Received(self.path, headers, body, ok))
                    status = receiver.answers.pop(0) if receiver.answers else 200
                reply = (b"ok" if ok else b"bad signature") if status < 300 else b"boom " * 400
                self.send_response(status if ok else 400)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
