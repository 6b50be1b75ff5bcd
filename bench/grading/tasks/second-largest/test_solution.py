from solution import second_largest


def test_basic():
    assert second_largest([1, 5, 3, 4]) == 4


def test_duplicates_of_largest():
    assert second_largest([5, 5, 3]) == 3
    assert second_largest([7, 7, 7, 2, 7]) == 2


def test_negative_numbers():
    assert second_largest([-1, -5, -3]) == -3


def test_two_values_in_either_order():
    assert second_largest([10, 20]) == 10
    assert second_largest([20, 10]) == 10
    assert second_largest([3, 8, 8, 1, 6]) == 6


def test_too_few_distinct_values():
    assert second_largest([]) is None
    assert second_largest([4]) is None
    assert second_largest([2, 2, 2]) is None
