# Insertion sort on a copy of the list.
def insertion_sort(items):
    # work on a copy so the input stays as it was
    result = list(items)
    for i in range(1, len(result)):
        # the element to insert into the sorted part result[0..i-1]
        key = result[i]
        j = i - 1
        # shift larger elements one place to the right
        while j >= 0 and result[j] > key:
            result[j + 1] = result[j]
            j -= 1
        # put the element into the gap
        result[j + 1] = key
    return result
