"""Product catalogue: SKUs, prices, weights and dimensions of everything we sell.

The catalogue is the bottom layer of the fulfilment backend: it imports no other package of
this repository, and every other package may use it.
"""

from .errors import (
    CatalogError,
    CatalogImportError,
    DuplicateSkuError,
    InactiveProductError,
    InvalidProductError,
    InvalidSkuError,
    UnknownSkuError,
)
from .importer import load_products_csv, parse_products_csv
from .product import Dimensions, Product, validate_sku
from .registry import Catalog
from .units import ceil_to_step, round_money, round_weight, to_decimal

__all__ = [
    "Catalog",
    "CatalogError",
    "CatalogImportError",
    "Dimensions",
    "DuplicateSkuError",
    "InactiveProductError",
    "InvalidProductError",
    "InvalidSkuError",
    "Product",
    "UnknownSkuError",
    "ceil_to_step",
    "load_products_csv",
    "parse_products_csv",
    "round_money",
    "round_weight",
    "to_decimal",
    "validate_sku",
]
