# Celsius to Fahrenheit, rounded to one decimal place.
def celsius_to_fahrenheit(celsius):
    # F = C * 9/5 + 32; "/" gives a float, round() keeps one decimal
    return round(celsius * 9 / 5 + 32, 1)
