def remove_duplicates(items):
    # TODO: not finished yet
    pass
