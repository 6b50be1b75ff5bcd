def fibonacci(n):
    if n < 0:
        raise ValueError("n must not be negative")
    a, b = 0, 1
    for _ in range(n - 1):
        a, b = b, a + b
    return a
