def roman_to_int(s):
    # TODO: not finished yet
    pass
