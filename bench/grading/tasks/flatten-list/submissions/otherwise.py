def flatten(nested):
    out = []
    stack = [iter(nested)]
    while stack:
        for element in stack[-1]:
            if isinstance(element, list):
                stack.append(iter(element))
                break
            out.append(element)
        else:
            stack.pop()
    return out
