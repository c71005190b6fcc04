"""``Idempotency-Key``: a submission sent twice (a retry after a lost answer, a phone's queue sent
again after a reload) runs once. Shared by the API (``api/idempotency.py``) and the table pages
(``views/table_guards.py``), which differ only in how they name the sender and read the body.

The first response (status and exact bytes) is stored in ``IdempotentResponse`` under a scope
(the sender and what was submitted to: the API's path, or a table page and its board) and the
key; a repeat with the same key gets those bytes back and changes nothing, minutes or days later
(rows are never expired). A repeat with the same key and a different body is refused
(:class:`KeyReused`).

The race: two identical requests at the same moment. The key row is inserted *first*, in the
transaction that then runs the submission; the second request's insert waits on the unique index
(PostgreSQL) or on the write lock (SQLite) until the first commits, then finds the row and replays
it. If the first fails (any 4xx), its transaction rolls back, key row included, so a retry runs.

``body`` holds ``{"request": sha256 of the canonical request, "content": the response text}``:
the response is kept as text so that PostgreSQL's ``jsonb`` (which reorders keys) cannot change
its bytes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.http import HttpResponse
from django.utils import timezone

from tournaments import kept
from tournaments.models import IdempotentResponse
from tournaments.prepared import send_ahead
from tournaments.rows import insert_new_statement, update_pk_then_commit

HEADER = "Idempotency-Key"
MAX_KEY = 200
SCOPE_MAX = 80
REPLAYED_HEADER = "Idempotent-Replayed"


class KeyReused(Exception):
    """The key came back with a different request body."""


class KeyBusy(Exception):
    """A request with this key is still being processed."""


def key_ok(key: str) -> bool:
    return len(key) <= MAX_KEY and "\x00" not in key


def scope_for(sender: str, path: str) -> str:
    scope = f"{sender} {path}"
    if len(scope) > SCOPE_MAX:
        scope = f"{sender} #{hashlib.sha256(path.encode()).hexdigest()}"
    return scope[:SCOPE_MAX]


def fingerprint(data: Any) -> str:
    """The request's data (a dict, a list, JSON values) as a stable hash."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _replay(row: IdempotentResponse, request_hash: str) -> HttpResponse:
    body = row.body if isinstance(row.body, dict) else {}
    if body.get("request") != request_hash:
        raise KeyReused()
    response = HttpResponse(
        body.get("content", ""), status=row.status_code, content_type="application/json"
    )
    response[REPLAYED_HEADER] = "true"
    return response


def stored_answer(*, scope: str, key: str, request_hash: str) -> HttpResponse | None:
    """The answer stored for this scope and key, replayed, or None when there is none (never
    sent, still being processed, or the key came with another body). For a sender that may no
    longer submit but whose submission was stored: it gets that answer, nothing else."""
    row = IdempotentResponse.objects.filter(scope=scope, key=key).first()
    if row is None or row.status_code == 0:
        return None
    try:
        return _replay(row, request_hash)
    except KeyReused:
        return None


class _Taken(BaseException):
    """The key's row exists: stops the submission at its first statement. A BaseException, so
    that no ``except Exception`` on the way mistakes it for the submission's own failure."""


def _claimed(rows: list[Any]) -> None:
    if not rows:
        raise _Taken()


def run_once(
    *,
    scope: str,
    key: str,
    request_hash: str,
    run: Callable[[], HttpResponse],
    stored: Callable[[HttpResponse], str] | None = None,
) -> HttpResponse:
    """``run()``'s response, or the stored one when this scope has seen this key (raises
    :class:`KeyReused`, :class:`KeyBusy`). Only JSON answers are stored; ``stored`` gives the
    text kept for a replay when it must not hold everything the first answer showed.
    A refusal rolls everything back but what ``tournaments.kept`` keeps.

    The key's insert rides ahead of the submission's first statement (``prepared.send_ahead``:
    one round trip fewer on PostgreSQL). It runs first, so the race is as described above; when
    the key is taken the submission stops there and what that statement did is rolled back.
    """
    with kept.scope() as keeping:
        with transaction.atomic():
            connection = transaction.get_connection()
            claim_sql, claim_params = insert_new_statement(
                IdempotentResponse,
                {
                    "scope": scope,
                    "key": key,
                    "status_code": 0,
                    "body": {"request": request_hash},
                    "created_at": timezone.now(),
                },
                ("scope", "key"),
            )
            response: HttpResponse | None = None
            try:
                with send_ahead(connection, claim_sql, claim_params, _claimed) as claim:
                    response = run()
                if response.status_code < 400:
                    claim.send(connection)  # unless the submission ran no statement, done
            except _Taken:
                response = None
            if response is None or response.status_code >= 400:
                # A refusal did nothing: forget the key so that a corrected retry may use it.
                # A taken key: undo the statement the claim rode with.
                transaction.set_rollback(True)
            else:
                assert claim.rows
                content = stored(response) if stored else response.content.decode("utf-8")
                update_pk_then_commit(  # the block's last statement
                    IdempotentResponse,
                    claim.rows[0][0],
                    status_code=response.status_code,
                    body={"request": request_hash, "content": content},
                )
        if response is not None:
            if response.status_code < 400:
                keeping.rolled_back = False
            return response
    # Another request with this key committed first (we waited for it): replay it.
    existing = IdempotentResponse.objects.filter(scope=scope, key=key).first()
    if existing is None or existing.status_code == 0:
        raise KeyBusy() from None
    return _replay(existing, request_hash)
