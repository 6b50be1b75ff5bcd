# Returns the middle value of a list of numbers.
def median(values):
    # there is no median of nothing
    if not values:
        raise ValueError("median of empty list")
    # sorted() makes a copy, so the caller's list is untouched
    ordered = sorted(values)
    n = len(ordered)
    mid = n // 2
    # odd length: exactly one middle element
    if n % 2 == 1:
        return ordered[mid]
    # even length: average the two middle elements
    return (ordered[mid - 1] + ordered[mid]) / 2
