def capitalize_words(text)
    words = text.split(" ")
    return " ".join(word[:1].upper() + word[1:].lower() for word in words)
