# Euclid's algorithm.
def gcd(a, b):
    # work with non-negative numbers so the result is never negative
    a, b = abs(a), abs(b)
    # replace (a, b) by (b, a mod b) until the remainder is zero
    while b != 0:
        a, b = b, a % b
    # the last non-zero value is the gcd
    return a
