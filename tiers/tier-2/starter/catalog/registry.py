"""The in-memory catalogue of products, keyed by SKU."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from decimal import Decimal

from .errors import DuplicateSkuError, InactiveProductError, UnknownSkuError
from .product import Product, validate_sku
from .units import Number


class Catalog:
    """All products we know, active or discontinued.

    Iteration yields products sorted by SKU, so reports and exports are stable.
    """

    def __init__(self, products: Iterable[Product] = ()) -> None:
        self._products: dict[str, Product] = {}
        for product in products:
            self.add(product)

    def add(self, product: Product) -> Product:
        """Add a new product; a SKU that is already present raises :class:`DuplicateSkuError`."""
        if product.sku in self._products:
            raise DuplicateSkuError(product.sku)
        self._products[product.sku] = product
        return product

    def get(self, sku: str) -> Product:
        """Return the product with this SKU, active or not, or raise :class:`UnknownSkuError`."""
        try:
            return self._products[sku]
        except KeyError:
            raise UnknownSkuError(sku) from None

    def require_active(self, sku: str) -> Product:
        """Like :meth:`get`, but a discontinued product raises :class:`InactiveProductError`."""
        product = self.get(sku)
        if not product.active:
            raise InactiveProductError(sku)
        return product

    def update_price(self, sku: str, unit_price: Number) -> Product:
        """Change the net unit price of a product; returns the updated product."""
        updated = self.get(sku).with_changes(unit_price=unit_price)
        self._products[sku] = updated
        return updated

    def discontinue(self, sku: str) -> Product:
        """Mark a product as no longer sold. Discontinuing twice is harmless."""
        updated = self.get(sku).with_changes(active=False)
        self._products[sku] = updated
        return updated

    def active_products(self) -> list[Product]:
        """Products that can still be ordered, sorted by SKU."""
        return [product for product in self if product.active]

    def search(self, text: str) -> list[Product]:
        """Products whose name contains ``text`` (case-insensitive), sorted by SKU."""
        needle = text.casefold().strip()
        return [product for product in self if needle in product.name.casefold()]

    def total_weight(self, items: Iterable[tuple[str, int]]) -> Decimal:
        """Gross weight in kg of ``(sku, quantity)`` items."""
        return sum((self.get(sku).weight_kg * quantity for sku, quantity in items), Decimal(0))

    def __contains__(self, sku: object) -> bool:
        if not isinstance(sku, str):
            return False
        try:
            validate_sku(sku)
        except ValueError:
            return False
        return sku in self._products

    def __iter__(self) -> Iterator[Product]:
        return iter(sorted(self._products.values(), key=lambda product: product.sku))

    def __len__(self) -> int:
        return len(self._products)
