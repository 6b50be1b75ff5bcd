def fizzbuzz(n):
    # TODO: not finished yet
    pass
