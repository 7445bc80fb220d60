"""SHIP-2: one planned shipment per origin warehouse (the function's name is seeded)."""

from decimal import Decimal


def test_one_shipment_per_warehouse(subject, service, catalog, berlin, params):
    plan_shipments = getattr(subject.module("shipping"), params["plan_fn"])
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "MUG-2001", 4)  # Hamburg has the most mugs
    service.add_line(order.order_id, "BOX-1001", 3)  # Berlin
    service.add_line(order.order_id, "BAT-4001", 2)  # Berlin
    service.place(order.order_id)
    plan = plan_shipments(order, catalog)
    assert type(plan) is list
    assert all(subject.isinstance(shipment, "shipping.PlannedShipment") for shipment in plan)
    assert [shipment.warehouse for shipment in plan] == ["BER", "HAM"]
    assert plan[0].items == (("BAT-4001", 2), ("BOX-1001", 3))
    assert plan[1].items == (("MUG-2001", 4),)
    assert plan[0].billable_kg == Decimal("4.0")
    assert plan[1].billable_kg == Decimal("2.0")


def test_single_warehouse_order(subject, service, catalog, berlin, params):
    plan_shipments = getattr(subject.module("shipping.planning"), params["plan_fn"])
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "DSK-5001", 1)
    service.add_line(order.order_id, "TIE-6001", 100)
    service.place(order.order_id)
    [shipment] = plan_shipments(order, catalog)
    assert shipment.warehouse == "BER"
    assert shipment.items == (("DSK-5001", 1), ("TIE-6001", 100))
    assert shipment.billable_kg == Decimal("25.0")


def test_only_allocated_orders_can_be_planned(subject, service, catalog, berlin, params):
    plan_shipments = getattr(subject.module("shipping"), params["plan_fn"])
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "LMP-3001", 1)
    with subject.raises("shipping.ShippingError"):
        plan_shipments(order, catalog)
    service.place(order.order_id)
    assert [s.warehouse for s in plan_shipments(order, catalog)] == ["HAM"]
    service.cancel(order.order_id)
    with subject.raises("shipping.ShippingError"):
        plan_shipments(order, catalog)
