"""Errors raised by the catalogue. All of them derive from :class:`CatalogError`."""

from __future__ import annotations


class CatalogError(Exception):
    """Base class of every catalogue error."""


class InvalidSkuError(CatalogError, ValueError):
    """A SKU code does not follow the ``AAA-NNNN`` format."""


class InvalidProductError(CatalogError, ValueError):
    """A product attribute (name, price, weight, dimensions) is out of range."""


class UnknownSkuError(CatalogError, KeyError):
    """No product with this SKU exists in the catalogue."""

    def __init__(self, sku: str) -> None:
        super().__init__(sku)
        self.sku = sku

    def __str__(self) -> str:
        return f"unknown SKU {self.sku!r}"


class DuplicateSkuError(CatalogError):
    """A product with this SKU is already in the catalogue."""

    def __init__(self, sku: str) -> None:
        super().__init__(f"SKU {sku!r} is already in the catalogue")
        self.sku = sku


class InactiveProductError(CatalogError):
    """The product exists but has been discontinued and can no longer be sold."""

    def __init__(self, sku: str) -> None:
        super().__init__(f"product {sku!r} is discontinued")
        self.sku = sku


class CatalogImportError(CatalogError, ValueError):
    """A supplier CSV feed could not be imported.

    ``line`` is the 1-based physical line of the feed the problem was found on (the header is
    line 1); the message always starts with ``"line N: "``.
    """

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
