from solution import merge_sorted


def test_interleaved():
    assert merge_sorted([1, 3, 5], [2, 4, 6]) == [1, 2, 3, 4, 5, 6]


def test_one_list_after_the_other():
    assert merge_sorted([1, 2], [3, 4]) == [1, 2, 3, 4]
    assert merge_sorted([3, 4], [1, 2]) == [1, 2, 3, 4]


def test_empty_inputs():
    assert merge_sorted([], [1, 2]) == [1, 2]
    assert merge_sorted([1, 2], []) == [1, 2]
    assert merge_sorted([], []) == []


def test_duplicates_are_kept():
    assert merge_sorted([1, 2, 2], [2, 3]) == [1, 2, 2, 2, 3]


def test_different_lengths():
    assert merge_sorted([0], [1, 2, 3, 4]) == [0, 1, 2, 3, 4]
    assert merge_sorted([-5, 0, 10, 20], [1]) == [-5, 0, 1, 10, 20]


def test_inputs_not_modified():
    a = [1, 4]
    b = [2, 3]
    assert merge_sorted(a, b) == [1, 2, 3, 4]
    assert a == [1, 4]
    assert b == [2, 3]
