def transpose(matrix):
    return [list(column) for column in zip(*matrix)]
