def caesar_shift(text, shift):
    # TODO: not finished yet
    pass
