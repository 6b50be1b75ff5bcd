# Recursively flattens nested lists into one list.
def flatten(nested):
    result = []
    for item in nested:
        if isinstance(item, list):
            # a sub-list: flatten it first, then add its elements
            result.extend(flatten(item))
        else:
            # anything else (numbers, strings, tuples) is kept as is
            result.append(item)
    return result
