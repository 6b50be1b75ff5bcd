# n! computed with a loop.
def factorial(n):
    # factorial is only defined for n >= 0
    if n < 0:
        raise ValueError("n must not be negative")
    # 0! and 1! are both 1, so start from 1
    result = 1
    # multiply by 2, 3, ..., n (n + 1 because range excludes the end)
    for i in range(2, n + 1):
        result *= i
    return result
