"""Import of supplier product feeds (CSV).

A feed is UTF-8 CSV with a header line. Required columns, in any order::

    sku,name,unit_price,weight,length_cm,width_cm,height_cm

``weight`` is the gross weight of one unit in kilograms, e.g. ``1.25``. The optional column
``hazmat`` takes ``yes``/``no``/``true``/``false``/``1``/``0`` (blank means no). Extra columns
are ignored, blank lines are skipped. Errors name the 1-based line of the feed (header = line 1).
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

from .errors import CatalogError, CatalogImportError
from .product import Dimensions, Product
from .registry import Catalog
from .units import to_decimal

REQUIRED_COLUMNS = ("sku", "name", "unit_price", "weight", "length_cm", "width_cm", "height_cm")
_TRUE = {"yes", "true", "1"}
_FALSE = {"no", "false", "0", ""}


def parse_products_csv(text: str) -> list[Product]:
    """Parse a supplier feed into products, in feed order.

    Raises :class:`CatalogImportError` for a missing column, a malformed value or a SKU that
    appears twice in the feed.
    """
    reader = csv.DictReader(io.StringIO(text))
    header = [column.strip() for column in reader.fieldnames or []]
    missing = [column for column in REQUIRED_COLUMNS if column not in header]
    if missing:
        raise CatalogImportError(1, f"missing column(s): {', '.join(missing)}")
    reader.fieldnames = header

    products: list[Product] = []
    seen: set[str] = set()
    for row in reader:
        line = reader.line_num
        if all(not (value or "").strip() for value in row.values() if isinstance(value, str)):
            continue
        product = _parse_row(row, line)
        if product.sku in seen:
            raise CatalogImportError(line, f"SKU {product.sku} appears twice in the feed")
        seen.add(product.sku)
        products.append(product)
    return products


def load_products_csv(catalog: Catalog, text: str) -> int:
    """Parse a feed and add all its products to ``catalog``; returns how many were added.

    The load is all-or-nothing: if the feed is invalid or any SKU is already in the catalogue,
    nothing is added.
    """
    products = parse_products_csv(text)
    clashes = [product.sku for product in products if product.sku in catalog]
    if clashes:
        raise CatalogError(f"SKU(s) already in the catalogue: {', '.join(clashes)}")
    for product in products:
        catalog.add(product)
    return len(products)


def _parse_row(row: dict[str, str], line: int) -> Product:
    def cell(column: str) -> str:
        return (row.get(column) or "").strip()

    try:
        dimensions = Dimensions(cell("length_cm"), cell("width_cm"), cell("height_cm"))
        return Product(
            sku=cell("sku"),
            name=cell("name"),
            unit_price=cell("unit_price"),  # type: ignore[arg-type]  # validated by Product
            weight_kg=_parse_weight(cell("weight"), line),
            dimensions=dimensions,
            hazmat=_parse_flag(cell("hazmat").lower(), line),
        )
    except CatalogImportError:
        raise
    except CatalogError as exc:
        raise CatalogImportError(line, str(exc)) from None


def _parse_weight(raw: str, line: int) -> Decimal:
    """A weight in kilograms; it must be a plain positive number."""
    try:
        weight = to_decimal(raw, field="weight")
    except ValueError:
        raise CatalogImportError(line, f"invalid weight {raw!r}") from None
    if weight <= 0:
        raise CatalogImportError(line, f"invalid weight {raw!r}: must be positive")
    return weight


def _parse_flag(raw: str, line: int) -> bool:
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise CatalogImportError(line, f"invalid hazmat flag {raw!r}")
