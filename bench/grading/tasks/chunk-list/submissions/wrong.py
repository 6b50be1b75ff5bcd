def chunk_list(items, size):
    if size < 1:
        raise ValueError("size must be at least 1")
    chunks = []
    for start in range(0, len(items) - 1, size):
        chunks.append(items[start:start + size])
    return chunks
