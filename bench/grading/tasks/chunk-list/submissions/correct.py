# Splits a list into pieces of a given size.
def chunk_list(items, size):
    # a chunk needs at least one element
    if size < 1:
        raise ValueError("size must be at least 1")
    chunks = []
    # start positions 0, size, 2*size, ...
    for start in range(0, len(items), size):
        # slicing past the end is fine: the last chunk is just shorter
        chunks.append(items[start:start + size])
    return chunks
