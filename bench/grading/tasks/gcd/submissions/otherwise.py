def gcd(a, b):
    x, y = abs(a), abs(b)
    if y == 0:
        return x
    return gcd(y, x % y)
