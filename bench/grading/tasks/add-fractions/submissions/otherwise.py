from fractions import Fraction


def add_fractions(p, q, r, s):
    """Let the standard library do the arithmetic and the reduction."""
    if 0 in (q, s):
        raise ValueError("zero denominator")
    total = Fraction(p, q) + Fraction(r, s)
    return total.numerator, total.denominator
