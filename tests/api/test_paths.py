"""Numbers in paths: a number too long for any id, or a path the API does not have (even one
holding a newline), is a 404 in the API's JSON, never a server error (the fuzzing of
tests/fuzz found both)."""

import pytest

pytestmark = pytest.mark.django_db

TOO_LONG = "9" * 19  # past 64-bit integers: handed to the database it would overflow


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", f"/api/v1/results/{TOO_LONG}/confirm"),
        ("get", f"/api/v1/results/{TOO_LONG}"),
        ("get", f"/api/v1/events/{TOO_LONG}/standings"),
        ("post", f"/api/v1/events/{TOO_LONG}/rounds/1/rulings"),
        ("post", "/api/v1/events/a%0Ab/roles"),
        ("post", "/api/v1/events/1/rounds/-5/rulings"),
        ("get", "/api/v1/no-such-thing%0A"),
    ],
)
def test_a_path_that_names_nothing_is_the_apis_json_404(world, method, path):
    for who in ("anonymous", "table", "organiser"):
        response = getattr(world.client(who), method)(path, {}, format="json")
        assert response.status_code == 404, (who, path, response.status_code)
        assert response["Content-Type"] == "application/json"
        assert response.json()["errors"][0]["message"].startswith("Not found")


def test_the_longest_number_a_path_takes_reaches_the_view(world):
    longest = "9" * 18  # fits a 64-bit id: looked up, not found
    response = world.client("organiser").get(f"/api/v1/results/{longest}")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert world.client("organiser").get(f"/api/v1/events/{world.event.pk}").status_code == 200


@pytest.mark.parametrize(
    "path",
    [f"/e/{TOO_LONG}/standings/", f"/manage/{TOO_LONG}/", f"/referee/event/{TOO_LONG}/"],
)
def test_a_page_whose_number_is_too_long_is_not_found(client, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize(
    ("query", "accept"),
    [("", "text/html"), ("?format=api", None), ("", "text/html,application/xhtml+xml,*/*;q=0.8")],
)
def test_the_api_answers_in_json_only(world, query, accept):
    """docs/api.md: responses are JSON; a ?format= other than json is a 400 at format."""
    headers = {"HTTP_ACCEPT": accept} if accept else {}
    for who, path in (("anonymous", "/api/v1/events"), ("anonymous", "/api/v1/results/1")):
        response = world.client(who).get(path + query, **headers)
        assert response["Content-Type"].startswith("application/json"), (path, response.status_code)
    if query:
        assert (
            world.client("anonymous").get("/api/v1/events" + query).json()["errors"][0]["field"]
            == "format"
        )
    assert world.client("anonymous").get("/api/v1/events?format=json").status_code == 200
