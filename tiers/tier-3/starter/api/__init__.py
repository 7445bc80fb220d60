"""The billing service facade.

:class:`BillingService` exposes the platform as request handlers: each takes a
JSON-like ``dict`` payload and returns a JSON-serialisable ``dict``, either
``{"ok": True, "data": {...}}`` or ``{"ok": False, "error": {"code": ...,
"message": ...}}``.  Amounts travel as decimal strings (``"12.50"``), dates as
ISO strings (``"2025-03-01"``).
"""

from api.errors import RequestError
from api.service import BillingService
