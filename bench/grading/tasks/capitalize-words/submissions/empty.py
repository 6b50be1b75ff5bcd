def capitalize_words(text):
    # TODO: not finished yet
    return None
