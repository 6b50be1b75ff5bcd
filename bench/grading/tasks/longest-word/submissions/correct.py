# Returns the first longest word of a sentence.
def longest_word(sentence):
    # "" is the answer when there are no words
    best = ""
    for word in sentence.split():
        # strictly longer, so on a tie the earlier word is kept
        if len(word) > len(best):
            best = word
    return best
