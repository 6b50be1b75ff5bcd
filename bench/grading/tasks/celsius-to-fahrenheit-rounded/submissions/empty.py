def celsius_to_fahrenheit(celsius):
    # TODO: not finished yet
    pass
