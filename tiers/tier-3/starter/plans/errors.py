"""Errors raised by the catalog and subscriptions."""

from __future__ import annotations

from money import BillingError


class PlanError(BillingError):
    """Base class of catalog and subscription errors."""

    code = "plan_error"


class PlanNotFoundError(PlanError):
    code = "plan_not_found"


class AddOnNotFoundError(PlanError):
    code = "addon_not_found"


class DuplicatePlanError(PlanError):
    """A plan or add-on code that is already in the catalog."""

    code = "duplicate_plan"


class InvalidPlanError(PlanError):
    """A plan or add-on definition that breaks a catalog rule."""

    code = "invalid_plan"


class QuantityError(PlanError):
    """An add-on quantity that is negative, not whole, or above the add-on's maximum."""

    code = "invalid_quantity"


class InvalidPeriodError(PlanError):
    """A billing period index or date that does not exist for a subscription."""

    code = "invalid_period"


class NotBillableError(PlanError):
    """A date or period for which a subscription cannot be billed (trial, canceled)."""

    code = "not_billable"


class InvalidPlanChangeError(PlanError):
    """A plan change that is not allowed (same plan, other currency or interval, ...)."""

    code = "invalid_plan_change"


class SubscriptionNotFoundError(PlanError):
    code = "subscription_not_found"


class SubscriptionCanceledError(PlanError):
    code = "subscription_canceled"
