# Iterative Fibonacci: F(0) = 0, F(1) = 1, F(n) = F(n-1) + F(n-2).
def fibonacci(n):
    # the sequence is not defined for negative indexes
    if n < 0:
        raise ValueError("n must not be negative")
    # a is F(k), b is F(k + 1), starting at k = 0
    a, b = 0, 1
    # move one step forward n times
    for _ in range(n):
        a, b = b, a + b
    return a
