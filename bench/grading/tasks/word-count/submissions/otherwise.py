from collections import Counter
from string import punctuation


def word_count(text):
    tokens = (token.strip(punctuation).lower() for token in text.split())
    return dict(Counter(token for token in tokens if token))
