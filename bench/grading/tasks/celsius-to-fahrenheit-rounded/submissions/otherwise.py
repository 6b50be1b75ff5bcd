def celsius_to_fahrenheit(degrees):
    fahrenheit = 32.0 + 1.8 * degrees
    return round(fahrenheit, 1)
