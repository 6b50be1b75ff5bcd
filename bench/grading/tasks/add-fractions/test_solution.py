import pytest

from solution import add_fractions


def test_simple_sum():
    assert add_fractions(1, 2, 1, 3) == (5, 6)
    assert add_fractions(1, 4, 1, 4) == (1, 2)


def test_result_is_reduced():
    assert add_fractions(1, 6, 1, 3) == (1, 2)
    assert add_fractions(2, 4, 3, 6) == (1, 1)


def test_negative_values():
    assert add_fractions(-1, 2, 1, 3) == (-1, 6)
    assert add_fractions(1, -2, 1, 4) == (-1, 4)
    assert add_fractions(-1, -2, 0, 5) == (1, 2)


def test_zero_result():
    assert add_fractions(1, 2, -1, 2) == (0, 1)
    assert add_fractions(0, 3, 0, 7) == (0, 1)


def test_whole_numbers():
    assert add_fractions(3, 1, 4, 1) == (7, 1)


def test_zero_denominator_raises():
    with pytest.raises(ValueError):
        add_fractions(1, 0, 1, 2)
    with pytest.raises(ValueError):
        add_fractions(1, 2, 3, 0)
