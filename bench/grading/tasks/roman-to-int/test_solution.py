from solution import roman_to_int


def test_single_symbols():
    assert roman_to_int("I") == 1
    assert roman_to_int("V") == 5
    assert roman_to_int("X") == 10
    assert roman_to_int("L") == 50
    assert roman_to_int("C") == 100
    assert roman_to_int("D") == 500
    assert roman_to_int("M") == 1000


def test_additive():
    assert roman_to_int("III") == 3
    assert roman_to_int("VIII") == 8
    assert roman_to_int("LXX") == 70
    assert roman_to_int("MM") == 2000


def test_subtractive_pairs():
    assert roman_to_int("IV") == 4
    assert roman_to_int("IX") == 9
    assert roman_to_int("XL") == 40
    assert roman_to_int("XC") == 90
    assert roman_to_int("CD") == 400
    assert roman_to_int("CM") == 900


def test_mixed():
    assert roman_to_int("MCMXCIV") == 1994
    assert roman_to_int("LVIII") == 58
    assert roman_to_int("MMXXIV") == 2024


def test_largest():
    assert roman_to_int("MMMCMXCIX") == 3999
