from solution import capitalize_words


def test_simple():
    assert capitalize_words("hello world") == "Hello World"


def test_mixed_case():
    assert capitalize_words("hELLO wORLD") == "Hello World"


def test_apostrophe_inside_word():
    assert capitalize_words("don't stop") == "Don't Stop"


def test_empty_string():
    assert capitalize_words("") == ""


def test_spacing_is_kept():
    assert capitalize_words("a  b") == "A  B"
    assert capitalize_words(" lead and trail ") == " Lead And Trail "


def test_words_starting_with_digits():
    assert capitalize_words("3rd place") == "3rd Place"
