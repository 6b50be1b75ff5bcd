# Classifies a triangle from its three side lengths.
def triangle_type(a, b, c):
    # sort so that z is the longest side
    x, y, z = sorted((a, b, c))
    # sides must be positive and the two short ones must be longer than the long one
    if x <= 0 or x + y <= z:
        return "invalid"
    # smallest equals largest: all three are equal
    if x == z:
        return "equilateral"
    # after sorting, equal sides are next to each other
    if x == y or y == z:
        return "isosceles"
    return "scalene"
