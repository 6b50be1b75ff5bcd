from solution import is_anagram


def test_simple_anagrams():
    assert is_anagram("listen", "silent") is True
    assert is_anagram("evil", "vile") is True


def test_not_anagrams():
    assert is_anagram("hello", "world") is False
    assert is_anagram("abc", "abcd") is False


def test_ignores_case():
    assert is_anagram("Dormitory", "dirtyroom") is True


def test_ignores_spaces():
    assert is_anagram("conversation", "voices rant on") is True
    assert is_anagram("the eyes", "they see") is True


def test_letter_counts_matter():
    assert is_anagram("aab", "abb") is False
    assert is_anagram("aabb", "ab") is False


def test_empty_strings():
    assert is_anagram("", "") is True
    assert is_anagram(" ", "") is True
