"""The catalog of everything that can be sold."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from money import Currency, CurrencyMismatchError
from plans.errors import AddOnNotFoundError, DuplicatePlanError, PlanNotFoundError
from plans.models import AddOn, Plan


class Catalog:
    """Plans and add-ons by code.

    The catalog is configured once at start-up and then only read; codes are
    unique within plans and within add-ons.
    """

    def __init__(self, plans: Iterable[Plan] = (), addons: Iterable[AddOn] = ()) -> None:
        self._plans: dict[str, Plan] = {}
        self._addons: dict[str, AddOn] = {}
        for plan in plans:
            self.add_plan(plan)
        for addon in addons:
            self.add_addon(addon)

    # -- plans --------------------------------------------------------------

    def add_plan(self, plan: Plan) -> Plan:
        if plan.code in self._plans:
            raise DuplicatePlanError(f"plan {plan.code!r} already exists")
        self._plans[plan.code] = plan
        return plan

    def get_plan(self, code: str) -> Plan:
        try:
            return self._plans[code]
        except (KeyError, TypeError):
            raise PlanNotFoundError(f"no plan {code!r}") from None

    def plans(self, currency: str | None = None) -> list[Plan]:
        """All plans (optionally only those priced in ``currency``), cheapest first."""
        found = [p for p in self._plans.values() if currency is None or p.currency.code == currency]
        return sorted(found, key=lambda p: (p.price.amount, p.code))

    # -- add-ons ------------------------------------------------------------

    def add_addon(self, addon: AddOn) -> AddOn:
        if addon.code in self._addons:
            raise DuplicatePlanError(f"add-on {addon.code!r} already exists")
        self._addons[addon.code] = addon
        return addon

    def get_addon(self, code: str) -> AddOn:
        try:
            return self._addons[code]
        except (KeyError, TypeError):
            raise AddOnNotFoundError(f"no add-on {code!r}") from None

    def addons(self) -> list[AddOn]:
        return sorted(self._addons.values(), key=lambda a: a.code)

    def validate_addons(self, quantities: Mapping[str, int], currency: Currency) -> dict[str, int]:
        """Check add-on quantities for a subscription billed in ``currency``.

        Returns the quantities without zero entries, sorted by add-on code.
        """
        result: dict[str, int] = {}
        for code in sorted(quantities):
            addon = self.get_addon(code)
            quantity = addon.validate_quantity(quantities[code])
            if addon.currency != currency:
                raise CurrencyMismatchError(
                    f"add-on {code} is priced in {addon.currency.code}, the plan in {currency.code}"
                )
            if quantity:
                result[code] = quantity
        return result
