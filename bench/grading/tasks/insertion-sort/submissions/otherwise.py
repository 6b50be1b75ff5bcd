from bisect import insort


def insertion_sort(items):
    ordered = []
    for value in items:
        insort(ordered, value)
    return ordered
