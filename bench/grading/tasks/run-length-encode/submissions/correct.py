# Run-length encoding: "aaab" becomes "a3b1".
def run_length_encode(text):
    # nothing to encode
    if not text:
        return ""
    parts = []
    # start the first run with the first character
    current = text[0]
    count = 1
    for ch in text[1:]:
        if ch == current:
            # same character: the run gets longer
            count += 1
        else:
            # run ended: store it and start a new run
            parts.append(current + str(count))
            current = ch
            count = 1
    # do not forget the last run
    parts.append(current + str(count))
    return "".join(parts)
