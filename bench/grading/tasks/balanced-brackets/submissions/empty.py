def is_balanced(text):
    # TODO: not finished yet
    return None
