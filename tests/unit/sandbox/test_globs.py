import pytest

from specsnap.sandbox.globs import matches


@pytest.mark.parametrize(
    ("path", "patterns", "expected"),
    [
        ("a.py", ["**/*.py"], True),
        ("pkg/sub/a.py", ["**/*.py"], True),
        ("a.pyc", ["**/*.py"], False),
        ("tests/x/test_a.py", ["tests/**"], True),
        ("pkg/tests.py", ["tests/**"], False),
        ("pkg/test_a.py", ["**/test_*.py"], True),
        ("pkg/a.py", ["*.py"], False),
    ],
)
def test_matches(path: str, patterns: list[str], expected: bool):
    assert matches(path, patterns) is expected
