from solution import insertion_sort


def test_unsorted():
    assert insertion_sort([4, 2, 7, 1, 3]) == [1, 2, 3, 4, 7]


def test_two_elements():
    assert insertion_sort([2, 1]) == [1, 2]


def test_reversed_input():
    assert insertion_sort([5, 4, 3, 2, 1]) == [1, 2, 3, 4, 5]


def test_empty_and_single():
    assert insertion_sort([]) == []
    assert insertion_sort([9]) == [9]


def test_duplicates_and_strings():
    assert insertion_sort([3, 1, 3, 1]) == [1, 1, 3, 3]
    assert insertion_sort(["pear", "apple", "fig"]) == ["apple", "fig", "pear"]


def test_input_not_modified():
    data = [2, 3, 1]
    assert insertion_sort(data) == [1, 2, 3]
    assert data == [2, 3, 1]
