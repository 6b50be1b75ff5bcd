# Checks whether a text is a palindrome, ignoring case and punctuation.
def is_palindrome(text):
    # keep only letters and digits, all in lower case
    cleaned = [ch.lower() for ch in text if ch.isalnum()]
    # a palindrome equals its own reverse
    return cleaned == cleaned[::-1]
