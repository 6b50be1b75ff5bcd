def factorial(n):
    # TODO: not finished yet
    pass
