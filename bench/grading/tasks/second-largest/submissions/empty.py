def second_largest(numbers):
    # TODO: not finished yet
    pass
