# Finds the second largest distinct value in one pass.
def second_largest(numbers):
    largest = None
    second = None
    for x in numbers:
        if largest is None or x > largest:
            # new maximum: the old maximum becomes the runner-up
            second = largest
            largest = x
        elif x != largest and (second is None or x > second):
            # smaller than the maximum but better than the runner-up
            second = x
    # still None if there were fewer than two distinct values
    return second
