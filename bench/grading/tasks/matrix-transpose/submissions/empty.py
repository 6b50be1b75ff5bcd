def transpose(matrix):
    # TODO: not finished yet
    pass
