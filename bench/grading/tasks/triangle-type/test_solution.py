from solution import triangle_type


def test_equilateral():
    assert triangle_type(3, 3, 3) == "equilateral"
    assert triangle_type(1.5, 1.5, 1.5) == "equilateral"


def test_isosceles_in_any_order():
    assert triangle_type(5, 5, 3) == "isosceles"
    assert triangle_type(3, 5, 5) == "isosceles"
    assert triangle_type(5, 3, 5) == "isosceles"


def test_scalene():
    assert triangle_type(3, 4, 5) == "scalene"
    assert triangle_type(7, 10, 5) == "scalene"


def test_zero_or_negative_sides():
    assert triangle_type(0, 1, 1) == "invalid"
    assert triangle_type(-1, 2, 2) == "invalid"
    assert triangle_type(0, 0, 0) == "invalid"


def test_triangle_inequality():
    assert triangle_type(1, 2, 10) == "invalid"
    assert triangle_type(10, 1, 2) == "invalid"


def test_degenerate_is_invalid():
    assert triangle_type(1, 2, 3) == "invalid"
    assert triangle_type(2, 4, 2) == "invalid"
