def median(values):
    data = list(values)
    if len(data) == 0:
        raise ValueError("no values")
    data.sort()
    half, odd = divmod(len(data), 2)
    if odd:
        return data[half]
    return sum(data[half - 1:half + 1]) / 2
