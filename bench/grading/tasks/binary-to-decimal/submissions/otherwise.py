def binary_to_decimal(bits):
    if bits == "" or set(bits) - {"0", "1"}:
        raise ValueError(f"not a binary string: {bits!r}")
    return sum(2 ** power for power, bit in enumerate(reversed(bits)) if bit == "1")
