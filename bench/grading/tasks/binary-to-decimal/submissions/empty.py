def binary_to_decimal(bits):
    # TODO: not finished yet
    pass
