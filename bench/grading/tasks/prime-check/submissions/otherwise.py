from math import isqrt


def is_prime(number):
    return number >= 2 and all(number % d for d in range(2, isqrt(number) + 1))
