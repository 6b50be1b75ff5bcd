import pytest

from solution import binary_to_decimal


def test_zero_and_one():
    assert binary_to_decimal("0") == 0
    assert binary_to_decimal("1") == 1


def test_small_numbers():
    assert binary_to_decimal("10") == 2
    assert binary_to_decimal("101") == 5
    assert binary_to_decimal("1111") == 15


def test_leading_zeros():
    assert binary_to_decimal("0001") == 1
    assert binary_to_decimal("000") == 0


def test_large_numbers():
    assert binary_to_decimal("10000000000") == 1024
    assert binary_to_decimal("1" * 32) == 2 ** 32 - 1


def test_invalid_characters_raise():
    for bad in ("102", "abc", "1 0", "0b101", "-1"):
        with pytest.raises(ValueError):
            binary_to_decimal(bad)


def test_empty_raises():
    with pytest.raises(ValueError):
        binary_to_decimal("")
