def binary_to_decimal(bits):
    if not bits:
        raise ValueError("empty string")
    value = 0
    for ch in bits:
        if ch not in "01":
            raise ValueError("invalid binary digit: " + ch)
        value = value * 10 + int(ch)
    return value
