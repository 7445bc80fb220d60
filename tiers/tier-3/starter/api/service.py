"""The :class:`BillingService` request handlers."""

from __future__ import annotations

from typing import Any

from api.errors import (
    Payload,
    RequestError,
    handler,
    optional_str,
    parse_amount,
    parse_date,
    require_str,
)
from api.serializers import (
    account_to_dict,
    email_to_dict,
    format_amount,
    invoice_to_dict,
    subscription_to_dict,
)
from invoicing import InvoiceBook, InvoiceGenerator, InvoiceNotFoundError
from ledger import Account, Ledger
from money import CurrencyMismatchError
from notify import render_dunning_email, stage_for
from plans import Catalog, Subscription, SubscriptionNotFoundError


class BillingService:
    """The platform's entry point: accounts, subscriptions, invoices, payments, dunning.

    Construct it with the product :class:`plans.Catalog`; it owns the ledger, the
    invoice book and the subscriptions.  Every public method is a request
    handler (see :mod:`api`).
    """

    def __init__(self, catalog: Catalog, *, payment_terms_days: int = 14) -> None:
        self.catalog = catalog
        self.ledger = Ledger()
        self.invoices = InvoiceBook()
        self.generator = InvoiceGenerator(
            catalog, self.ledger, self.invoices, payment_terms_days=payment_terms_days
        )
        self._subscriptions: dict[str, Subscription] = {}
        self._dunning_sent: set[tuple[str, str]] = set()

    # -- accounts -----------------------------------------------------------

    @handler
    def create_account(self, payload: Payload) -> dict[str, Any]:
        """Payload: ``name``, ``email``, ``currency`` (e.g. "EUR"), ``country`` (e.g. "DE")."""
        account = self.ledger.open_account(
            name=require_str(payload, "name"),
            email=require_str(payload, "email"),
            currency=require_str(payload, "currency"),
            country=require_str(payload, "country"),
        )
        return account_to_dict(account)

    @handler
    def get_account(self, payload: Payload) -> dict[str, Any]:
        """Payload: ``account_id``."""
        return account_to_dict(self.ledger.get_account(require_str(payload, "account_id")))

    @handler
    def close_account(self, payload: Payload) -> dict[str, Any]:
        """Payload: ``account_id``.  Only accounts with a zero balance can be closed."""
        return account_to_dict(self.ledger.close_account(require_str(payload, "account_id")))

    @handler
    def get_balance(self, payload: Payload) -> dict[str, Any]:
        """Payload: ``account_id``, optional ``on`` (balance as of that day)."""
        account = self.ledger.get_account(require_str(payload, "account_id"))
        on = parse_date(payload, "on") if payload.get("on") is not None else None
        balance = self.ledger.balance(account.account_id, on)
        return {
            "account_id": account.account_id,
            "currency": account.currency.code,
            "balance": format_amount(balance),
        }

    # -- subscriptions ------------------------------------------------------

    @handler
    def subscribe(self, payload: Payload) -> dict[str, Any]:
        """Payload: ``account_id``, ``plan_code``, ``start`` (date), optional ``addons``
        (add-on code -> quantity)."""
        account = self._active_account(require_str(payload, "account_id"))
        plan = self.catalog.get_plan(require_str(payload, "plan_code"))
        started_on = parse_date(payload, "start")
        if plan.currency != account.currency:
            raise CurrencyMismatchError(
                f"plan {plan.code} is priced in {plan.currency.code}, "
                f"account {account.account_id} is billed in {account.currency.code}"
            )
        addons = payload.get("addons") or {}
        if not isinstance(addons, dict):
            raise RequestError("'addons' must be an object of add-on code to quantity")
        quantities = self.catalog.validate_addons(addons, plan.currency)

        subscription = Subscription(
            subscription_id=f"SUB-{len(self._subscriptions) + 1:04d}",
            account_id=account.account_id,
            plan=plan,
            started_on=started_on,
            addons=quantities,
        )
        self._subscriptions[subscription.subscription_id] = subscription
        return subscription_to_dict(subscription, started_on)

    @handler
    def get_subscription(self, payload: Payload) -> dict[str, Any]:
        """Payload: ``subscription_id``, ``on`` (the day to describe it for)."""
        subscription = self._subscription(require_str(payload, "subscription_id"))
        return subscription_to_dict(subscription, parse_date(payload, "on"))

    @handler
    def change_plan(self, payload: Payload) -> dict[str, Any]:
        """Payload: ``subscription_id``, ``plan_code``, ``on`` (date of the request),
        optional ``when``: ``"next_period"`` (the default) switches plans at the
        start of the next billing period."""
        subscription = self._subscription(require_str(payload, "subscription_id"))
        self._active_account(subscription.account_id)
        new_plan = self.catalog.get_plan(require_str(payload, "plan_code"))
        on = parse_date(payload, "on")
        when = payload.get("when", "next_period")
        if when != "next_period":
            raise RequestError(f"unsupported value for 'when': {when!r}; expected 'next_period'")
        change = subscription.schedule_plan_change(new_plan, on)
        return {
            "subscription": subscription_to_dict(subscription, on),
            "effective_from": change.effective_from.isoformat(),
        }

    @handler
    def cancel_subscription(self, payload: Payload) -> dict[str, Any]:
        """Payload: ``subscription_id``, ``on``: periods starting on or after it are not billed."""
        subscription = self._subscription(require_str(payload, "subscription_id"))
        on = parse_date(payload, "on")
        subscription.cancel(on)
        return subscription_to_dict(subscription, on)

    # -- invoices -----------------------------------------------------------

    @handler
    def generate_invoice(self, payload: Payload) -> dict[str, Any]:
        """Payload: ``subscription_id``, ``on``: issue, on that day, the invoice for the
        billing period containing it."""
        subscription = self._subscription(require_str(payload, "subscription_id"))
        on = parse_date(payload, "on")
        index = subscription.period_index_on(on)
        invoice = self.generator.generate(subscription, index, issued_on=on)
        return invoice_to_dict(invoice)

    @handler
    def get_invoice(self, payload: Payload) -> dict[str, Any]:
        """Payload: ``number``."""
        return invoice_to_dict(self.invoices.get(require_str(payload, "number")))

    @handler
    def list_invoices(self, payload: Payload) -> dict[str, Any]:
        """Payload: ``account_id``.  Invoices in issue order."""
        account = self.ledger.get_account(require_str(payload, "account_id"))
        invoices = self.invoices.for_account(account.account_id)
        return {"invoices": [invoice_to_dict(i) for i in invoices]}

    # -- payments and credits ----------------------------------------------

    @handler
    def record_payment(self, payload: Payload) -> dict[str, Any]:
        """Payload: ``account_id``, ``amount``, ``on``, optional ``invoice_number``.

        With an invoice number the payment is applied to that invoice (it must
        not exceed what is outstanding on it).  The payment is always posted to
        the account's ledger.
        """
        account = self.ledger.get_account(require_str(payload, "account_id"))
        amount = parse_amount(payload, "amount", account.currency)
        on = parse_date(payload, "on")
        invoice_number = optional_str(payload, "invoice_number")
        if invoice_number is not None:
            invoice = self.invoices.get(invoice_number)
            if invoice.account_id != account.account_id:
                raise InvoiceNotFoundError(
                    f"no invoice {invoice_number!r} for account {account.account_id}"
                )
            invoice.apply_payment(amount, on)

        self.ledger.post_payment(
            account.account_id, amount, on, "Payment received", reference=invoice_number
        )
        return {
            "account_id": account.account_id,
            "amount": format_amount(amount),
            "invoice_number": invoice_number,
            "balance": format_amount(self.ledger.balance(account.account_id)),
        }

    @handler
    def issue_credit(self, payload: Payload) -> dict[str, Any]:
        """Payload: ``account_id``, ``amount``, ``on``, ``reason``: a goodwill credit."""
        account = self.ledger.get_account(require_str(payload, "account_id"))
        amount = parse_amount(payload, "amount", account.currency)
        on = parse_date(payload, "on")
        reason = require_str(payload, "reason")
        self.ledger.post_credit(account.account_id, amount, on, f"Credit: {reason}")
        return {
            "account_id": account.account_id,
            "amount": format_amount(amount),
            "balance": format_amount(self.ledger.balance(account.account_id)),
        }

    # -- dunning ------------------------------------------------------------

    @handler
    def run_dunning(self, payload: Payload) -> dict[str, Any]:
        """Payload: ``on``.  Send each overdue invoice the highest dunning stage it has
        reached, unless that stage was already sent; returns the e-mails sent."""
        on = parse_date(payload, "on")
        emails = []
        for invoice in self.invoices.overdue(on):
            stage = stage_for(invoice.days_overdue(on))
            if stage is None or (invoice.number, stage.key) in self._dunning_sent:
                continue
            account = self.ledger.get_account(invoice.account_id)
            email = render_dunning_email(
                stage, invoice, customer_name=account.name, customer_email=account.email, on=on
            )
            self._dunning_sent.add((invoice.number, stage.key))

            emails.append({"invoice_number": invoice.number, "stage": stage.key, **email_to_dict(email)})
        return {"on": on.isoformat(), "emails": emails}

    # -- helpers ------------------------------------------------------------

    def _subscription(self, subscription_id: str) -> Subscription:
        try:
            return self._subscriptions[subscription_id]
        except KeyError:
            raise SubscriptionNotFoundError(f"no subscription {subscription_id!r}") from None

    def _active_account(self, account_id: str) -> Account:
        """The account, if it may take on new business (subscribe, change plans)."""
        account = self.ledger.get_account(account_id)
        account.ensure_active()
        return account
