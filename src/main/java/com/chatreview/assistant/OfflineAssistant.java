package com.chatreview.assistant;

import com.chatreview.assistant.Conversation.ContextDocument;
import com.chatreview.assistant.Conversation.Turn;
import com.chatreview.grading.Grader;
import com.chatreview.grading.ProseMeaning;
import com.chatreview.grading.ReviewRequest;
import com.chatreview.grading.ReviewRequest.ReviewDocument;
import com.chatreview.grading.Stopwords;
import com.chatreview.grading.Verdict;
import com.chatreview.meaning.SentenceModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The built-in assistant: no network, no model, the same answer for the same chat every time. It says what it
 * is in its first reply of a chat, then answers from what the chat holds: in a review chat, from the review's
 * verdict ({@link ReviewQuestions}); elsewhere, which words carry the question, the
 * earlier messages and context lines that share them (quoted with where they are), and what the message looks
 * like (a question, code, its length). It streams its reply word by word, as a model would.
 */
class OfflineAssistant implements Assistant {

    static final String PROVIDER = "offline";
    static final String MODEL = "offline-reader-1";
    static final String REVIEW_MODEL = "offline-reviewer-1";
    static final String INTRODUCTION = "I am this service's offline assistant, not a language model: I answer"
            + " by reading and matching the words in this chat, so I can point you to what is already here but"
            + " I cannot reason about it.";

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}_]{3,}");
    private static final Pattern CODE = Pattern.compile("[{};]|\\bdef\\b|\\bclass\\b|\\breturn\\b|=>|\\bimport\\b");
    private static final int MAX_KEYWORDS = 5;
    private static final int MAX_QUOTES = 2;
    private static final int QUOTE_LENGTH = 160;

    private final Duration tokenDelay;
    private final Grader grader;
    private final ProseMeaning meaning;

    /** An offline assistant without a sentence model: written answers are graded as it cannot judge them. */
    OfflineAssistant(Duration tokenDelay) {
        this(tokenDelay, ProseMeaning.NONE);
    }

    OfflineAssistant(Duration tokenDelay, ProseMeaning meaning) {
        this.tokenDelay = tokenDelay;
        this.grader = new Grader(meaning);
        this.meaning = meaning;
    }

    /** The sentence model as the grader asks for it: the similarity of each text to each other one. */
    static ProseMeaning proseMeaning(SentenceModel model) {
        return model::similarities;
    }

    /**
     * Computes the whole review first (it is deterministic and takes milliseconds), then streams its analysis
     * word by word like a reply; the grade is known before the first word.
     */
    @Override
    public Review review(ReviewRequest request, Consumer<String> tokens) {
        Verdict result = grader.review(request);
        int pieces = WordByWord.stream(result.analysis(), tokens, tokenDelay);
        int prompt = wordCount(request.task())
                + wordCount(request.solution())
                + wordCount(request.restrictions())
                + wordCount(request.submission());
        return Review.of(
                result,
                new AssistantReply(
                        result.analysis(),
                        PROVIDER,
                        REVIEW_MODEL,
                        "stop",
                        AssistantReply.Usage.reported(prompt, pieces, prompt + pieces)));
    }

    @Override
    public AssistantReply reply(Conversation conversation, TokenSink tokens) {
        String content = compose(conversation);
        int pieces = WordByWord.stream(content, tokens, tokenDelay);
        int prompt = conversation.turns().stream()
                .mapToInt(turn -> wordCount(turn.content()))
                .sum();
        return new AssistantReply(
                content, PROVIDER, MODEL, "stop", AssistantReply.Usage.reported(prompt, pieces, prompt + pieces));
    }

    private static int wordCount(List<ReviewDocument> documents) {
        return documents.stream()
                .mapToInt(document -> wordCount(document.text()))
                .sum();
    }

    /** The whole reply, before it is streamed. Deterministic: the same conversation gives the same text. */
    String compose(Conversation conversation) {
        List<String> paragraphs = new ArrayList<>();
        if (conversation.firstReply()) {
            paragraphs.add(INTRODUCTION);
        }
        String question = conversation.lastUserTurn().content().strip();
        if (conversation.review() != null) {
            paragraphs.add(ReviewQuestions.answer(question, conversation.review(), conversation.context(), meaning));
            return String.join("\n\n", paragraphs);
        }
        List<String> keywords = keywords(question);
        paragraphs.add(describe(question, keywords));
        List<String> quotes = new ArrayList<>();
        quotes.addAll(contextQuotes(conversation.context(), keywords));
        quotes.addAll(historyQuotes(conversation.turns(), keywords));
        if (quotes.isEmpty()) {
            paragraphs.add(
                    keywords.isEmpty()
                            ? "There is nothing in this chat yet that I can match it with."
                            : "Nothing earlier in this chat mentions " + join(keywords) + ".");
        } else {
            paragraphs.add("What this chat already says about it:\n"
                    + quotes.stream()
                            .limit(MAX_QUOTES + 1L)
                            .map(quote -> "- " + quote)
                            .collect(Collectors.joining("\n")));
        }
        return String.join("\n\n", paragraphs);
    }

    private static String describe(String question, List<String> keywords) {
        StringBuilder text = new StringBuilder();
        int words = wordCount(question);
        boolean asks = question.endsWith("?")
                || question.toLowerCase(Locale.ROOT)
                        .matches("^(what|how|why|when|where|which|who|can|could|is|are|does|do|should)\\b.*");
        if (words == 0) {
            return "Your message has no words I can read.";
        }
        text.append(asks ? "You asked" : "You wrote").append(" ").append(words).append(words == 1 ? " word" : " words");
        long lines = question.lines().count();
        if (lines > 1) {
            text.append(" on ").append(lines).append(" lines");
        }
        if (keywords.isEmpty()) {
            text.append(", none of which stands out from everyday words.");
        } else {
            text.append("; the ones that carry it: ").append(join(keywords)).append('.');
        }
        if (CODE.matcher(question).find()) {
            text.append(" It looks like code, which I can quote but not run or check.");
        }
        return text.toString();
    }

    /** Lines of the context documents sharing the most keywords, with their place. */
    private static List<String> contextQuotes(List<ContextDocument> documents, List<String> keywords) {
        if (keywords.isEmpty()) {
            return List.of();
        }
        record Hit(String quote, long score, int order) {}
        List<Hit> hits = new ArrayList<>();
        int order = 0;
        for (ContextDocument document : documents) {
            List<String> lines = document.content().lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                long score = overlap(lines.get(i), keywords);
                if (score > 0) {
                    hits.add(new Hit(
                            document.name() + ", line " + (i + 1) + ": \"" + shorten(lines.get(i)) + "\"",
                            score,
                            order++));
                }
            }
        }
        return hits.stream()
                .sorted(Comparator.comparingLong(Hit::score).reversed().thenComparingInt(Hit::order))
                .limit(MAX_QUOTES)
                .map(Hit::quote)
                .toList();
    }

    /** Earlier messages of the chat sharing the most keywords with the one to answer. */
    private static List<String> historyQuotes(List<Turn> turns, List<String> keywords) {
        if (keywords.isEmpty() || turns.size() < 2) {
            return List.of();
        }
        record Hit(String quote, long score, int position) {}
        List<Hit> hits = new ArrayList<>();
        List<Turn> earlier = turns.subList(0, turns.size() - 1);
        for (int i = 0; i < earlier.size(); i++) {
            Turn turn = earlier.get(i);
            long score = overlap(turn.content(), keywords);
            if (score > 0) {
                String who = turn.role() == Turn.Role.USER ? "you wrote" : "I answered";
                hits.add(new Hit(
                        "in message " + (i + 1) + " " + who + ": \"" + shorten(turn.content()) + "\"", score, i));
            }
        }
        return hits.stream()
                .sorted(Comparator.comparingLong(Hit::score)
                        .reversed()
                        .thenComparing(Comparator.comparingInt(Hit::position).reversed()))
                .limit(MAX_QUOTES)
                .map(Hit::quote)
                .toList();
    }

    /** The most frequent meaningful words, first appearance breaking ties. */
    static List<String> keywords(String text) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        Matcher matcher = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (matcher.find()) {
            String word = matcher.group();
            if (!Stopwords.EVERYDAY.contains(word) && !word.chars().allMatch(Character::isDigit)) {
                counts.merge(word, 1, Integer::sum);
            }
        }
        List<String> order = new ArrayList<>(counts.keySet());
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue()
                        .reversed()
                        .thenComparing(entry -> order.indexOf(entry.getKey())))
                .limit(MAX_KEYWORDS)
                .map(Map.Entry::getKey)
                .toList();
    }

    private static long overlap(String text, List<String> keywords) {
        Set<String> words = new LinkedHashSet<>();
        Matcher matcher = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (matcher.find()) {
            words.add(matcher.group());
        }
        return keywords.stream().filter(words::contains).count();
    }

    private static String shorten(String text) {
        String line = text.strip().replaceAll("\\s+", " ");
        return line.length() <= QUOTE_LENGTH
                ? line
                : line.substring(0, QUOTE_LENGTH - 1).strip() + "…";
    }

    private static String join(List<String> words) {
        return words.stream().map(word -> "\"" + word + "\"").collect(Collectors.joining(", "));
    }

    private static int wordCount(String text) {
        String stripped = text.strip();
        return stripped.isEmpty() ? 0 : stripped.split("\\s+").length;
    }
}
