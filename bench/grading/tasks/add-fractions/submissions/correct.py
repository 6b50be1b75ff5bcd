from math import gcd


# Adds two fractions and returns the reduced result as (numerator, denominator).
def add_fractions(a, b, c, d):
    # a zero denominator is not a fraction
    if b == 0 or d == 0:
        raise ValueError("denominator must not be zero")
    # cross-multiply to get a common denominator
    num = a * d + c * b
    den = b * d
    # keep the sign on the numerator only
    if den < 0:
        num, den = -num, -den
    # divide both parts by their greatest common divisor
    g = gcd(num, den)
    return (num // g, den // g)
