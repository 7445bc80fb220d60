"""SHIP-3: UPU S10 check digit in tracking numbers."""

import pytest
from catalog import Catalog
from orders import Address, OrderService
from shipping import make_label, quote_order, tracking_number


def test_tracking_number_carries_check_digit() -> None:
    assert tracking_number("PARCELCO", 47312482) == "PC473124829DE"
    assert tracking_number("SKYFAST", 42) == "SF000000425DE"


def test_check_digit_special_cases() -> None:
    from shipping import s10_check_digit

    assert s10_check_digit("47312482") == 9
    assert s10_check_digit("00000008") == 0  # 11 - (56 mod 11) = 10 -> 0
    assert s10_check_digit("00000015") == 5  # 11 - (44 mod 11) = 11 -> 5
    for bad in ["1234567", "123456789", "1234567a", ""]:
        with pytest.raises(ValueError):
            s10_check_digit(bad)


def test_is_valid_tracking() -> None:
    from shipping import is_valid_tracking

    assert is_valid_tracking("PC473124829DE")
    assert is_valid_tracking("SF000000425DE")
    assert is_valid_tracking("PC000000080DE")
    for bad in [
        "PC473124828DE",  # wrong check digit
        "pc473124829DE",  # lower case
        "XX473124829DE",  # not one of our carriers
        "PC47312482DE",  # old format without check digit
        "PC473124829FR",  # not shipped from Germany
        "PC473124829DE ",
        "",
    ]:
        assert is_valid_tracking(bad) is False


def test_labels_use_the_new_format(
    service: OrderService, catalog: Catalog, berlin: Address
) -> None:
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "MUG-2001", 1)
    service.place(order.order_id)
    label = make_label(order, quote_order(order, catalog, "PARCELCO"), 15)
    assert label.tracking_number == "PC000000155DE"
