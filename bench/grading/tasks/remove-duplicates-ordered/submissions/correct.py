# Removes duplicates but keeps the original order.
def remove_duplicates(items):
    # set for fast "have I seen this?" checks
    seen = set()
    result = []
    for item in items:
        # only the first occurrence is kept
        if item not in seen:
            seen.add(item)
            result.append(item)
    return result
