"""Subscriptions: an account's plan, add-ons and billing schedule."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from enum import Enum

from plans.errors import (
    InvalidPeriodError,
    InvalidPlanChangeError,
    NotBillableError,
    SubscriptionCanceledError,
)
from plans.models import Plan
from plans.periods import BillingPeriod, period_for, period_index_on


class SubscriptionStatus(str, Enum):
    TRIALING = "trialing"
    ACTIVE = "active"
    CANCELED = "canceled"


@dataclass(frozen=True)
class PlanChange:
    """From ``effective_from`` on, the subscription is on ``plan``."""

    effective_from: date
    plan: Plan


@dataclass
class Subscription:
    """One account's subscription to a plan.

    ``plan`` is the plan the subscription started on; later changes are kept in
    ``changes`` (oldest first), so the plan of any day can be answered with
    :meth:`plan_on`.  The billing schedule (anchor and interval) is fixed at
    start: the first period begins when the trial ends (or at ``started_on``
    without a trial).
    """

    subscription_id: str
    account_id: str
    plan: Plan
    started_on: date
    addons: dict[str, int] = field(default_factory=dict)
    canceled_on: date | None = None
    changes: list[PlanChange] = field(default_factory=list)

    @property
    def trial_end(self) -> date | None:
        """The first day after the trial, or None when the plan has no trial."""
        if not self.plan.trial_days:
            return None
        return self.started_on + timedelta(days=self.plan.trial_days)

    @property
    def billing_anchor(self) -> date:
        """The first day of the first billed period."""
        return self.trial_end or self.started_on

    def status_on(self, day: date) -> SubscriptionStatus:
        if self.canceled_on is not None and day >= self.canceled_on:
            return SubscriptionStatus.CANCELED
        if day < self.billing_anchor:
            return SubscriptionStatus.TRIALING
        return SubscriptionStatus.ACTIVE

    def plan_on(self, day: date) -> Plan:
        """The plan in force on ``day``."""
        plan = self.plan
        for change in self.changes:
            if change.effective_from <= day:
                plan = change.plan
        return plan

    def period(self, index: int) -> BillingPeriod:
        return period_for(self.billing_anchor, self.plan.interval, index)

    def period_index_on(self, day: date) -> int:
        """Index of the billing period containing ``day``.

        Raises :class:`NotBillableError` during the trial and once canceled.
        """
        if self.canceled_on is not None and day >= self.canceled_on:
            raise NotBillableError(f"subscription {self.subscription_id} is canceled")
        try:
            return period_index_on(self.billing_anchor, self.plan.interval, day)
        except InvalidPeriodError:
            raise NotBillableError(
                f"subscription {self.subscription_id} is in its trial until {self.billing_anchor}"
            ) from None

    def schedule_plan_change(self, new_plan: Plan, on: date) -> PlanChange:
        """Switch to ``new_plan`` at the start of the next billing period.

        During the trial the change takes effect when the first period starts.
        """
        if self.canceled_on is not None:
            raise SubscriptionCanceledError(f"subscription {self.subscription_id} is canceled")
        current = self.plan_on(on)
        self._check_compatible(current, new_plan)
        if on < self.billing_anchor:
            effective = self.billing_anchor
        else:
            effective = self.period(self.period_index_on(on) + 1).start
        self.changes = [c for c in self.changes if c.effective_from < effective]
        change = PlanChange(effective, new_plan)
        self.changes.append(change)
        return change

    def cancel(self, on: date) -> None:
        """Cancel from ``on``; periods starting on or after that day are not billed."""
        if self.canceled_on is not None:
            raise SubscriptionCanceledError(f"subscription {self.subscription_id} is canceled")
        self.canceled_on = on

    @staticmethod
    def _check_compatible(current: Plan, new_plan: Plan) -> None:
        if new_plan.code == current.code:
            raise InvalidPlanChangeError(f"the subscription is already on plan {current.code}")
        if new_plan.currency != current.currency:
            raise InvalidPlanChangeError("a plan change cannot switch currencies")
        if new_plan.interval != current.interval:
            raise InvalidPlanChangeError("a plan change cannot switch billing intervals")
