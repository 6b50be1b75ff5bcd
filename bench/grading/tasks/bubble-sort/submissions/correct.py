# Bubble sort on a copy of the list.
def bubble_sort(items):
    # copy so the caller's list is not changed
    result = list(items)
    n = len(result)
    for i in range(n):
        # after pass i the last i elements are already in place
        for j in range(n - 1 - i):
            # swap neighbours that are in the wrong order
            if result[j] > result[j + 1]:
                result[j], result[j + 1] = result[j + 1], result[j]
    return result
