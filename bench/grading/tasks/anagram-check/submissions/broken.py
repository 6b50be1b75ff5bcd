def is_anagram(a, b):
    first = sorted(a.replace(" ", "").lower()
    second = sorted(b.replace(" ", "").lower())
    return first == second
