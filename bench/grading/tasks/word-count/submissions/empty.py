def word_count(text):
    # TODO: not finished yet
    pass
