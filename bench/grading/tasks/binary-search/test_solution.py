from solution import binary_search


def test_finds_middle_element():
    assert binary_search([1, 3, 5, 7, 9], 5) == 2


def test_finds_first_and_last():
    assert binary_search([1, 3, 5, 7, 9], 1) == 0
    assert binary_search([1, 3, 5, 7, 9], 9) == 4


def test_missing_value():
    assert binary_search([1, 3, 5, 7, 9], 4) == -1
    assert binary_search([1, 3, 5, 7, 9], 0) == -1
    assert binary_search([1, 3, 5, 7, 9], 10) == -1


def test_empty_list():
    assert binary_search([], 3) == -1


def test_single_element():
    assert binary_search([5], 5) == 0
    assert binary_search([5], 6) == -1


def test_every_position_of_larger_list():
    items = list(range(0, 100, 3))
    for index, value in enumerate(items):
        assert binary_search(items, value) == index
    assert binary_search(items, 50) == -1
