def max_subarray_sum(numbers):
    if not numbers:
        raise ValueError("empty list")
    best = current = numbers[0]
    for x in numbers[1:]:
        current = max(x, current + x)
        best = max(best, current)
    return best
