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


def test_parcels_hold_at_most_the_parcel_limit(
    subject, service, catalog, inventory, make_product, berlin, params
):
    # 0.5 kg a unit (volumetric 0.2 kg), so n units are exactly n / 2 kg billable.
    catalog.add(make_product("PLT-8001", "Paving tile sample", "1.00", "0.5", (10, 10, 10)))
    limit = params["parcel_max_kg"]
    inventory.receive("BER", "PLT-8001", 1000)
    plan_shipments = getattr(subject.module("shipping"), params["plan_fn"])
    for units, kg, parcels in [
        (2 * limit, limit, 1),
        (2 * limit + 1, limit + Decimal("0.5"), 2),
        (4 * limit, 2 * limit, 2),
        (4 * limit + 1, 2 * limit + Decimal("0.5"), 3),
        (1, Decimal("0.5"), 1),
    ]:
        order = service.create_order(f"C-{units}", berlin)
        service.add_line(order.order_id, "PLT-8001", units)
        service.place(order.order_id)
        [shipment] = plan_shipments(order, catalog)
        assert shipment.billable_kg == kg
        assert type(shipment.parcels) is int
        assert shipment.parcels == parcels, (units, kg)


def test_a_sku_twice_in_one_warehouse_is_added_up(subject, service, catalog, berlin, params):
    # Lines merge per SKU when added, but an order carried over from the old shop system may
    # still hold a SKU on two lines: both reservations come from Berlin and ship together.
    plan_shipments = getattr(subject.module("shipping"), params["plan_fn"])
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "BOX-1001", 3)  # Berlin has the most boxes
    service.add_line(order.order_id, "MUG-2001", 1)  # Hamburg has the most mugs
    again = subject.module("orders").OrderLine("BOX-1001", 2, Decimal("1.20"))
    subject.module("builtins").setattr(order, "lines", [*order.lines, again])
    service.place(order.order_id)
    plan = plan_shipments(order, catalog)
    assert [(shipment.warehouse, shipment.items) for shipment in plan] == [
        ("BER", (("BOX-1001", 5),)),
        ("HAM", (("MUG-2001", 1),)),
    ]
