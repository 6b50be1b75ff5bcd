import re


def capitalize_words(text):
    return re.sub(r"[^ ]+", lambda match: match.group(0).capitalize(), text)
