def gcd(a, b):
    # TODO: not finished yet
    pass
