def fizzbuzz(n):
    def word(k):
        label = ("Fizz" if k % 3 == 0 else "") + ("Buzz" if k % 5 == 0 else "")
        return label or str(k)

    return [word(k) for k in range(1, max(n, 0) + 1)]
