"""The OpenAPI schema describes every endpoint, request and error; /api/docs/ works offline."""

import re
from pathlib import Path

import pytest
import yaml
from django.contrib.staticfiles import finders
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

from tournaments.models import Club, Pair, Player
from tournaments.services.names import max_length

ENDPOINTS = {
    "/api/v1/auth/token": {"post", "delete"},
    "/api/v1/table-token": {"post"},
    "/api/v1/events": {"get", "post"},
    "/api/v1/event-presets": {"get"},
    "/api/v1/events/{id}": {"get", "patch"},
    "/api/v1/events/{id}/registration": {"post"},
    "/api/v1/events/{id}/start": {"post"},
    "/api/v1/events/{id}/finish": {"post"},
    "/api/v1/events/{id}/publish": {"post"},
    "/api/v1/events/{id}/pairs": {"get", "post"},
    "/api/v1/events/{id}/pairs/import": {"post"},
    "/api/v1/events/{id}/pairs/{number}/withdraw": {"post"},
    "/api/v1/events/{id}/pairs/{number}/reinstate": {"post"},
    "/api/v1/events/{id}/rounds/{number}": {"get"},
    "/api/v1/events/{id}/rounds/{number}/propose": {"post"},
    "/api/v1/events/{id}/rounds/{number}/pairing": {"post"},
    "/api/v1/events/{id}/rounds/{number}/swap": {"post"},
    "/api/v1/events/{id}/rounds/{number}/open": {"post"},
    "/api/v1/events/{id}/rounds/{number}/close": {"post"},
    "/api/v1/events/{id}/rounds/{number}/reopen": {"post"},
    "/api/v1/events/{id}/rounds/{number}/rulings": {"post"},
    "/api/v1/events/{id}/roles": {"get", "post"},
    "/api/v1/events/{id}/roles/remove": {"post"},
    "/api/v1/events/{id}/invitations": {"post"},
    "/api/v1/events/{id}/invitations/{invitation_pk}/revoke": {"post"},
    "/api/v1/events/{id}/webhooks": {"get", "post"},
    "/api/v1/events/{id}/webhooks/{webhook_pk}/delete": {"post"},
    "/api/v1/events/{id}/webhooks/{webhook_pk}/ping": {"post"},
    "/api/v1/events/{id}/webhooks/{webhook_pk}/deliveries": {"get"},
    "/api/v1/events/{id}/webhook-deliveries/{delivery_id}/resend": {"post"},
    "/api/v1/events/{id}/rounds": {"get"},
    "/api/v1/events/{id}/boards/{number}": {"get"},
    "/api/v1/events/{id}/standings": {"get"},
    "/api/v1/events/{id}/team-standings": {"get"},
    "/api/v1/rounds/{id}/tables": {"get"},
    "/api/v1/results": {"get", "post"},
    "/api/v1/results/{id}": {"get"},
    "/api/v1/results/{id}/confirm": {"post"},
    "/api/v1/boards/played": {"post"},
    "/api/v1/tables/{id}/new-codes": {"post"},
    "/api/v1/play-records": {"post"},
    "/api/v1/play-records/{id}": {"get"},
    "/api/v1/verify": {"post"},
    "/api/v1/disputes": {"get", "post"},
    "/api/v1/disputes/{id}": {"get"},
    "/api/v1/disputes/{id}/rule": {"post"},
    "/api/v1/disputes/{id}/withdraw": {"post"},
    "/api/v1/events/{id}/pairs/{number}/substitute": {"post"},
    "/api/v1/events/{id}/crosstable": {"get"},
    "/api/v1/events/{id}/boards/{number}/traveller": {"get"},
    "/api/v1/events/{id}/pairs/{number}/scorecard": {"get"},
    "/api/v1/events/{id}/audit": {"get"},
    "/api/v1/events/{id}/archive": {"get"},
    "/api/v1/events/import": {"post"},
}
# Every POST but the two that exchange a secret for a token and the dry run of verify.
SUBMITTING = [
    "/api/v1/events",
    "/api/v1/events/{id}/registration",
    "/api/v1/events/{id}/start",
    "/api/v1/events/{id}/finish",
    "/api/v1/events/{id}/publish",
    "/api/v1/events/{id}/pairs",
    "/api/v1/events/{id}/pairs/import",
    "/api/v1/events/{id}/pairs/{number}/withdraw",
    "/api/v1/events/{id}/pairs/{number}/reinstate",
    "/api/v1/events/{id}/pairs/{number}/substitute",
    "/api/v1/events/import",
    "/api/v1/events/{id}/rounds/{number}/propose",
    "/api/v1/events/{id}/rounds/{number}/pairing",
    "/api/v1/events/{id}/rounds/{number}/swap",
    "/api/v1/events/{id}/rounds/{number}/open",
    "/api/v1/events/{id}/rounds/{number}/close",
    "/api/v1/events/{id}/rounds/{number}/reopen",
    "/api/v1/events/{id}/rounds/{number}/rulings",
    "/api/v1/events/{id}/roles",
    "/api/v1/events/{id}/roles/remove",
    "/api/v1/events/{id}/invitations",
    "/api/v1/events/{id}/invitations/{invitation_pk}/revoke",
    "/api/v1/events/{id}/webhooks",
    "/api/v1/events/{id}/webhooks/{webhook_pk}/delete",
    "/api/v1/events/{id}/webhooks/{webhook_pk}/ping",
    "/api/v1/events/{id}/webhook-deliveries/{delivery_id}/resend",
    "/api/v1/results",
    "/api/v1/results/{id}/confirm",
    "/api/v1/boards/played",
    "/api/v1/tables/{id}/new-codes",
    "/api/v1/play-records",
    "/api/v1/disputes",
    "/api/v1/disputes/{id}/rule",
    "/api/v1/disputes/{id}/withdraw",
]


@pytest.fixture(scope="module")
def schema():
    generated = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(generated)
    return generated


def test_every_endpoint_is_described(schema):
    paths = {re.sub(r"\{pk\}", "{id}", p): ops for p, ops in schema["paths"].items()}
    assert set(paths) == set(ENDPOINTS)
    for path, methods in ENDPOINTS.items():
        assert set(paths[path]) == methods, path
        for method in methods:
            operation = paths[path][method]
            assert operation.get("summary"), (path, method)
            if method == "post":
                assert "400" in operation["responses"], path


def test_errors_and_idempotency_are_documented(schema):
    paths = {re.sub(r"\{pk\}", "{id}", p): ops for p, ops in schema["paths"].items()}
    error_ref = "#/components/schemas/Error"
    for path in SUBMITTING:
        operation = paths[path]["post"]
        for code in ("400", "401", "403", "409", "422", "503"):
            content = operation["responses"][code]["content"]["application/json"]
            assert content["schema"]["$ref"] == error_ref, (path, code)
        headers = [p["name"] for p in operation.get("parameters", []) if p["in"] == "header"]
        assert headers == ["Idempotency-Key"], path
    assert set(schema["components"]["schemas"]["Error"]["properties"]) == {"detail", "errors"}
    assert "tableToken" in schema["components"]["securitySchemes"]


def test_the_headers_docs_api_promises_are_in_the_schema(schema):
    """docs/api.md: Retry-After on 429 and 503, Idempotent-Replayed on a replayed answer, an
    ETag and If-None-Match on the polled standings; the disputes' status filter (audit)."""
    paths = {re.sub(r"\{pk\}", "{id}", p): ops for p, ops in schema["paths"].items()}
    for path, methods in paths.items():
        for method, operation in methods.items():
            for code in ("429", "503"):
                if code in operation["responses"]:
                    assert "Retry-After" in operation["responses"][code].get("headers", {}), (
                        path,
                        method,
                        code,
                    )
    for path in SUBMITTING:
        responses = paths[path]["post"]["responses"]
        ok = next(code for code in ("200", "201", "202") if code in responses)
        assert "Idempotent-Replayed" in responses[ok]["headers"], path
    for path in ("/api/v1/events/{id}/standings", "/api/v1/events/{id}/team-standings"):
        operation = paths[path]["get"]
        assert "ETag" in operation["responses"]["200"]["headers"], path
        assert "ETag" in operation["responses"]["304"]["headers"], path
        assert "If-None-Match" in [p["name"] for p in operation["parameters"]], path
    disputes = paths["/api/v1/disputes"]["get"]["parameters"]
    status = next(p for p in disputes if p["name"] == "status")
    assert set(status["schema"]["enum"]) == {"open", "ruled", "withdrawn"}


def test_every_post_is_idempotent():
    """Every POST of the API (but logins and the dry run of verify) honours Idempotency-Key."""
    generated = SchemaGenerator().get_schema(request=None, public=True)
    posts = {
        re.sub(r"\{pk\}", "{id}", path) for path, ops in generated["paths"].items() if "post" in ops
    }
    assert posts - set(SUBMITTING) == {
        "/api/v1/auth/token",
        "/api/v1/table-token",
        "/api/v1/verify",
    }


def test_schema_endpoint_serves_yaml(client, db):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert yaml.safe_load(response.content)["info"]["title"]


def test_docs_render_without_internet(client, db):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html
    urls = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", html)
    assert urls, html[:500]
    for url in urls:
        assert not re.match(r"^(https?:)?//", url), url  # nothing from another host
    assert "unpkg" not in html and "jsdelivr" not in html and "cdn" not in html.lower()
    static = [u for u in urls if u.startswith("/static/")]
    assert any(u.endswith(".js") for u in static)
    for url in static:  # each one shipped in the installed packages (the sidecar)
        assert finders.find(url.removeprefix("/static/").split("?")[0]), url


def test_schema_generates_without_warnings(tmp_path, db):
    from django.core.management import call_command

    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    assert "/api/v1/play-records" in out.read_text()


def test_docs_name_every_field_of_every_answer(schema):
    """docs/api.md's Fields section names each object of the answers and each of its fields."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "api.md"
    fields = docs.read_text().split("## Fields", 1)[1].split("\n## ", 1)[0]
    missing = []
    for name, component in schema["components"]["schemas"].items():
        if name.startswith(("Paginated", "Patched")) or name.endswith("Request"):
            continue
        if "properties" not in component:
            continue
        if not re.search(rf"\b{name}\b", fields):
            missing.append(name)
        missing += [f"{name}.{p}" for p in component["properties"] if f"`{p}`" not in fields]
    assert not missing, missing


def _component(schema, ref):
    return schema["components"]["schemas"][ref["$ref"].rsplit("/", 1)[1]]


def test_registering_pairs_offers_one_pair_or_many(schema):
    """docs/api.md: register one pair or many (``{"pairs": [...]}``), both in the schema."""
    body = schema["paths"]["/api/v1/events/{id}/pairs"]["post"]["requestBody"]
    forms = _component(schema, body["content"]["application/json"]["schema"])["oneOf"]
    one, many = (_component(schema, form) for form in forms)
    assert set(one["required"]) == {"player1", "player2"}
    assert many["required"] == ["pairs"]
    assert _component(schema, many["properties"]["pairs"]["items"]) == one


def test_request_lengths_are_the_columns(schema):
    """The schema's maxLength is the limit the server applies: the column's size."""
    pair = schema["components"]["schemas"]["PairRegisterRequest"]["properties"]
    lengths = {field: pair[field]["maxLength"] for field in ("player1", "player2", "name", "club")}
    assert lengths == {
        "player1": max_length(Player),
        "player2": max_length(Player),
        "name": max_length(Pair),
        "club": max_length(Club),
    }
    substitute = schema["components"]["schemas"]["SubstituteRequest"]["properties"]
    assert substitute["name"]["maxLength"] == max_length(Player)
