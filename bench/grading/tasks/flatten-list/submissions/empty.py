def flatten(nested):
    # TODO: not finished yet
    return None
