from solution import gcd


def test_basic():
    assert gcd(12, 8) == 4
    assert gcd(54, 24) == 6


def test_coprime():
    assert gcd(7, 3) == 1
    assert gcd(17, 5) == 1


def test_with_zero():
    assert gcd(0, 5) == 5
    assert gcd(9, 0) == 9
    assert gcd(0, 0) == 0


def test_negative_arguments():
    assert gcd(-12, 8) == 4
    assert gcd(12, -18) == 6
    assert gcd(-4, -6) == 2


def test_one_divides_the_other():
    assert gcd(5, 25) == 5
    assert gcd(100, 10) == 10
