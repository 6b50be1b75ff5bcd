from solution import word_count


def test_simple():
    assert word_count("the cat the dog") == {"the": 2, "cat": 1, "dog": 1}


def test_case_insensitive():
    assert word_count("Apple apple APPLE") == {"apple": 3}


def test_punctuation_is_stripped():
    assert word_count("Hello, world! Hello.") == {"hello": 2, "world": 1}


def test_inner_punctuation_is_kept():
    assert word_count("don't stop, don't") == {"don't": 2, "stop": 1}


def test_empty_and_whitespace_only():
    assert word_count("") == {}
    assert word_count("   \n\t ") == {}


def test_punctuation_only_tokens_are_ignored():
    assert word_count("wait - what ?") == {"wait": 1, "what": 1}
