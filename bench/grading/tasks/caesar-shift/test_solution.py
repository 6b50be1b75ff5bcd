from solution import caesar_shift


def test_basic_shift():
    assert caesar_shift("abc", 1) == "bcd"
    assert caesar_shift("hello", 3) == "khoor"


def test_wraps_around():
    assert caesar_shift("xyz", 3) == "abc"
    assert caesar_shift("XYZ", 3) == "ABC"


def test_preserves_case_and_other_characters():
    assert caesar_shift("Hello, World!", 5) == "Mjqqt, Btwqi!"


def test_negative_shift():
    assert caesar_shift("bcd", -1) == "abc"
    assert caesar_shift("ABC", -3) == "XYZ"


def test_shift_larger_than_alphabet():
    assert caesar_shift("abc", 27) == "bcd"
    assert caesar_shift("abc", 52) == "abc"


def test_empty_and_zero_shift():
    assert caesar_shift("", 5) == ""
    assert caesar_shift("Same 123", 0) == "Same 123"
