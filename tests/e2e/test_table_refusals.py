"""A result the server refuses, on a phone (JavaScript sends the form): each problem is written
once, next to its field, as the page without JavaScript writes it (players.md §4), and nothing
is stored."""

import pytest

from tournaments.models import BoardResult, Table


@pytest.mark.django_db(transaction=True)
def test_a_total_out_of_range_is_refused_on_its_own_field(running_event, new_page):
    t1 = Table.objects.get(round__event=running_event, round__number=1, number=1)
    page, problems, _ = new_page("refused-on-its-field", phone=True)
    page.goto("/table/")
    page.fill("#id_code", t1.code_ns)
    page.get_by_role("button", name="Go to my table").click()
    page.wait_for_selector("#boards")
    page.get_by_role("link", name="Enter the result").first.click()
    page.wait_for_selector("#short-form")
    page.click("label.trump-copes")
    page.fill("input[name=totals_ns]", "-10")
    page.get_by_role("button", name="Send the result").click()
    page.wait_for_selector("#short-form .outbox-refusal")
    assert not BoardResult.objects.filter(table=t1).exists()
    message = "The NS hand total is a whole number from 0 to 72"
    assert message in page.locator("#field-totals_ns").inner_text()
    top = page.locator("#short-form .outbox-refusal").inner_text()
    assert message not in top and "nothing was stored" in top
    assert page.locator("#id_totals_ns").get_attribute("aria-describedby") == "error-totals_ns"
    assert page.locator("#id_totals_ns").input_value() == "-10"  # kept as typed
    # Corrected and sent again: the old message goes.
    page.fill("input[name=totals_ns]", "40")
    page.get_by_role("button", name="Send the result").click()
    page.wait_for_selector("#boards")
    assert BoardResult.objects.filter(table=t1).count() == 1
