def max_subarray_sum(numbers):
    if len(numbers) == 0:
        raise ValueError("need at least one number")
    prefix = 0
    lowest_prefix = 0
    answer = float("-inf")
    for value in numbers:
        prefix += value
        answer = max(answer, prefix - lowest_prefix)
        lowest_prefix = min(lowest_prefix, prefix)
    return answer
