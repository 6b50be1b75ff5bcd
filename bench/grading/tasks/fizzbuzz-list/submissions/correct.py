# Builds the FizzBuzz sequence from 1 to n as a list of strings.
def fizzbuzz(n):
    result = []
    # n + 1 because range() stops before its end
    for i in range(1, n + 1):
        # check 15 first, otherwise 3 or 5 would match first
        if i % 15 == 0:
            result.append("FizzBuzz")
        elif i % 3 == 0:
            result.append("Fizz")
        elif i % 5 == 0:
            result.append("Buzz")
        else:
            # plain numbers are stored as strings too
            result.append(str(i))
    return result
