from bisect import bisect_left


def binary_search(items, target):
    pos = bisect_left(items, target)
    found = pos < len(items) and items[pos] == target
    return pos if found else -1
