def is_prime(n):
    # TODO: not finished yet
    pass
