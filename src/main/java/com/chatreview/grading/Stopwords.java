package com.chatreview.grading;

import java.util.Set;

/** Words shared by the rule-based readers of text: the review's task terms and the offline assistant's keywords. */
public final class Stopwords {

    /** Everyday words (English, a few German and French) that say nothing about what a text is about. */
    public static final Set<String> EVERYDAY = Set.of(
            "the", "and", "for", "are", "but", "not", "you", "your", "with", "this", "that", "have", "has", "was",
            "were", "what", "when", "where", "which", "who", "why", "how", "can", "could", "would", "should", "will",
            "does", "did", "from", "into", "about", "there", "their", "them", "they", "then", "than", "just", "also",
            "any", "all", "some", "more", "most", "other", "such", "only", "own", "same", "very", "too", "its", "our",
            "out", "off", "over", "under", "again", "here", "please", "thanks", "thank", "hello", "need", "want",
            "know", "like", "get", "got", "one", "two", "use", "used", "using", "make", "made", "let", "der", "die",
            "das", "und", "ist", "ich", "wie", "les", "des", "est", "une", "que");

    private Stopwords() {}
}
