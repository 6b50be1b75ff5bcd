def bubble_sort(items):
    # TODO: not finished yet
    pass
