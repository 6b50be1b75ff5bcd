from solution import celsius_to_fahrenheit


def test_freezing_and_boiling():
    assert celsius_to_fahrenheit(0) == 32.0
    assert celsius_to_fahrenheit(100) == 212.0


def test_minus_forty_is_the_same():
    assert celsius_to_fahrenheit(-40) == -40.0


def test_body_temperature():
    assert celsius_to_fahrenheit(37) == 98.6


def test_rounded_to_one_decimal():
    assert celsius_to_fahrenheit(36.6) == 97.9
    assert celsius_to_fahrenheit(21.3) == 70.3


def test_negative_values():
    assert celsius_to_fahrenheit(-10) == 14.0
    assert celsius_to_fahrenheit(-17.5) == 0.5


def test_returns_float():
    result = celsius_to_fahrenheit(25)
    assert isinstance(result, float)
    assert result == 77.0
