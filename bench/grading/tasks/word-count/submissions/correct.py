import string


# Counts how often each word occurs in a text.
def word_count(text):
    counts = {}
    # split() with no argument splits on any whitespace
    for raw in text.split():
        # remove punctuation at both ends and ignore case
        word = raw.strip(string.punctuation).lower()
        # skip tokens such as "-" that were only punctuation
        if word:
            counts[word] = counts.get(word, 0) + 1
    return counts
