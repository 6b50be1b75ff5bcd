def bubble_sort(values):
    arr = values[:]
    end = len(arr) - 1
    swapped = True
    while swapped and end > 0:
        swapped = False
        for k in range(end):
            if arr[k + 1] < arr[k]:
                arr[k + 1], arr[k] = arr[k], arr[k + 1]
                swapped = True
        end -= 1
    return arr
