def count_vowels(text):
    folded = text.casefold()
    return sum(folded.count(vowel) for vowel in "aeiou")
