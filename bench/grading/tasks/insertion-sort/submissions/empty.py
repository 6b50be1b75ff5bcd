def insertion_sort(items):
    # TODO: not finished yet
    pass
