from solution import is_balanced


def test_simple_balanced():
    assert is_balanced("()") is True
    assert is_balanced("[]") is True
    assert is_balanced("()[]{}") is True


def test_nested():
    assert is_balanced("{[()]}") is True
    assert is_balanced("([]{})") is True


def test_mismatched_or_crossed():
    assert is_balanced("(]") is False
    assert is_balanced("([)]") is False
    assert is_balanced(")(") is False


def test_unclosed():
    assert is_balanced("((") is False
    assert is_balanced("{[") is False
    assert is_balanced("(") is False


def test_extra_closing():
    assert is_balanced("())") is False
    assert is_balanced("]") is False


def test_other_characters_ignored():
    assert is_balanced("f(x[1]) + {y}") is True
    assert is_balanced("print(x") is False
    assert is_balanced("hello") is True
    assert is_balanced("") is True
