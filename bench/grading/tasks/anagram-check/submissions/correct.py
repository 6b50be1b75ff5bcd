# Two words are anagrams when they use exactly the same letters.
def is_anagram(a, b):
    # drop spaces, ignore case, and sort the letters of each string
    first = sorted(a.replace(" ", "").lower())
    second = sorted(b.replace(" ", "").lower())
    # equal sorted letters means the same multiset of letters
    return first == second
