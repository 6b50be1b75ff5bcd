from solution import flatten


def test_already_flat():
    assert flatten([1, 2, 3]) == [1, 2, 3]


def test_one_level():
    assert flatten([1, [2, 3], 4]) == [1, 2, 3, 4]


def test_deep_nesting():
    assert flatten([1, [2, [3, [4, [5]]]]]) == [1, 2, 3, 4, 5]


def test_empty_lists():
    assert flatten([]) == []
    assert flatten([[], [[]]]) == []


def test_other_types_are_not_flattened():
    assert flatten([(1, 2), "ab", [3]]) == [(1, 2), "ab", 3]


def test_order_is_preserved():
    assert flatten([[3, 2], [1, [0]]]) == [3, 2, 1, 0]
