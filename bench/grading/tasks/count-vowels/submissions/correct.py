# Counts the vowels a, e, i, o, u in a string.
def count_vowels(text):
    count = 0
    # lower() so that upper-case vowels are counted too
    for ch in text.lower():
        if ch in "aeiou":
            count += 1
    return count
