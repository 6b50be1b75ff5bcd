from collections import Counter


def is_anagram(a, b):
    def letters(word):
        return Counter(ch.lower() for ch in word if ch != " ")

    return letters(a) == letters(b)
