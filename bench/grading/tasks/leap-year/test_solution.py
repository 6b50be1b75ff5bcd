from solution import is_leap_year


def test_divisible_by_four():
    assert is_leap_year(2024) is True
    assert is_leap_year(1996) is True
    assert is_leap_year(4) is True


def test_not_divisible_by_four():
    assert is_leap_year(2023) is False
    assert is_leap_year(2019) is False
    assert is_leap_year(1) is False


def test_centuries_are_not_leap():
    assert is_leap_year(1900) is False
    assert is_leap_year(1800) is False
    assert is_leap_year(2100) is False


def test_divisible_by_four_hundred():
    assert is_leap_year(2000) is True
    assert is_leap_year(1600) is True
    assert is_leap_year(2400) is True
