"""Every API POST route sent a body that is JSON but not an object (a list, a string, a number,
null, an object whose values are all of the wrong type), as the event's organiser (who passes
every permission check, so the body is read): a 4xx with a sentence, never a 500."""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import cache
from django.db import transaction

from tests.security.conftest import Scene
from tests.security.routes import fill, walk
from tests.security.test_permission_matrix import rule_for, values_for

WRONG = [
    [1, 2],
    "a string",
    7,
    None,
    True,
    {
        "url": ["x"],
        "number": "one",
        "pair": {"a": 1},
        "pairs": "x",
        "tables": 5,
        "published": "maybe",
        "decisions": [1],
        "kind": 3,
        "player_in": [],
        "player_out": 1.5,
        "from_round": "two",
        "boards": {"x": 1},
        "format": 1,
        "event": "x",
        "results": "x",
        "swap": "x",
        "seconds": "x",
        "round": [],
        "entry": None,
        "username": 5,
        "role": ["referee"],
    },
]


@pytest.mark.django_db
def test_no_api_post_answers_a_body_of_the_wrong_shape_with_a_server_error(scene: Scene):
    client = scene.api("organiser")
    problems = []
    for route in walk():
        rule = rule_for(route)
        if rule is None or rule.area != "api" or not rule.post or "organiser" not in rule.post:
            continue
        url = fill(route.pattern, values_for(route, rule, scene))
        for body in WRONG:
            cache.clear()
            with transaction.atomic():
                answer = client.post(
                    url, body, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4())
                )
                transaction.set_rollback(True)
            if answer.status_code >= 500:
                problems.append(f"{route.key} {body!r:.40}: {answer.status_code}")
            elif answer.status_code == 400:
                errors = answer.json().get("errors") or []
                if not errors or not all(e.get("field") and e.get("message") for e in errors):
                    problems.append(f"{route.key} {body!r:.40}: 400 without a field")
    assert not problems, "\n".join(problems)
