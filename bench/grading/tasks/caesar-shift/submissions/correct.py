# Caesar cipher: move each letter `shift` places along the alphabet.
def caesar_shift(text, shift):
    result = []
    for ch in text:
        if "a" <= ch <= "z":
            # position 0-25, shift, wrap with % 26, back to a letter
            result.append(chr((ord(ch) - ord("a") + shift) % 26 + ord("a")))
        elif "A" <= ch <= "Z":
            # same for capital letters
            result.append(chr((ord(ch) - ord("A") + shift) % 26 + ord("A")))
        else:
            # spaces, digits, punctuation are not changed
            result.append(ch)
    return "".join(result)
