from solution import count_vowels


def test_lowercase():
    assert count_vowels("hello") == 2
    assert count_vowels("rhythm") == 0


def test_uppercase_and_mixed_case():
    assert count_vowels("HELLO") == 2
    assert count_vowels("AeIoU") == 5


def test_empty_string():
    assert count_vowels("") == 0


def test_y_is_not_a_vowel():
    assert count_vowels("yyy") == 0
    assert count_vowels("sky") == 0


def test_sentence():
    assert count_vowels("The quick brown fox") == 5


def test_non_letters_ignored():
    assert count_vowels("a1e2!i?") == 3
