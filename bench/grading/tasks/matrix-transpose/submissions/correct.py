# Swaps rows and columns of a matrix.
def transpose(matrix):
    # an empty matrix has no columns to read
    if not matrix:
        return []
    rows = len(matrix)
    cols = len(matrix[0])
    result = []
    # each column of the input becomes a row of the output
    for c in range(cols):
        new_row = []
        for r in range(rows):
            new_row.append(matrix[r][c])
        result.append(new_row)
    return result
