import pytest

from solution import median


def test_odd_length():
    assert median([3, 1, 2]) == 2
    assert median([7]) == 7


def test_even_length_averages_middle():
    assert median([1, 2, 3, 4]) == 2.5
    assert median([4, 1]) == 2.5


def test_even_length_whole_average():
    assert median([1, 3, 5, 7]) == 4


def test_negative_and_float_values():
    assert median([-5, -1, -3]) == -3
    assert median([0.5, 1.5]) == 1.0


def test_does_not_modify_input():
    data = [5, 3, 1, 4]
    assert median(data) == 3.5
    assert data == [5, 3, 1, 4]


def test_empty_raises():
    with pytest.raises(ValueError):
        median([])
