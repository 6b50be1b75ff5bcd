def is_palindrome(text):
    # TODO: not finished yet
    pass
