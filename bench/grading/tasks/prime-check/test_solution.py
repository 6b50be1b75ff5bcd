from solution import is_prime


def test_small_primes():
    for p in (2, 3, 5, 7, 11, 13):
        assert is_prime(p) is True


def test_small_composites():
    for c in (4, 6, 8, 9, 10, 15):
        assert is_prime(c) is False


def test_below_two():
    assert is_prime(1) is False
    assert is_prime(0) is False
    assert is_prime(-7) is False


def test_squares_of_primes():
    assert is_prime(25) is False
    assert is_prime(49) is False
    assert is_prime(121) is False


def test_larger_numbers():
    assert is_prime(97) is True
    assert is_prime(7919) is True
    assert is_prime(7917) is False
    assert is_prime(1000003) is True
