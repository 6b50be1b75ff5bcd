from itertools import groupby


def run_length_encode(text):
    return "".join(f"{char}{len(list(run))}" for char, run in groupby(text))
