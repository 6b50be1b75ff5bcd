def add_fractions(a, b, c, d):
    # TODO: not finished yet
    pass
