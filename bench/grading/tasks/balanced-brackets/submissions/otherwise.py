def is_balanced(text):
    remaining = "".join(c for c in text if c in "()[]{}")
    previous = None
    while previous != remaining:
        previous = remaining
        remaining = remaining.replace("()", "").replace("[]", "").replace("{}", "")
    return remaining == ""
