from solution import is_palindrome


def test_simple_palindromes():
    assert is_palindrome("racecar") is True
    assert is_palindrome("abba") is True
    assert is_palindrome("a") is True


def test_not_palindromes():
    assert is_palindrome("hello") is False
    assert is_palindrome("ab") is False


def test_ignores_case():
    assert is_palindrome("Racecar") is True
    assert is_palindrome("Noon") is True


def test_ignores_punctuation_and_spaces():
    assert is_palindrome("A man, a plan, a canal: Panama") is True
    assert is_palindrome("Was it a car or a cat I saw?") is True
    assert is_palindrome("No 'x' in Nixon") is True


def test_digits_count():
    assert is_palindrome("12321") is True
    assert is_palindrome("1a2") is False


def test_empty_and_punctuation_only():
    assert is_palindrome("") is True
    assert is_palindrome("!!!") is True
