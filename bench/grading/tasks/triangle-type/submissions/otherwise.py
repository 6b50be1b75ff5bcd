def triangle_type(a, b, c):
    sides = [a, b, c]
    if min(sides) <= 0:
        return "invalid"
    if a + b <= c or a + c <= b or b + c <= a:
        return "invalid"
    names = {1: "equilateral", 2: "isosceles", 3: "scalene"}
    return names[len(set(sides))]
