# Adds up the decimal digits of an integer.
def digit_sum(n):
    # the sign does not matter
    n = abs(n)
    total = 0
    while n > 0:
        # last digit
        total += n % 10
        # drop the last digit
        n //= 10
    return total
