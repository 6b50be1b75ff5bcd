# Gregorian leap-year rule.
def is_leap_year(year):
    # every 400 years the century year is a leap year again
    if year % 400 == 0:
        return True
    # other century years are not leap years
    if year % 100 == 0:
        return False
    # otherwise: every fourth year
    return year % 4 == 0
