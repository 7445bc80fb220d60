"""The product catalog: plans, add-ons, billing periods and subscriptions.

``plans`` knows what a customer can buy and for which periods it is billed.  It
does not know about accounts' balances or invoices: those live in ``ledger`` and
``invoicing``, which build on this package.
"""

from plans.catalog import Catalog
from plans.errors import (
    AddOnNotFoundError,
    DuplicatePlanError,
    InvalidPeriodError,
    InvalidPlanChangeError,
    InvalidPlanError,
    NotBillableError,
    PlanError,
    PlanNotFoundError,
    QuantityError,
    SubscriptionCanceledError,
    SubscriptionNotFoundError,
)
from plans.models import AddOn, Interval, Plan
from plans.periods import BillingPeriod, add_months, period_for, period_index_on
from plans.subscriptions import PlanChange, Subscription, SubscriptionStatus
