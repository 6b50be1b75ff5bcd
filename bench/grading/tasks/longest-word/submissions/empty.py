def longest_word(sentence):
    # TODO: not finished yet
    pass
