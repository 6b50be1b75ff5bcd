from solution import remove_duplicates


def test_keeps_first_occurrence_order():
    assert remove_duplicates([3, 1, 3, 2, 1]) == [3, 1, 2]


def test_no_duplicates():
    assert remove_duplicates([5, 4, 3]) == [5, 4, 3]


def test_all_the_same():
    assert remove_duplicates([7, 7, 7]) == [7]


def test_empty_list():
    assert remove_duplicates([]) == []


def test_strings():
    assert remove_duplicates(["b", "a", "b", "c", "a"]) == ["b", "a", "c"]


def test_input_not_modified():
    data = [2, 1, 2]
    assert remove_duplicates(data) == [2, 1]
    assert data == [2, 1, 2]
