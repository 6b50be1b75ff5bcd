def merge_sorted(a, b):
    # TODO: not finished yet
    pass
