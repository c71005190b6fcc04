"""The referee's desk and the organiser's pages for a keyboard and a screen reader: the replay
keeps the focus, the console announces what is new, ruling forms tie their errors and help to
their fields and keep their options' names, each label names its own field."""

import time

import pytest

from tests.e2e.journey import log_in
from tests.e2e.test_referee_desk import illegal_record
from tournaments.actors import Actor
from tournaments.models import Table
from tournaments.services import results

ACTIVE = "(() => { const a = document.activeElement; return a.tagName + '#' + a.id + ' ' + (a.textContent || '').trim().slice(0, 30); })()"


def table1(event):
    return Table.objects.get(round__event=event, round__number=1, number=1)


def illegal_dispute(event):
    t = table1(event)
    out = results.result_submit_play_record(
        table=t,
        board_number=1,
        actor=Actor(table=t, side="NS"),
        record=illegal_record(event.boards.get(number=1), event),
    )
    return out.result.disputes.get(), len(out.result.play_records.get().record["play"])


def conflict_dispute(event):
    t = table1(event)
    for side, ns in (("NS", 40), ("EW", 30)):
        results.result_submit_short(
            table=t,
            board_number=1,
            actor=Actor(table=t, side=side),
            data={
                "delegated": False,
                "trump": "copes",
                "doubles": [],
                "totals": {"NS": ns, "EW": 72 - ns},
            },
        )
    return t.results.get(board__number=1).disputes.get()


def open_dispute(new_page, dispute, name):
    """The referee's page of ``dispute``, logged in as the event's referee."""
    page, _, _ = new_page(name)
    log_in(page, "referee")
    page.goto(f"/referee/dispute/{dispute.pk}/")
    return page


@pytest.mark.django_db(transaction=True)
def test_replay_keeps_the_focus_when_a_replay_button_disables_itself(
    new_page, running_event, referee
):
    """Home / End on a replay button jump to either end, and the focus stays in the replay when
    the button pressed disables itself (Next card at the last card)."""
    dispute, steps = illegal_dispute(running_event)
    page = open_dispute(new_page, dispute, "replay-focus")
    replay = page.locator("#replay")
    replay.get_by_role("button", name="Next card").focus()
    page.keyboard.press("End")  # docs: Home / End once a replay button has the focus
    assert replay.get_attribute("data-position") == str(steps)
    assert page.evaluate("document.getElementById('replay').contains(document.activeElement)"), (
        page.evaluate(ACTIVE)
    )
    page.keyboard.press("Home")
    assert replay.get_attribute("data-position") == "0"


@pytest.mark.django_db(transaction=True)
def test_stepping_to_the_illegal_card_with_enter_keeps_the_focus(new_page, running_event, referee):
    dispute, steps = illegal_dispute(running_event)
    page = open_dispute(new_page, dispute, "replay-enter")
    page.locator("#replay").get_by_role("button", name="Next card").focus()
    for _ in range(steps):
        page.keyboard.press("Enter")
    assert page.locator("#replay").get_attribute("data-position") == str(steps)
    assert page.evaluate("document.activeElement !== document.body"), page.evaluate(ACTIVE)


@pytest.mark.django_db(transaction=True)
def test_console_announces_a_new_dispute_while_the_focus_is_in_the_grid(new_page, running_event):
    """A new dispute is announced while the keyboard focus is on a link of the console (the
    grid itself waits until the focus leaves it), and the focus stays where it was."""
    page, _, _ = new_page("console-live")
    log_in(page, "organiser")
    page.goto(f"/manage/{running_event.pk}/rounds/1/")
    page.locator("#console").get_by_role("link", name="New codes").first.focus()
    conflict_dispute(running_event)
    deadline = time.monotonic() + 6
    while time.monotonic() < deadline and not page.locator("#live-announce").inner_text():
        page.wait_for_timeout(250)
    assert "Table 1, board 1" in page.locator("#live-announce").inner_text()
    assert page.evaluate(ACTIVE).startswith("A#")  # focus not stolen


@pytest.mark.django_db(transaction=True)
def test_ruling_form_errors_and_help_are_tied_to_their_fields(new_page, running_event, referee):
    """A radio group's error (the submission to accept) is referenced by its fieldset."""
    dispute = conflict_dispute(running_event)
    page = open_dispute(new_page, dispute, "ruling-errors")
    form = page.locator("#rule-accept")
    form.locator("textarea").fill("Both pairs agree on the NS version.")
    form.get_by_role("button", name="Rule").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    error = page.locator("#id_accept-submission_error")
    assert error.count() == 1
    referenced = page.evaluate(
        "!!document.querySelector('[aria-describedby~=\"id_accept-submission_error\"]')"
    )
    assert referenced, form.locator(".field-submission").evaluate("e => e.outerHTML")


@pytest.mark.django_db(transaction=True)
def test_explanation_help_text_reference_exists(new_page, running_event, referee):
    dispute = conflict_dispute(running_event)
    page = open_dispute(new_page, dispute, "ruling-help")
    help_ids = page.evaluate(
        "[...document.querySelectorAll('textarea[aria-describedby]')].flatMap(t => "
        "t.getAttribute('aria-describedby').split(' ')).filter(i => !document.getElementById(i))"
    )
    assert help_ids == []


@pytest.mark.django_db(transaction=True)
def test_roles_invite_form_role_select_has_its_own_label(new_page, running_event):
    """The appoint and invite forms share a page: each "Role" label names its own menu, and no
    id is given twice."""
    page, _, _ = new_page("roles-labels")
    log_in(page, "organiser")
    page.goto(f"/manage/{running_event.pk}/roles/")
    invite = page.locator("#invite-form")
    assert invite.get_by_role("combobox", name="Role", exact=True).count() == 1, (
        invite.aria_snapshot()
    )
    dup = page.evaluate(
        "[...document.querySelectorAll('[id]')].map(e => e.id)"
        ".filter((v, i, a) => a.indexOf(v) !== i)"
    )
    assert dup == []


@pytest.mark.django_db(transaction=True)
def test_accept_form_keeps_its_option_names_after_a_refusal(new_page, running_event, referee):
    """A refused ruling's form comes back with the submissions named as before the refusal,
    not by their database ids."""
    dispute = conflict_dispute(running_event)
    page = open_dispute(new_page, dispute, "accept-labels")
    form = page.locator("#rule-accept")
    radios = form.get_by_role("radio")
    before = [
        radios.nth(i).evaluate("e => e.labels[0].textContent.trim()") for i in range(radios.count())
    ]
    radios.first.focus()
    page.keyboard.press("Space")  # choose the first submission, leave the explanation empty
    form.get_by_role("button", name="Rule").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("#id_accept-explanation_error").count() == 1
    radios = page.locator("#rule-accept").get_by_role("radio")
    after = [
        radios.nth(i).evaluate("e => e.labels[0].textContent.trim()") for i in range(radios.count())
    ]
    assert after == before, (before, after)
