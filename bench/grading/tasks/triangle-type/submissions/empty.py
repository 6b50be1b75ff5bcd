def triangle_type(a, b, c):
    # TODO: not finished yet
    pass
