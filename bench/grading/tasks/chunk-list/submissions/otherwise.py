def chunk_list(items, size):
    if size <= 0:
        raise ValueError("chunk size must be positive")
    remaining = list(items)
    pieces = []
    while remaining:
        pieces.append(remaining[:size])
        remaining = remaining[size:]
    return pieces
