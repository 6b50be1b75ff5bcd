package com.chatreview.grading;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Text in a student's file that speaks to whoever grades it rather than being part of the work: asking for a
 * grade, telling the grader to ignore its instructions, giving it a new role. It is read everywhere, comments
 * included (that is where it hides), reported to the teacher, and never changes a grade.
 */
final class GraderAddressed {

    /** A line of a student's file addressed to the grader, and what it attempts. */
    record Attempt(Place place, String attempt) {}

    private record Sign(Pattern pattern, String attempt) {}

    private static final String LETTER = "(?-i:[A-F])[+-]?(?![\\p{L}\\p{N}])";
    private static final List<Sign> SIGNS = List.of(
            new Sign(
                    Pattern.compile("(?i)\\b(?:ignore|disregard|forget|override|skip)\\b[^.\\n]{0,40}?"
                            + "\\b(?:instructions?|rules|prompts?|guidelines|directions|criteria|rubric)\\b"),
                    "tells the grader to set its instructions aside"),
            new Sign(
                    Pattern.compile("(?i)\\b(?:give|award|assign|grant)\\s+(?:this|me|it|us|the\\s+\\w+)"
                            + "(?:\\s+\\w+)?\\s+(?:an?\\s+|the\\s+grade\\s+|a\\s+grade\\s+of\\s+)?[\"'“]?"
                            + LETTER),
                    "asks for a grade"),
            new Sign(
                    Pattern.compile("(?i)\\b(?:grade|mark|rate|score)\\s+(?:this|it|me)(?:\\s+\\w+)?\\s+"
                            + "(?:as\\s+|with\\s+)?(?:an?\\s+)?[\"'“]?" + LETTER),
                    "asks for a grade"),
            new Sign(
                    Pattern.compile("(?i)(?:^|[^\\p{L}])(?:final\\s+)?grade\\s*:\\s*[\"'“*]*" + LETTER),
                    "writes its own grade"),
            new Sign(
                    Pattern.compile("(?i)\\b(?:you\\s+are\\s+now|you\\s+are\\s+no\\s+longer|from\\s+now\\s+on\\s+you"
                            + "|pretend\\s+(?:to\\s+be|you\\s+are)|act\\s+as\\s+(?:an?\\s+)?(?:ai|assistant|grader"
                            + "|teacher|reviewer))\\b"),
                    "gives the grader a new role"),
            new Sign(
                    Pattern.compile("(?i)\\b(?:system\\s+prompt|new\\s+instructions|developer\\s+mode|jailbreak"
                            + "|(?:dear|attention|hey|hello|note\\s+to(?:\\s+the)?)\\s+(?:grader|reviewer|ai|assistant"
                            + "|model|llm|chatgpt|gpt|language\\s+model)|to\\s+the\\s+(?:ai|llm|language\\s+model"
                            + "|automatic\\s+grader|grader|reviewer))\\b"),
                    "speaks to the grader"));

    private GraderAddressed() {}

    /** Every line of the files with such text, in file and line order, one finding a line. */
    static List<Attempt> find(List<SourceFile> files) {
        List<Attempt> findings = new ArrayList<>();
        for (SourceFile file : files) {
            List<String> lines = file.lines();
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                for (Sign sign : SIGNS) {
                    if (sign.pattern().matcher(line).find()) {
                        findings.add(new Attempt(new Place(file.name(), i + 1, line), sign.attempt()));
                        break;
                    }
                }
            }
        }
        return findings;
    }
}
