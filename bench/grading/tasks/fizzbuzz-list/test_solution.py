from solution import fizzbuzz


def test_first_five():
    assert fizzbuzz(5) == ["1", "2", "Fizz", "4", "Buzz"]


def test_up_to_fifteen():
    assert fizzbuzz(15) == [
        "1", "2", "Fizz", "4", "Buzz", "Fizz", "7", "8", "Fizz", "Buzz",
        "11", "Fizz", "13", "14", "FizzBuzz",
    ]


def test_length_and_last_items():
    result = fizzbuzz(30)
    assert len(result) == 30
    assert result[-1] == "FizzBuzz"
    assert result[19] == "Buzz"


def test_one():
    assert fizzbuzz(1) == ["1"]


def test_zero_and_negative():
    assert fizzbuzz(0) == []
    assert fizzbuzz(-3) == []


def test_numbers_are_strings():
    result = fizzbuzz(11)
    assert all(isinstance(item, str) for item in result)
    assert result[10] == "11"
