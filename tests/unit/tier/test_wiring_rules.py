from specsnap.tier.wiring import Wiring, rule_broken

W = Wiring(
    packages={"core": frozenset(), "orders": frozenset({"core"}), "ship": frozenset({"orders"})},
    private=("orders.ledger",),
)


def test_allowed_and_forbidden_edges():
    assert rule_broken(W, "orders.api", "core.money") is None
    assert rule_broken(W, "core.money", "orders") == (
        "core may import no other package of the repository"
    )
    assert rule_broken(W, "ship.rates", "core") == "ship may import only orders"


def test_private_modules_only_within_their_package():
    assert rule_broken(W, "orders.api", "orders.ledger") is None
    assert rule_broken(W, "ship.x", "orders.ledger.entries") == "orders.ledger is private to orders"


def test_unlisted_and_stdlib_imports_are_not_checked():
    assert rule_broken(W, "core", "json") is None
    assert rule_broken(W, "tests.test_x", "ship") is None
