def median(values):
    # TODO: not finished yet
    pass
