from solution import longest_word


def test_simple():
    assert longest_word("the quick brown fox") == "quick"


def test_tie_returns_first():
    assert longest_word("cat dog") == "cat"
    assert longest_word("one two six ten") == "one"


def test_single_word():
    assert longest_word("hello") == "hello"


def test_empty_and_whitespace():
    assert longest_word("") == ""
    assert longest_word("   ") == ""


def test_punctuation_is_part_of_word():
    assert longest_word("hi there!") == "there!"


def test_extra_spaces():
    assert longest_word("a   bb  ccc ") == "ccc"
