# Primality test by trial division.
def is_prime(n):
    # 0, 1 and negative numbers are not prime
    if n < 2:
        return False
    i = 2
    # a divisor larger than sqrt(n) would pair with one smaller than it
    while i * i <= n:
        if n % i == 0:
            return False
        i += 1
    return True
