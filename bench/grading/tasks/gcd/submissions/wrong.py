def gcd(a, b):
    a, b = abs(a), abs(b)
    while b > 1:
        a, b = b, a % b
    return a
