def is_leap_year(year):
    if year % 40 == 0:
        return True
    if year % 100 == 0:
        return False
    return year % 4 == 0
