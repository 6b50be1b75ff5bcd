import pytest

from solution import factorial


def test_zero_and_one():
    assert factorial(0) == 1
    assert factorial(1) == 1


def test_small_values():
    assert factorial(2) == 2
    assert factorial(3) == 6
    assert factorial(5) == 120


def test_larger_values():
    assert factorial(10) == 3628800
    assert factorial(20) == 2432902008176640000


def test_returns_int():
    result = factorial(6)
    assert isinstance(result, int)
    assert result == 720


def test_negative_raises():
    with pytest.raises(ValueError):
        factorial(-1)
