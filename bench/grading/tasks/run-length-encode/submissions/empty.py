def run_length_encode(text):
    # TODO: not finished yet
    pass
