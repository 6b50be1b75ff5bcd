def roman_to_int(numeral):
    worth = dict(zip("IVXLCDM", (1, 5, 10, 50, 100, 500, 1000)))
    result = 0
    previous = 0
    for symbol in reversed(numeral):
        amount = worth[symbol]
        if amount < previous:
            result -= amount
        else:
            result += amount
            previous = amount
    return result
