from solution import digit_sum


def test_single_digit():
    assert digit_sum(5) == 5
    assert digit_sum(0) == 0


def test_several_digits():
    assert digit_sum(123) == 6
    assert digit_sum(9999) == 36
    assert digit_sum(1000) == 1


def test_negative_numbers():
    assert digit_sum(-123) == 6
    assert digit_sum(-7) == 7


def test_large_number():
    assert digit_sum(12345678901234567890) == 90
