def digit_sum(number):
    return sum(int(digit) for digit in str(abs(number)))
