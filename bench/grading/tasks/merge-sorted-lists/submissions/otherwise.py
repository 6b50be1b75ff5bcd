import heapq


def merge_sorted(left, right):
    return list(heapq.merge(left, right))
