# Classic iterative binary search on a sorted list.
def binary_search(items, target):
    # search window is items[low..high], both ends included
    low, high = 0, len(items) - 1
    while low <= high:
        # look at the middle of the window
        mid = (low + high) // 2
        if items[mid] == target:
            return mid
        # target is in the right half
        if items[mid] < target:
            low = mid + 1
        # target is in the left half
        else:
            high = mid - 1
    # window is empty: not found
    return -1
