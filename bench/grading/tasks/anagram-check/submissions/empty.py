def is_anagram(a, b):
    # TODO: not finished yet
    pass
