"""ORD-2: large orders are held for manual review (the threshold and the method's name are
seeded)."""

from decimal import Decimal


def _server_order(service, address):
    order = service.create_order("C-1", address)
    service.add_line(order.order_id, "SRV-7001", 1)
    return order.order_id


def test_total_at_the_threshold_goes_on_hold(subject, service, catalog, inventory, berlin, params):
    status = subject.module("orders").OrderStatus
    catalog.update_price("SRV-7001", params["hold_net_price_below"])
    below = _server_order(service, berlin)
    assert service.totals(below).total == Decimal(params["hold_below"])
    assert service.place(below).status == status.ALLOCATED

    catalog.update_price("SRV-7001", params["hold_net_price"])
    at = _server_order(service, berlin)
    assert service.totals(at).total == Decimal(params["hold_total"])
    order = service.place(at)
    assert order.status == status.ON_HOLD
    assert status.ON_HOLD.value == "on_hold"
    assert order.history == [(status.DRAFT, status.ON_HOLD)]
    assert inventory.reserved("BER", "SRV-7001") == 2


def test_approve_releases_the_hold(subject, service, catalog, inventory, berlin, params):
    status = subject.module("orders").OrderStatus
    approve = getattr(service, params["approve_fn"])
    catalog.update_price("SRV-7001", params["hold_net_price"])
    order_id = _server_order(service, berlin)
    service.place(order_id)
    order = approve(order_id)
    assert order.order_id == order_id
    assert order.status == status.ALLOCATED
    assert order.history[-1] == (status.ON_HOLD, status.ALLOCATED)
    service.mark_shipped(order_id)
    assert inventory.on_hand("BER", "SRV-7001") == 4
    with subject.raises("orders.InvalidTransitionError"):
        approve(order_id)


def test_only_held_orders_can_be_approved(subject, service, berlin, params):
    status = subject.module("orders").OrderStatus
    approve = getattr(service, params["approve_fn"])
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "MUG-2001", 1)
    with subject.raises("orders.InvalidTransitionError"):
        approve(order.order_id)
    assert order.status == status.DRAFT
    service.place(order.order_id)
    with subject.raises("orders.InvalidTransitionError"):
        approve(order.order_id)
    assert order.status == status.ALLOCATED
    assert order.history == [(status.DRAFT, status.ALLOCATED)]


def test_held_order_cannot_ship_but_can_be_cancelled(
    subject, service, catalog, inventory, paris, params
):
    status = subject.module("orders").OrderStatus
    # French VAT (20 %) is above German VAT, so this order is at or above the threshold.
    catalog.update_price("SRV-7001", params["hold_net_price"])
    order_id = _server_order(service, paris)
    assert service.totals(order_id).total >= Decimal(params["hold_total"])
    order = service.place(order_id)
    assert order.status == status.ON_HOLD
    with subject.raises("orders.InvalidTransitionError"):
        service.mark_shipped(order_id)
    assert order.status == status.ON_HOLD
    assert inventory.on_hand("BER", "SRV-7001") == 5
    assert inventory.reserved("BER", "SRV-7001") == 1
    service.cancel(order_id)
    assert order.status == status.CANCELLED
    assert inventory.reserved("BER", "SRV-7001") == 0
    released = subject.module("inventory").ReservationStatus.RELEASED
    assert [inventory.get_reservation(r).status for r in order.reservation_ids] == [released]


def test_a_held_order_is_never_placed_twice(subject, service, catalog, inventory, berlin, params):
    status = subject.module("orders").OrderStatus
    catalog.update_price("SRV-7001", params["hold_net_price"])
    order_id = _server_order(service, berlin)
    order = service.place(order_id)
    with subject.raises("orders.InvalidTransitionError"):
        service.place(order_id)
    assert order.status == status.ON_HOLD
    assert order.history == [(status.DRAFT, status.ON_HOLD)]
    assert inventory.reserved("BER", "SRV-7001") == 1
    assert len(order.reservation_ids) == 1
