# Bracket matching with a stack.
def is_balanced(text):
    # which opening bracket each closing bracket needs
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    for ch in text:
        if ch in "([{":
            # remember the opening bracket
            stack.append(ch)
        elif ch in pairs:
            # a closing bracket must match the last opening one
            if not stack or stack.pop() != pairs[ch]:
                return False
    # balanced only if nothing is left open
    return not stack
