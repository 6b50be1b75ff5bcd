def digit_sum(n):
    # TODO: not finished yet
    pass
