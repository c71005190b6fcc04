"""Undo and late changes during an evening: reopen or un-open a round, set a proposed pairing by
hand, withdraw a pair (also from an open round) or reinstate it, substitute a player.

Each change has a *plan*: a plain read of what it will do, shown on its confirmation page, so
that what the organiser confirms is what the service then does. Every change is audited and asks
for the standings when it can move them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import queue, webhooks
from tournaments.actors import Actor
from tournaments.models import (
    BoardResult,
    BoardUnlock,
    Entry,
    Event,
    Pair,
    Player,
    Registration,
    Round,
    Substitution,
    Table,
)
from tournaments.selectors import round_outstanding
from tournaments.services import (
    Conflict,
    ServiceError,
    audit,
    lock_event,
    relock,
    waiting_list,
)
from tournaments.services.events import (
    pair_display_name,
    pair_gone,
    players_key,
    proposal_locked,
    renew_codes,
    require_organiser,
    require_pairs_event,
    require_status,
    round_propose,
)
from tournaments.services.names import max_length, normal_name

# --- reopening a closed round ----------------------------------------------------------------


@dataclass(frozen=True)
class ReopenPlan:
    """What reopening ``rnd`` does: ``dropped``, the number of the next round whose proposal is
    dropped (None: there is none); ``new_codes``: tables whose codes another open round now uses
    (they get new codes and need new cards)."""

    rnd: Round
    dropped: int | None
    new_codes: list[int] = field(default_factory=list)


def _codes_in_use_elsewhere(rnd: Round) -> set[str]:
    others = Table.objects.filter(round__status=Round.Status.OPEN).exclude(round=rnd)
    return set(others.values_list("code_ns", flat=True)) | set(
        others.values_list("code_ew", flat=True)
    )


def reopen_plan(rnd: Round) -> ReopenPlan:
    """Refused (ServiceError) unless ``rnd`` is closed, its event runs and the next round is
    not open or played."""
    event = rnd.event
    require_status(event, Event.Status.RUNNING, doing=_("reopen a round"))
    if rnd.status != Round.Status.CLOSED:
        raise Conflict(_("Only a closed round can be reopened."), field="round")
    following = event.rounds.filter(number__gt=rnd.number)
    if following.exclude(status=Round.Status.PENDING).exists():
        raise Conflict(
            _("Round %(n)s has been opened: round %(m)s can no longer be reopened.")
            % {"n": rnd.number + 1, "m": rnd.number},
            field="round",
        )
    in_use = _codes_in_use_elsewhere(rnd)
    return ReopenPlan(
        rnd=rnd,
        dropped=following.order_by("number").values_list("number", flat=True).first(),
        new_codes=[
            t.number
            for t in rnd.tables.order_by("number")
            if t.code_ns in in_use or t.code_ew in in_use
        ],
    )


def round_reopen(*, rnd: Round, actor: Actor, reason: str) -> ReopenPlan:
    """Reopen a closed round for results (closed too early): the tables' codes work again, the
    next round's proposal (if any) is dropped, and the standings no longer count it as closed.

    Closing showed the round's boards, so a table then enters only the boards it had unlocked
    before the round was first closed (``Round.first_closed_at``; services.results); the others
    only an organiser enters, for the table."""
    event = rnd.event
    require_organiser(event, actor)
    if not reason.strip():
        raise ServiceError(_("Say why the round is reopened."), field="reason")
    with transaction.atomic():
        lock_event(event.pk)
        rnd = Round.objects.select_for_update(of=("self",), no_key=True).get(pk=rnd.pk)
        plan = reopen_plan(rnd)
        if plan.dropped is not None:
            event.rounds.filter(number__gt=rnd.number, status=Round.Status.PENDING).delete()
        if plan.new_codes:
            renew_codes(
                list(
                    rnd.tables.select_for_update(of=("self",), no_key=True)
                    .filter(number__in=plan.new_codes)
                    .order_by("number")
                )
            )
        rnd.status = Round.Status.OPEN
        # A round closed without round_close (none should be) counts as shown from its close.
        rnd.first_closed_at = rnd.first_closed_at or rnd.closed_at or timezone.now()
        rnd.closed_at = None
        rnd.ruling_open = False
        rnd.save(update_fields=["status", "closed_at", "first_closed_at", "ruling_open"])
        audit.record(
            event=event,
            actor=actor.label,
            action="round_reopened",
            changes={
                "round": [None, rnd.number],
                "status": [Round.Status.CLOSED, Round.Status.OPEN],
                "dropped_proposal": [plan.dropped, None],
                "new_codes_tables": [None, plan.new_codes],
            },
            note=reason.strip(),
        )
        webhooks.emit(event, webhooks.ROUND_OPENED, {"round": rnd.number, "reopened": True})
        queue.request_standings(event)
    return plan


# --- un-opening a round ----------------------------------------------------------------------


def unopen_check(rnd: Round) -> None:
    """Refused unless ``rnd`` is open, no table has stored a result or seen a board, and no pair
    has withdrawn from it (its forfeit would go, the pair staying seated)."""
    if rnd.status != Round.Status.OPEN:
        raise Conflict(_("Only an open round can be un-opened."), field="round")
    withdrawn_in_it = rnd.event.entries.filter(withdrawn_after_round=rnd.number)
    if rnd.tables.exclude(forfeited_by="").exists() or withdrawn_in_it.exists():
        # A forfeited match, or a pair (the bye's, one resting) that withdrew after this round.
        raise Conflict(
            _("A pair withdrew from this round: reinstate the pair first, or close the round."),
            field="round",
        )
    if BoardResult.objects.filter(table__round=rnd).exists():
        raise Conflict(
            _("A table has already stored a result: close the round or correct the result."),
            field="round",
        )
    if BoardUnlock.objects.filter(table__round=rnd).exists():
        raise Conflict(
            _("A table has already played a board of this round: it cannot be un-opened."),
            field="round",
        )


def round_unopen(*, rnd: Round, actor: Actor, reason: str) -> Round:
    """Put an open round without any result back to proposed (opened by mistake, or to change
    its pairing): every table gets new codes, so the old codes, the phones' sessions and the API
    tokens stop working for good. Pairs may move between tables before it opens again (a swap,
    a line-up): nobody keeps the way into a table they no longer sit at. The organiser prints
    the table cards again when opening it."""
    event = rnd.event
    require_organiser(event, actor)
    if not reason.strip():
        raise ServiceError(_("Say why the round is un-opened."), field="reason")
    with transaction.atomic():
        # The event's lock first, as every round change: a reinstatement meanwhile either
        # comes before, and its missed round is taken back below, or after, and sees it pending.
        lock_event(event.pk)
        rnd = Round.objects.select_for_update(of=("self",), no_key=True).get(pk=rnd.pk)
        # Tables' locks: a store in flight finishes first, and is then seen by the check.
        tables = list(
            Table.objects.select_for_update(of=("self",), no_key=True)
            .filter(round=rnd)
            .order_by("number")
        )
        unopen_check(rnd)
        revoked = renew_codes(tables)
        # Not started after all: no clock running, no time called at a table.
        Table.objects.filter(round=rnd).update(time_after=None, time_declared_at=None)
        rnd.status = Round.Status.PENDING
        rnd.opened_at = None
        rnd.clock_ends_at = rnd.clock_left = None
        rnd.save(update_fields=["status", "opened_at", "clock_ends_at", "clock_left"])
        # A pair reinstated while this round was open had missed it; paired again, it may play.
        back = []
        for entry in event.entries.order_by("number"):
            if rnd.number in (entry.missed_rounds or ()):
                entry.missed_rounds = [n for n in entry.missed_rounds if n != rnd.number]
                entry.save(update_fields=["missed_rounds"])
                back.append(entry.number)
        audit.record(
            event=event,
            actor=actor.label,
            action="round_unopened",
            changes={
                "round": [None, rnd.number],
                "status": [Round.Status.OPEN, Round.Status.PENDING],
                "new_codes_tables": [None, [t.number for t in tables]],
                **({"missed_round_taken_back": [back, None]} if back else {}),
            },
            note=f"{reason.strip()} ({audit.revoked_note(revoked)})",
        )
        queue.request_standings(event)
    return rnd


# --- a pairing set by hand -------------------------------------------------------------------


def pairing_set(
    *,
    rnd: Round,
    actor: Actor,
    tables: Sequence[tuple[int, int]],
    bye: int | None = None,
) -> Round:
    """Replace a proposed round's pairing with one made by hand: ``tables`` are (NS, EW) pair
    numbers, table 1 first; ``bye`` a pair number. Every active pair plays or has the bye once
    (see ``round_propose``); the warnings are shown before (``scoring_io.pairing_warnings``)."""
    event = rnd.event
    require_organiser(event, actor)
    require_pairs_event(event)
    ids = dict(event.entries.values_list("number", "pk"))
    unknown = sorted({n for t in tables for n in t} - set(ids) | ({bye} - set(ids) - {None}))
    if unknown:
        raise ServiceError(
            _("No pair has the number %(n)s.") % {"n": ", ".join(map(str, unknown))},
            field="tables",
        )
    if any(ns == ew for ns, ew in tables):
        raise ServiceError(_("A pair cannot play against itself."), field="tables")
    with transaction.atomic():
        rnd = proposal_locked(rnd)
        before = [(t.ns.number, t.ew.number) for t in rnd.tables.select_related("ns", "ew")]
        before_bye = rnd.bye.number if rnd.bye_id else None
        seated = {ids[n] for t in tables for n in t} | ({ids[bye]} if bye is not None else set())
        # Not a Swiss: whoever was in the round and is left without a table rests (the pairs
        # out of a knockout stay out).
        rests = [] if event.format == Event.Format.SWISS else sorted(_round_members(rnd) - seated)
        rnd = round_propose(
            event=event,
            actor=None,
            number=rnd.number,
            tables=[(ids[ns], ids[ew]) for ns, ew in tables],
            bye=ids[bye] if bye is not None else None,
            rests=rests,
        )
        audit.record(
            event=event,
            actor=actor.label,
            action="round_pairing_set",
            changes={
                "round": [None, rnd.number],
                "tables": [before, [list(t) for t in tables]],
                "bye": [before_bye, bye],
            },
        )
    return rnd


def _round_members(rnd: Round) -> set[int]:
    """The active pairs of a proposed round: at its tables, its bye or resting."""
    members = {e for t in rnd.tables.values_list("ns_id", "ew_id") for e in t}
    members |= set(rnd.rests.values_list("pk", flat=True)) | ({rnd.bye_id} if rnd.bye_id else set())
    active = rnd.event.entries.filter(withdrawn_after_round__isnull=True).values_list(
        "pk", flat=True
    )
    return members & set(active)


# --- withdrawing and reinstating a pair ------------------------------------------------------


@dataclass(frozen=True)
class WithdrawalPlan:
    """What withdrawing ``entry`` does.

    ``deletes``: the event has not started, the pair is simply removed. Otherwise the pair is
    withdrawn after round ``after_round``; ``forfeit``: the table of the open round where it
    sits with boards still to play (its opponents win the match like a bye); ``dropped``: the
    round whose proposal includes the pair and is dropped (to be proposed again);
    ``dropped_byes``: the later rounds it had asked to sit out, whose requests go with it.
    """

    entry: Entry
    deletes: bool
    after_round: int = 0
    forfeit: Table | None = None
    forfeit_side: str = ""
    dropped: int | None = None
    dropped_byes: tuple[int, ...] = ()


def _open_round(event: Event) -> Round | None:
    return event.rounds.filter(status=Round.Status.OPEN).first()


def withdrawal_plan(entry: Entry) -> WithdrawalPlan:
    event = entry.event
    if entry.withdrawn:
        raise Conflict(_("This pair has already withdrawn."), field="pair")
    if event.status in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        return WithdrawalPlan(entry=entry, deletes=True)
    if event.status != Event.Status.RUNNING:
        raise Conflict(_("The event is over: its pairs can no longer withdraw."), field="status")
    after = event.rounds.filter(status=Round.Status.CLOSED).aggregate(m=Max("number"))["m"] or 0
    forfeit, side = None, ""
    current = _open_round(event)
    if current is not None:
        table = current.tables.filter(Q(ns=entry) | Q(ew=entry)).first()
        # A requested bye scores in its round: the pair takes part in it as with the bye.
        plays_in_it = (
            table is not None
            or current.bye_id == entry.pk
            or entry.bye_requests.filter(round_number=current.number).exists()
        )
        if plays_in_it:
            after = current.number
        # Forfeited only with boards still to play: an entered board waiting for its
        # confirmation (or a referee) is played, and stays confirmable and rulable.
        if table is not None and any(
            o.table.pk == table.pk and o.missing for o in round_outstanding(current)
        ):
            forfeit, side = table, table.side_of(entry) or ""
    proposal = (
        event.rounds.filter(status=Round.Status.PENDING)
        .filter(Q(tables__ns=entry) | Q(tables__ew=entry) | Q(bye=entry))
        .values_list("number", flat=True)
        .first()
    )
    later_byes = entry.bye_requests.filter(round_number__gt=after).order_by("round_number")
    return WithdrawalPlan(
        entry=entry,
        deletes=False,
        after_round=after,
        forfeit=forfeit,
        forfeit_side=side,
        dropped=proposal,
        dropped_byes=tuple(later_byes.values_list("round_number", flat=True)),
    )


def entry_delete(entry: Entry, *, actor_label: str, note: str = "") -> None:
    """A pair taken off the list before the start (by the organiser, or by its own sign-up's
    link): audited, its entry and its pair deleted."""
    audit.record(
        event=entry.event,
        actor=actor_label,
        action="entry_deleted",
        changes={"entry": [str(entry), None]},
        note=note,
    )
    pair = entry.pair
    entry.delete()
    pair.delete()


def entry_withdraw(*, entry: Entry, actor: Actor, reason: str = "") -> WithdrawalPlan:
    """Withdraw a pair (before the start: remove it). During an open round where it still has
    boards to play, its match is forfeited; a proposal that includes it is dropped."""
    event = entry.event
    require_organiser(event, actor)
    require_pairs_event(event)
    with transaction.atomic():
        locked_event = lock_event(event.pk)
        entry = relock(
            Entry.objects.select_related("pair", "event"), entry.pk, gone=pair_gone(), field="pair"
        )
        if (current := _open_round(event)) is not None:
            # The table's lock: a result in flight is stored before the plan is read.
            list(
                current.tables.select_for_update(of=("self",), no_key=True)
                .order_by("number")
                .values_list("pk", flat=True)
            )
        plan = withdrawal_plan(entry)
        if plan.deletes:
            signed_up = Registration.objects.filter(entry=entry).first()
            entry_delete(entry, actor_label=actor.label)
            if signed_up is not None:
                # Checked in from a sign-up: the pair is out, and told, as when it withdraws by
                # its link.
                waiting_list.withdraw(signed_up, locked_event)
            return plan
        entry.withdrawn_after_round = plan.after_round
        entry.save(update_fields=["withdrawn_after_round"])
        if plan.forfeit is not None:
            Table.objects.filter(pk=plan.forfeit.pk).update(forfeited_by=plan.forfeit_side)
        if plan.dropped is not None:
            event.rounds.filter(number=plan.dropped, status=Round.Status.PENDING).delete()
        # A bye it asked for in a round after it leaves would score there (docs/scoring.md §4).
        entry.bye_requests.filter(round_number__in=plan.dropped_byes).delete()
        audit.record(
            event=event,
            actor=actor.label,
            action="entry_withdrawn",
            changes={
                "entry": [None, entry.number],
                "withdrawn_after_round": [None, plan.after_round],
                "forfeited_table": [None, plan.forfeit.number if plan.forfeit else None],
                "dropped_proposal": [plan.dropped, None],
                "dropped_bye_requests": [list(plan.dropped_byes), None],
            },
            note=reason.strip(),
        )
        queue.request_standings(event)
    return plan


@dataclass(frozen=True)
class ReinstatePlan:
    """What reinstating ``entry`` does: ``unforfeit``, the open round's table whose forfeit is
    taken back; ``forfeit_to``: the side that forfeits that table instead, when its other pair
    has withdrawn meanwhile (else ""); ``dropped``: a proposal without the pair that is dropped
    (proposed again); ``missed``: the rounds paired without it while it was out (the pairing
    of those rounds knew it had withdrawn: ``Entry.missed_rounds``)."""

    entry: Entry
    unforfeit: Table | None
    dropped: int | None
    forfeit_to: str = ""
    missed: tuple[int, ...] = ()


def reinstate_plan(entry: Entry) -> ReinstatePlan:
    event = entry.event
    if not entry.withdrawn:
        raise Conflict(_("This pair has not withdrawn."), field="pair")
    require_status(event, Event.Status.RUNNING, doing=_("reinstate a pair"))
    current = _open_round(event)
    table = (
        current.tables.filter(Q(ns=entry) | Q(ew=entry)).select_related("ns", "ew").first()
        if current is not None
        else None
    )
    unforfeit, forfeit_to = None, ""
    # Only the pair's own forfeit is taken back (its opponents may have forfeited it instead).
    if table is not None and table.forfeited_by and table.forfeited_by == table.side_of(entry):
        unforfeit = table
        # Its opponents withdrew too, after this forfeit: now they forfeit the match.
        other_side = "EW" if table.forfeited_by == "NS" else "NS"
        other = table.ew if other_side == "EW" else table.ns
        if other is not None and other.withdrawn:
            forfeit_to = other_side
    missed = (
        event.rounds.exclude(status=Round.Status.PENDING)
        .filter(number__gt=entry.withdrawn_after_round)
        .exclude(Q(tables__ns=entry) | Q(tables__ew=entry) | Q(bye=entry) | Q(rests=entry))
        .order_by("number")
        .values_list("number", flat=True)
    )
    return ReinstatePlan(
        entry=entry,
        unforfeit=unforfeit,
        forfeit_to=forfeit_to,
        missed=tuple(missed),
        dropped=event.rounds.filter(status=Round.Status.PENDING)
        .values_list("number", flat=True)
        .first(),
    )


def entry_reinstate(*, entry: Entry, actor: Actor, reason: str = "") -> ReinstatePlan:
    """Take a withdrawal back: the pair is paired again from the next proposal on; a forfeit in
    the still open round is taken back (its table takes results again)."""
    event = entry.event
    require_organiser(event, actor)
    with transaction.atomic():
        lock_event(event.pk)
        entry = relock(
            Entry.objects.select_related("event"), entry.pk, gone=pair_gone(), field="pair"
        )
        plan = reinstate_plan(entry)
        before, missed_before = entry.withdrawn_after_round, list(entry.missed_rounds)
        entry.withdrawn_after_round = None
        entry.missed_rounds = sorted(set(missed_before) | set(plan.missed))
        entry.save(update_fields=["withdrawn_after_round", "missed_rounds"])
        if plan.unforfeit is not None:
            Table.objects.filter(pk=plan.unforfeit.pk).update(forfeited_by=plan.forfeit_to)
        if plan.dropped is not None:
            event.rounds.filter(number=plan.dropped, status=Round.Status.PENDING).delete()
        audit.record(
            event=event,
            actor=actor.label,
            action="entry_reinstated",
            changes={
                "entry": [None, entry.number],
                "withdrawn_after_round": [before, None],
                "missed_rounds": [missed_before, entry.missed_rounds],
                "forfeited_table": [plan.unforfeit.number if plan.unforfeit else None, None],
                "forfeit_moved_to": [None, plan.forfeit_to or None],
                "dropped_proposal": [plan.dropped, None],
            },
            note=reason.strip(),
        )
        queue.request_standings(event)
    return plan


# --- substituting a player -------------------------------------------------------------------


def substitution_round(event: Event) -> int:
    """The first round a substitute plays: the open round if there is one (the new player
    takes the seat now), else the next one."""
    current = _open_round(event)
    if current is not None:
        return current.number
    last = event.rounds.exclude(status=Round.Status.PENDING).aggregate(m=Max("number"))["m"]
    return (last or 0) + 1


def player_substitute(
    *, entry: Entry, actor: Actor, seat: int, name: str, reason: str = ""
) -> Substitution:
    """Replace player ``seat`` (1 or 2) of a pair by a new player called ``name``: the pair
    keeps its number and its score; the substitution is kept on the pair's history."""
    require_organiser(entry.event, actor)
    require_pairs_event(entry.event)
    name = normal_name(name)
    if seat not in (1, 2):
        raise ServiceError(_("Choose which player is replaced."), field="seat")
    if not name:
        raise ServiceError(_("Give the new player's name."), field="name")
    if len(name) > max_length(Player):
        raise ServiceError(_("At most %(n)s characters.") % {"n": max_length(Player)}, field="name")
    with transaction.atomic():
        # Under the event's lock, as the rounds' changes and withdrawals: the round the new
        # player starts in is the one these checks saw.
        event = lock_event(entry.event_id)
        require_status(
            event,
            Event.Status.DRAFT,
            Event.Status.REGISTRATION,
            Event.Status.RUNNING,
            doing=_("substitute a player"),
        )
        entry = relock(
            Entry.objects.select_related("pair__player1", "pair__player2", "pair__club"),
            entry.pk,
            gone=pair_gone(),
            field="pair",
        )
        if entry.withdrawn:
            raise Conflict(_("This pair has withdrawn."), field="pair")
        from_round = substitution_round(event)
        if event.status == Event.Status.RUNNING and from_round > event.rounds_count:
            # The new player would be a member of the pair (and of its club's players) without
            # having played a board.
            raise Conflict(
                _("Every round has been played: a new player would play none."), field="round"
            )
        old = entry.pair
        out = old.player1 if seat == 1 else old.player2
        stays = old.player2 if seat == 1 else old.player1
        if len(players_key(name, stays.name)) == 1 or len(players_key(name, out.name)) == 1:
            raise ServiceError(_("That player is already in the pair."), field="name")
        new_player = Player.objects.create(name=name, club=out.club)
        p1, p2 = (new_player, stays) if seat == 1 else (stays, new_player)
        automatic = old.name == pair_display_name(old.player1.name, old.player2.name)
        pair = Pair.objects.create(
            name=pair_display_name(p1.name, p2.name) if automatic else old.name,
            player1=p1,
            player2=p2,
            club=old.club,
        )
        entry.pair = pair
        entry.save(update_fields=["pair"])
        substitution = Substitution.objects.create(
            entry=entry,
            from_round=from_round,
            player_out=out,
            player_in=new_player,
            previous_pair=old,
            reason=reason.strip()[:300],
            created_by=actor.label,
        )
        audit.record(
            event=event,
            actor=actor.label,
            action="player_substituted",
            changes={
                "entry": [None, entry.number],
                "player": [out.name, new_player.name],
                "from_round": [None, substitution.from_round],
            },
            note=reason.strip(),
        )
        queue.request_standings(event)
    return substitution
