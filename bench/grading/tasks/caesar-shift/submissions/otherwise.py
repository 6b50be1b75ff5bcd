from string import ascii_lowercase, ascii_uppercase


def caesar_shift(text, shift):
    k = shift % 26
    source = ascii_lowercase + ascii_uppercase
    target = (ascii_lowercase[k:] + ascii_lowercase[:k]
              + ascii_uppercase[k:] + ascii_uppercase[:k])
    return text.translate(str.maketrans(source, target))
