"""BKG-2: at most N tickets per customer and event (the default N is seeded)."""

LIMIT_ERROR = "booking.errors.TicketLimitExceededError"


def _seats(row, first, count):
    return [f"STL-{row}-{n}" for n in range(first, first + count)]


def _buy(service, seats, now, email, event_id="E-500"):
    hold = service.hold_seats(event_id, seats, now)
    return service.checkout(hold.hold_id, email, now)


def test_eight_tickets_per_customer_by_default(subject, make_service, same, now, params):
    limit = params["max_tickets_default"]
    service = make_service()
    _buy(service, _seats("C", 1, limit), now, "pat@example.com")
    extra = service.hold_seats("E-500", ["STL-D-5"], now)
    with subject.raises(LIMIT_ERROR) as info:
        service.checkout(extra.hold_id, "pat@example.com", now, discount_code="HALL15")
    error = info.value
    assert subject.isinstance(error.ref, "booking.BookingError")
    assert (error.limit, error.already, error.requested) == (limit, limit, 1)
    assert error.message == params["ticket_limit_message"].format(
        limit=limit, already=limit, requested=1
    )
    assert same(service.holds.get(extra.hold_id), extra)
    assert service.seatmap("E-500").status("STL-D-5") == subject.module("events").SeatStatus.HELD
    assert service.discounts.get("HALL15").uses == 0
    assert len(service.orders) == 1


def test_a_single_checkout_over_the_limit_is_refused(subject, make_service, now, params):
    limit = params["max_tickets_default"]
    service = make_service()
    big = service.hold_seats("E-500", _seats("B", 1, limit + 1), now)
    with subject.raises(LIMIT_ERROR) as info:
        service.checkout(big.hold_id, "quinn@example.com", now)
    assert (info.value.already, info.value.requested) == (0, limit + 1)
    assert len(service.orders) == 0
    assert service.takings() == {}


def test_orders_add_up_across_spellings_of_the_address(subject, make_service, now, params):
    limit = params["max_tickets_default"]
    service = make_service()
    _buy(service, _seats("A", 1, limit - 3), now, "Sam@Example.com")
    hold = service.hold_seats("E-500", _seats("B", 1, 4), now)
    with subject.raises(LIMIT_ERROR) as info:
        service.checkout(hold.hold_id, " sam@example.COM ", now)
    assert (info.value.limit, info.value.already, info.value.requested) == (limit, limit - 3, 4)
    assert info.value.message == params["ticket_limit_message"].format(
        limit=limit, already=limit - 3, requested=4
    )
    service.holds.release(hold.hold_id)
    _buy(service, _seats("B", 1, 3), now, "SAM@example.com")


def test_cancelled_orders_do_not_count(subject, make_service, now, params):
    limit = params["max_tickets_default"]
    service = make_service()
    first = _buy(service, _seats("C", 1, limit), now, "ray@example.com")
    service.cancel_order(first.order_id, now)
    again = _buy(service, _seats("D", 2, limit), now, "ray@example.com")
    assert again.ticket_count == limit
    extra = service.hold_seats("E-500", ["STL-B-7"], now)
    with subject.raises(LIMIT_ERROR) as info:
        service.checkout(extra.hold_id, "ray@example.com", now)
    assert info.value.already == limit


def test_the_limit_is_per_event_and_configurable(subject, make_service, now):
    service = make_service(max_tickets_per_customer=2)
    _buy(service, _seats("C", 1, 2), now, "uma@example.com")
    _buy(service, _seats("C", 1, 2), now, "uma@example.com", event_id="E-501")
    hold = service.hold_seats("E-500", ["STL-C-3"], now)
    with subject.raises(LIMIT_ERROR) as info:
        service.checkout(hold.hold_id, "uma@example.com", now)
    assert info.value.limit == 2
    with subject.raises("builtins.ValueError"):
        make_service(max_tickets_per_customer=0)
