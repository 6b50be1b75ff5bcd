def max_subarray_sum(numbers):
    # TODO: not finished yet
    pass
