def remove_duplicates(items):
    # dict keys keep insertion order and are unique
    return list(dict.fromkeys(items))
