from math import gcd


def add_fractions(a, b, c, d)
    if b == 0 or d == 0:
        raise ValueError("denominator must not be zero")
    num = a * d + c * b
    den = b * d
    if den < 0:
        num, den = -num, -den
    g = gcd(num, den)
    return (num // g, den // g)
