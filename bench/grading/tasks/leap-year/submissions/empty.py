def is_leap_year(year):
    # TODO: not finished yet
    pass
