def chunk_list(items, size):
    # TODO: not finished yet
    pass
