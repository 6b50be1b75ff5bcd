import pytest

from solution import max_subarray_sum


def test_classic_example():
    assert max_subarray_sum([-2, 1, -3, 4, -1, 2, 1, -5, 4]) == 6


def test_all_positive():
    assert max_subarray_sum([1, 2, 3]) == 6


def test_all_negative():
    assert max_subarray_sum([-3, -1, -2]) == -1
    assert max_subarray_sum([-5]) == -5


def test_single_element():
    assert max_subarray_sum([4]) == 4
    assert max_subarray_sum([0]) == 0


def test_mixed():
    assert max_subarray_sum([5, -9, 6, -2, 3]) == 7
    assert max_subarray_sum([2, -1, 2]) == 3


def test_empty_raises():
    with pytest.raises(ValueError):
        max_subarray_sum([])
