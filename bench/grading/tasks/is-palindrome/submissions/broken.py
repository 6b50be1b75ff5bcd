def is_palindrome(text):
    cleaned = [ch.lower() for ch in text if ch.isalnum(]
    return cleaned == cleaned[::-1]
