import pytest

from solution import chunk_list


def test_even_split():
    assert chunk_list([1, 2, 3, 4], 2) == [[1, 2], [3, 4]]


def test_last_chunk_shorter():
    assert chunk_list([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]


def test_size_larger_than_list():
    assert chunk_list([1, 2], 5) == [[1, 2]]


def test_size_one():
    assert chunk_list([1, 2, 3], 1) == [[1], [2], [3]]


def test_empty_list():
    assert chunk_list([], 3) == []


def test_invalid_size_raises():
    with pytest.raises(ValueError):
        chunk_list([1, 2, 3], 0)
    with pytest.raises(ValueError):
        chunk_list([1, 2, 3], -2)
