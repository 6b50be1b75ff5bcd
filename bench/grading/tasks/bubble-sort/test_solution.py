from solution import bubble_sort


def test_unsorted():
    assert bubble_sort([5, 2, 9, 1, 5, 6]) == [1, 2, 5, 5, 6, 9]


def test_two_elements():
    assert bubble_sort([2, 1]) == [1, 2]


def test_sorted_and_reversed():
    assert bubble_sort([1, 2, 3, 4]) == [1, 2, 3, 4]
    assert bubble_sort([4, 3, 2, 1]) == [1, 2, 3, 4]


def test_empty_and_single():
    assert bubble_sort([]) == []
    assert bubble_sort([7]) == [7]


def test_negatives_and_duplicates():
    assert bubble_sort([0, -1, 3, -1, 2]) == [-1, -1, 0, 2, 3]


def test_input_not_modified():
    data = [3, 1, 2]
    assert bubble_sort(data) == [1, 2, 3]
    assert data == [3, 1, 2]
