from functools import reduce
from operator import mul


def factorial(number):
    if number < 0:
        raise ValueError("negative")
    return reduce(mul, range(1, number + 1), 1)
