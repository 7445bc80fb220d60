"""SHIP-3: UPU S10 check digit in tracking numbers (the new functions' names are seeded)."""


def test_tracking_number_carries_check_digit(subject):
    shipping = subject.module("shipping")
    assert shipping.tracking_number("PARCELCO", 47312482) == "PC473124829DE"
    assert shipping.tracking_number("SKYFAST", 42) == "SF000000425DE"


def test_check_digit_special_cases(subject, params):
    check_digit = getattr(subject.module("shipping"), params["check_digit_fn"])
    assert check_digit("47312482") == 9
    assert check_digit("00000008") == 0  # 11 - (56 mod 11) = 10 -> 0
    assert check_digit("00000015") == 5  # 11 - (44 mod 11) = 11 -> 5
    assert type(check_digit("12345678")) is int
    for bad in ["1234567", "123456789", "1234567a", ""]:
        with subject.raises("builtins.ValueError"):
            check_digit(bad)


def test_is_valid_tracking(subject, params):
    is_valid = getattr(subject.module("shipping"), params["valid_tracking_fn"])
    assert is_valid("PC473124829DE") is True
    assert is_valid("SF000000425DE") is True
    assert is_valid("PC000000080DE") is True
    for bad in [
        "PC473124828DE",  # wrong check digit
        "pc473124829DE",  # lower case
        "XX473124829DE",  # not one of our carriers
        "PC47312482DE",  # old format without check digit
        "PC473124829FR",  # not shipped from Germany
        "PC473124829DE ",
        "",
    ]:
        assert is_valid(bad) is False, bad


def test_old_format_numbers_stay_valid_up_to_the_last_one_issued(subject, params):
    is_valid = getattr(subject.module("shipping"), params["valid_tracking_fn"])
    last = params["legacy_last_seq"]
    assert is_valid(params["legacy_example"]) is True
    assert is_valid(f"PC{last:08d}DE") is True
    assert is_valid(f"SF{last:08d}DE") is True
    assert is_valid("PC00000001DE") is True
    for bad in [
        f"PC{last + 1:08d}DE",  # issued after the switch: it must carry a check digit
        f"SF{last + 1:08d}DE",
        "PC00000000DE",  # sequences start at 1
        f"XX{last:08d}DE",  # not one of our carriers
        f"PC{last:08d}FR",
        f"pc{last:08d}DE",
        f" PC{last:08d}DE",
    ]:
        assert is_valid(bad) is False, bad


def test_labels_use_the_new_format(subject, service, catalog, berlin):
    shipping = subject.module("shipping")
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "MUG-2001", 1)
    service.place(order.order_id)
    label = shipping.make_label(order, shipping.quote_order(order, catalog, "PARCELCO"), 15)
    assert label.tracking_number == "PC000000155DE"
