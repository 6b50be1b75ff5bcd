def binary_search(items, target):
    # TODO: not finished yet
    return None
