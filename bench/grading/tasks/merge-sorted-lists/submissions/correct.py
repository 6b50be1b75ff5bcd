# Merges two sorted lists (the merge step of merge sort).
def merge_sorted(a, b):
    result = []
    # i walks through a, j walks through b
    i = j = 0
    while i < len(a) and j < len(b):
        # take the smaller head; <= keeps the merge stable
        if a[i] <= b[j]:
            result.append(a[i])
            i += 1
        else:
            result.append(b[j])
            j += 1
    # one list is used up: copy what is left of the other
    result.extend(a[i:])
    result.extend(b[j:])
    return result
