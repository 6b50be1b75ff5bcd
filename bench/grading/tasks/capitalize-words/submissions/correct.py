# Capitalizes every word and keeps the original spacing.
def capitalize_words(text):
    # split on single spaces so that repeated spaces give empty words
    words = text.split(" ")
    # word[:1] also works for empty words, where word[0] would fail
    return " ".join(word[:1].upper() + word[1:].lower() for word in words)
