"""Use cases on orders: create, edit, place (reserve stock), cancel, ship."""

from __future__ import annotations

from catalog import Catalog, CatalogError
from inventory import Inventory, InventoryError, Reservation, ReservationStatus

from .errors import EmptyOrderError, InvalidCouponError, InvalidTransitionError, UnknownOrderError
from .model import Address, Coupon, Order, OrderLine, OrderStatus
from .pricing import PriceBreakdown, price_order
from .state import can_transition, transition


class OrderService:
    """Keeps the orders and coordinates them with the catalogue and the inventory."""

    def __init__(self, catalog: Catalog, inventory: Inventory) -> None:
        self._catalog = catalog
        self._inventory = inventory
        self._orders: dict[str, Order] = {}

    def create_order(self, customer_id: str, ship_to: Address) -> Order:
        """Open a new DRAFT order; ids are ``SO-00001``, ``SO-00002``, ..."""
        if not customer_id.strip():
            raise ValueError("customer_id must not be blank")
        order = Order(f"SO-{len(self._orders) + 1:05d}", customer_id, ship_to)
        self._orders[order.order_id] = order
        return order

    def get(self, order_id: str) -> Order:
        """The order with this id, or :class:`UnknownOrderError`."""
        try:
            return self._orders[order_id]
        except KeyError:
            raise UnknownOrderError(order_id) from None

    def orders(self, status: OrderStatus | None = None) -> list[Order]:
        """All orders, oldest first, optionally only those in ``status``."""
        return [
            order for order in self._orders.values() if status is None or order.status is status
        ]

    def add_line(self, order_id: str, sku: str, quantity: int) -> OrderLine:
        """Add a product at its current catalogue price.

        Unknown SKUs raise :class:`catalog.UnknownSkuError`, discontinued ones
        :class:`catalog.InactiveProductError`.
        """
        product = self._catalog.require_active(sku)
        return self.get(order_id).add_line(sku, quantity, product.unit_price)

    def remove_line(self, order_id: str, sku: str) -> OrderLine:
        """Remove a line from a DRAFT order."""
        return self.get(order_id).remove_line(sku)

    def apply_coupon(self, order_id: str, coupon: Coupon) -> Order:
        """Attach ``coupon`` to a DRAFT order, replacing any earlier one."""
        order = self.get(order_id)
        if order.status is not OrderStatus.DRAFT:
            raise InvalidCouponError(
                f"order {order_id} is {order.status.value}; coupons need a draft"
            )
        order.coupon = coupon
        return order

    def totals(self, order_id: str) -> PriceBreakdown:
        """The price breakdown of an order (see :func:`orders.price_order`)."""
        return price_order(self.get(order_id))

    def place(self, order_id: str) -> Order:
        """Reserve stock for every line and move the order from DRAFT to ALLOCATED.

        All or nothing: if any line cannot be reserved (``InsufficientStockError``) or its
        product was discontinued meanwhile, every reservation made so far is released, the
        order stays DRAFT and the error propagates.
        """
        order = self.get(order_id)
        if not can_transition(order.status, OrderStatus.ALLOCATED):
            raise InvalidTransitionError(f"order {order_id} is {order.status.value}, not draft")
        if not order.lines:
            raise EmptyOrderError(f"order {order_id} has no lines")
        reservations = self._reserve_all(order)
        order.reservation_ids = [reservation.reservation_id for reservation in reservations]

        # The status changes last, once every reservation is in place.
        transition(order, OrderStatus.ALLOCATED)
        return order

    def _reserve_all(self, order: Order) -> list[Reservation]:
        made: list[Reservation] = []
        try:
            for line in order.lines:
                self._catalog.require_active(line.sku)
                made.extend(
                    self._inventory.reserve(line.sku, line.quantity, reference=order.order_id)
                )
        except (CatalogError, InventoryError):
            for reservation in made:
                self._inventory.release(reservation.reservation_id)
            raise
        return made

    def cancel(self, order_id: str) -> Order:
        """Cancel an order that has not shipped yet; its active reservations are released."""
        order = self.get(order_id)
        if not can_transition(order.status, OrderStatus.CANCELLED):
            raise InvalidTransitionError(f"order {order_id} is {order.status.value}; cannot cancel")
        for reservation_id in order.reservation_ids:
            if self._inventory.get_reservation(reservation_id).status is ReservationStatus.ACTIVE:
                self._inventory.release(reservation_id)
        transition(order, OrderStatus.CANCELLED)
        return order

    def mark_shipped(self, order_id: str) -> Order:
        """Record that an ALLOCATED order left the warehouse; its reservations are fulfilled."""
        order = self.get(order_id)
        if not can_transition(order.status, OrderStatus.SHIPPED):
            raise InvalidTransitionError(f"order {order_id} is {order.status.value}; cannot ship")
        for reservation_id in order.reservation_ids:
            self._inventory.fulfil(reservation_id)
        transition(order, OrderStatus.SHIPPED)
        return order
