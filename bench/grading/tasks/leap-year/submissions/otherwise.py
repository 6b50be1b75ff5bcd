def is_leap_year(y):
    divisible = lambda d: y % d == 0
    return divisible(4) and (not divisible(100) or divisible(400))
