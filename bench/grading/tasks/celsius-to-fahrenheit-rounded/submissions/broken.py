def celsius_to_fahrenheit(celsius)
    return round(celsius * 9 / 5 + 32, 1)
