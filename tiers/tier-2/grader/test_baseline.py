"""Hidden baseline: behaviour of the starter that the sprint must not break."""

from decimal import Decimal

HEADER = "sku,name,unit_price,weight,length_cm,width_cm,height_cm\n"


def test_billable_weight_rounds_up_to_half_kg(subject, catalog):
    shipping = subject.module("shipping")
    assert shipping.summarize([("MUG-2001", 10)], catalog).billable_kg == Decimal("4.5")
    assert shipping.summarize([("MUG-2001", 11)], catalog).billable_kg == Decimal("5.0")
    lamp = shipping.summarize([("LMP-3001", 1)], catalog)
    assert (lamp.actual_kg, lamp.volumetric_kg, lamp.billable_kg) == (
        Decimal("6.800"),
        Decimal("28.8"),
        Decimal("29.0"),
    )


def test_parcel_quotes_below_thirty_kg_are_unchanged(subject, catalog):
    shipping = subject.module("shipping")
    quote = shipping.quote_items([("LMP-3001", 1)], catalog, "FR", "PARCELCO")
    assert (quote.carrier, quote.zone, quote.billable_kg, quote.price) == (
        "PARCELCO",
        2,
        Decimal("29.0"),
        Decimal("36.00"),
    )
    assert shipping.quote_items([("DSK-5001", 1)], catalog, "US", "SKYFAST").price == Decimal(
        "139.00"
    )
    with subject.raises("shipping.NoRateError"):
        shipping.quote_items([("DSK-5001", 1), ("MUG-2001", 3)], catalog, "DE", "SKYFAST")


def test_skyfast_still_refuses_small_hazmat_parcels(subject, catalog):
    with subject.raises("shipping.HazmatRefusedError"):
        subject.module("shipping").quote_items([("BAT-4001", 3)], catalog, "DE", "SKYFAST")


def test_cheapest_quote_for_a_small_order(subject, service, catalog, paris):
    order = service.create_order("C-1", paris)
    service.add_line(order.order_id, "MUG-2001", 1)
    quote = subject.module("shipping").cheapest_quote(order, catalog)
    assert (quote.carrier, quote.price) == ("PARCELCO", Decimal("9.50"))


def test_prices_without_volume_quantities(subject, service, berlin):
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "MUG-2001", 9)
    service.add_line(order.order_id, "BOX-1001", 9)
    coupon = subject.module("orders").Coupon("WELCOME10", Decimal(10), Decimal("50.00"))
    service.apply_coupon(order.order_id, coupon)
    price = service.totals(order.order_id)
    assert (price.subtotal, price.discount, price.net) == (
        Decimal("87.30"),
        Decimal("8.73"),
        Decimal("78.57"),
    )
    assert (price.vat, price.total) == (Decimal("14.93"), Decimal("93.50"))


def test_ordinary_orders_are_allocated_directly(subject, service, berlin):
    status = subject.module("orders").OrderStatus
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "DSK-5001", 3)
    assert service.totals(order.order_id).total == Decimal("888.93")
    service.place(order.order_id)
    assert order.status == status.ALLOCATED
    assert order.history == [(status.DRAFT, status.ALLOCATED)]


def test_named_warehouse_never_splits(subject, inventory):
    with subject.raises("inventory.InsufficientStockError") as info:
        inventory.reserve("MUG-2001", 31, reference="SO-1", warehouse="HAM")
    assert (info.value.requested, info.value.available) == (31, 30)
    assert info.value.message == "insufficient stock of MUG-2001: requested 31, available 30"
    assert inventory.reserved("HAM", "MUG-2001") == 0


def test_one_warehouse_is_used_when_it_can_supply_everything(inventory):
    reservations = inventory.reserve("BOX-1001", 90, reference="SO-1")
    assert [(r.warehouse, r.quantity) for r in reservations] == [("BER", 90)]
    reservations = inventory.reserve("BOX-1001", 20, reference="SO-2")
    assert [(r.warehouse, r.quantity) for r in reservations] == [("HAM", 20)]


def test_available_is_on_hand_minus_reserved(inventory):
    inventory.reserve("MUG-2001", 10, reference="SO-1", warehouse="BER")
    assert inventory.available("BER", "MUG-2001") == 2
    inventory.adjust("BER", "MUG-2001", -2, reason="count")
    assert inventory.available("BER", "MUG-2001") == 0
    assert inventory.total_available("MUG-2001") == 30


def test_cancel_and_ship_keep_the_ledger_consistent(subject, service, inventory, berlin):
    kind = subject.module("inventory").MovementKind
    first = service.create_order("C-1", berlin)
    service.add_line(first.order_id, "BAT-4001", 2)
    service.place(first.order_id)
    service.cancel(first.order_id)
    second = service.create_order("C-2", berlin)
    service.add_line(second.order_id, "BAT-4001", 3)
    service.place(second.order_id)
    service.mark_shipped(second.order_id)
    kinds = [m.kind for m in inventory.movements(sku="BAT-4001")]
    assert kinds == [
        kind.RECEIPT,
        kind.RESERVATION,
        kind.RELEASE,
        kind.RESERVATION,
        kind.SHIPMENT,
    ]
    assert inventory.on_hand("BER", "BAT-4001") == 22
    assert inventory.check_consistency() is None


def test_feed_weights_without_unit_are_kilograms(subject):
    catalog = subject.module("catalog")
    products = catalog.parse_products_csv(HEADER + "ABC-1000,Item,1.00,1.5,10,10,10\n")
    assert products[0].weight_kg == Decimal("1.5")
    with subject.raises("catalog.CatalogImportError") as info:
        catalog.parse_products_csv(HEADER + "ABC-1000,Item,1.00,kg,10,10,10\n")
    assert info.value.message == "line 2: invalid weight 'kg'"
    with subject.raises("catalog.CatalogImportError") as info:
        catalog.parse_products_csv(HEADER + "ABC-1000,Item,1.00,0,10,10,10\n")
    assert info.value.line == 2


def test_products_without_barcode_still_work(subject, catalog):
    module = subject.module("catalog")
    pen = module.Product(
        "PEN-0001", "Ballpoint pen", "0.99", "0.010", module.Dimensions(14, 1, 1), False, True
    )
    catalog.add(pen)
    catalog.add(module.Product("PEN-0002", "Gel pen", "1.49", "0.012", module.Dimensions(14, 1, 1)))
    assert subject.value(catalog.get("PEN-0001")) == subject.value(pen)
    again = module.Product(
        "PEN-0001", "Ballpoint pen", "0.99", "0.010", module.Dimensions(14, 1, 1), False, True
    )
    assert subject.module("operator").eq(pen, again) is True
    assert catalog.update_price("PEN-0001", "1.09").unit_price == Decimal("1.09")
    assert len(catalog.search("pen")) == 2


def test_labels_and_tracking_prefixes(subject, service, catalog, berlin):
    shipping = subject.module("shipping")
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "MUG-2001", 1)
    service.place(order.order_id)
    label = shipping.make_label(order, shipping.quote_order(order, catalog, "SKYFAST"), 99_999_999)
    assert label.carrier == "SKYFAST"
    assert label.tracking_number.startswith("SF99999999")
    assert label.tracking_number.endswith("DE")
    with subject.raises("builtins.ValueError"):
        shipping.tracking_number("PARCELCO", 100_000_000)
