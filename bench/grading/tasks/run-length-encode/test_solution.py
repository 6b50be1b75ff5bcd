from solution import run_length_encode


def test_basic():
    assert run_length_encode("aaabcc") == "a3b1c2"


def test_single_characters():
    assert run_length_encode("abc") == "a1b1c1"
    assert run_length_encode("z") == "z1"


def test_empty_string():
    assert run_length_encode("") == ""


def test_long_runs_use_several_digits():
    assert run_length_encode("a" * 12) == "a12"
    assert run_length_encode("b" * 11 + "a") == "b11a1"


def test_repeated_groups_are_separate():
    assert run_length_encode("aabbaa") == "a2b2a2"


def test_case_sensitive_and_spaces():
    assert run_length_encode("aaAA  ") == "a2A2 2"
