def fibonacci(n):
    """Fast doubling: F(2k) = F(k) * (2F(k+1) - F(k)), F(2k+1) = F(k)^2 + F(k+1)^2."""
    if n < 0:
        raise ValueError("negative index")

    def pair(k):
        if k == 0:
            return 0, 1
        f, g = pair(k // 2)
        even = f * (2 * g - f)
        odd = f * f + g * g
        return (odd, even + odd) if k % 2 else (even, odd)

    return pair(n)[0]
