def fibonacci(n):
    # TODO: not finished yet
    pass
