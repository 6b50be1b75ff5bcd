# Kadane's algorithm.
def max_subarray_sum(numbers):
    # the slice must be non-empty, so an empty list has no answer
    if not numbers:
        raise ValueError("empty list")
    # current: best sum of a slice ending here; best: best seen so far
    best = current = numbers[0]
    for x in numbers[1:]:
        # either extend the previous slice or start again at x
        current = max(x, current + x)
        best = max(best, current)
    return best
