def second_largest(numbers):
    largest = None
    second = None
    for x in numbers:
        if largest is None or x >= largest:
            second = largest
            largest = x
        elif x != largest and (second is None or x > second):
            second = x
    return second
