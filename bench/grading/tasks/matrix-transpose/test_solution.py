from solution import transpose


def test_square():
    assert transpose([[1, 2], [3, 4]]) == [[1, 3], [2, 4]]


def test_rectangular():
    assert transpose([[1, 2, 3], [4, 5, 6]]) == [[1, 4], [2, 5], [3, 6]]


def test_single_row_and_single_column():
    assert transpose([[1, 2, 3]]) == [[1], [2], [3]]
    assert transpose([[1], [2]]) == [[1, 2]]


def test_empty_matrix():
    assert transpose([]) == []


def test_transposing_twice_gives_original():
    m = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    assert transpose(transpose(m)) == m


def test_input_not_modified():
    m = [[1, 2], [3, 4]]
    assert transpose(m) == [[1, 3], [2, 4]]
    assert m == [[1, 2], [3, 4]]
