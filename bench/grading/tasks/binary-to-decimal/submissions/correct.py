# Converts a string of 0s and 1s to an int.
def binary_to_decimal(bits):
    # an empty string is not a number
    if not bits:
        raise ValueError("empty string")
    value = 0
    for ch in bits:
        # only the two binary digits are allowed
        if ch not in "01":
            raise ValueError("invalid binary digit: " + ch)
        # shift left by one binary place and add the new bit
        value = value * 2 + int(ch)
    return value
