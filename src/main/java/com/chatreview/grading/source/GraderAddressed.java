package com.chatreview.grading.source;

import com.chatreview.grading.Place;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Text in a student's file that speaks to whoever grades it rather than being part of the work: asking for a
 * grade, telling the grader to ignore its instructions, giving it a new role. It is read everywhere, comments
 * included (that is where it hides), reported to the teacher, and never changes a grade.
 */
public final class GraderAddressed {

    /** A line of a student's file addressed to the grader, and what it attempts. */
    public record Attempt(Place place, String attempt) {}

    private record Sign(Pattern pattern, String attempt) {}

    private static final String LETTER = "(?-i:[A-F])[+-]?(?![\\p{L}\\p{N}])";
    private static final String INSTRUCTIONS = "instructions?|rules|prompts?|guidelines|directions|criteria|rubric"
            + "|anweisungen|regeln|vorgaben|instructions|consignes|règles|instrucciones|reglas|indicaciones"
            + "|istruzioni|regole|instruções|regras|инструкци\\p{L}*|правил\\p{L}*|указани\\p{L}*";
    private static final String FULL_MARKS = "full\\s+(?:marks|points|score|credit)|maximum\\s+(?:points|marks|score)"
            + "|max(?:imum)?\\s+points|top\\s+marks|perfect\\s+score|100\\s*(?:/\\s*100|%)|10\\s*/\\s*10"
            + "|(?:die\\s+)?(?:bestnote|volle\\s+punktzahl)|note\\s+maximale|(?:la\\s+)?nota\\s+m[aá]xima"
            + "|puntuaci[oó]n\\s+m[aá]xima|максимальн\\p{L}*\\s+балл\\p{L}*|высш\\p{L}*\\s+оценк\\p{L}*";
    private static final String GRADER = "grader|reviewer|marker|examiner|ai|assistant|model|llm|chatgpt|gpt|claude"
            + "|language\\s+model|korrektor|prüfer|correcteur|correctrice|évaluateur|corrector|evaluador"
            + "|correttore|revisor|проверяющ\\p{L}*|ии|нейросет\\p{L}*";
    private static final List<Sign> SIGNS = List.of(
            new Sign(
                    Pattern.compile("(?iu)(?<![\\p{L}])(?:ignore|disregard|forget|override|skip|bypass|ignoriere|"
                            + "ignorier|vergiss|missachte|ignore[rz]?|oublie[rz]?|ignora|olvida|ignore|esqueça"
                            + "|dimentica|игнорируй\\p{L}*|забудь|не\\s+обращай)(?![\\p{L}])[^.\\n]{0,60}?"
                            + "(?<![\\p{L}])(?:" + INSTRUCTIONS + ")(?![\\p{L}])"),
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
                    Pattern.compile("(?iu)(?<![\\p{L}])(?:give|award|assign|grant|deserves?|gib|gebt|vergib|"
                            + "donne[rz]?|accorde[rz]?|mérite|dale|da(?:me)?|pon(?:me)?|merece|dai|dammi|merita|"
                            + "поставь\\p{L}*|дай\\p{L}*|заслуживает)(?![\\p{L}])[^.\\n]{0,40}?(?:" + FULL_MARKS
                            + ")"),
                    "asks for full marks"),
            new Sign(
                    Pattern.compile("(?iu)(?:^|[^\\p{L}])(?:final\\s+)?(?:grade|note|nota|оценка)[\"']?\\s*:\\s*"
                            + "[\"'“*]*" + LETTER),
                    "writes its own grade"),
            new Sign(
                    Pattern.compile("(?iu)\\b(?:you\\s+are\\s+now|you\\s+are\\s+no\\s+longer|from\\s+now\\s+on"
                            + "\\s+you|pretend\\s+(?:to\\s+be|you\\s+are)|act\\s+as\\s+(?:an?\\s+)?(?:ai|assistant"
                            + "|grader|teacher|reviewer)|du\\s+bist\\s+(?:jetzt|nun|ab\\s+sofort)|tu\\s+es\\s+"
                            + "(?:maintenant|désormais)|ahora\\s+eres|a\\s+partir\\s+de\\s+ahora\\s+eres|"
                            + "теперь\\s+ты)(?![\\p{L}])"),
                    "gives the grader a new role"),
            new Sign(
                    Pattern.compile("(?iu)(?<![\\p{L}])(?:system\\s+prompt|new\\s+instructions|developer\\s+mode"
                            + "|jailbreak|(?:dear|attention|hey|hello|hi|note\\s+to(?:\\s+the)?|message\\s+to"
                            + "(?:\\s+the)?|liebe[rs]?|hallo|cher|chère|bonjour|querido|hola|caro|уважаем\\p{L}*|"
                            + "привет)\\s+(?:" + GRADER + ")|(?:to|for)\\s+the\\s+(?:ai|llm|language\\s+model"
                            + "|automatic\\s+grader|grader|reviewer|marker|examiner)|an\\s+(?:die|den)\\s+"
                            + "(?:ki|korrektor\\p{L}*|prüfer\\p{L}*)|(?:au|à\\s+l')\\s*(?:correcteur|ia|évaluateur)"
                            + "|al\\s+(?:corrector|evaluador)|a\\s+la\\s+ia)(?![\\p{L}])"),
                    "speaks to the grader"));

    /** Characters that hide words from a reader but not from a model: zero-width spaces, joiners, soft hyphens. */
    private static final Pattern INVISIBLE = Pattern.compile("[\\u00AD\\u200B-\\u200F\\u2060-\\u2064\\uFEFF]");

    private static final Pattern COMMENT_MARK = Pattern.compile("^\\s*(?:#+|//+|/\\*+|\\*+/?|--+|<!--|;+|%+|')\\s?");

    private GraderAddressed() {}

    /**
     * Every line of the files with such text, in file and line order, one finding a line: a line alone, or with
     * the next when the two only say it together (a sentence split over two comment lines); and a file whose
     * name says it ({@code ignore_previous_instructions.py}), at line 0.
     */
    public static List<Attempt> find(List<SourceFile> files) {
        List<Attempt> findings = new ArrayList<>();
        for (SourceFile file : files) {
            String name = normalized(file.name().replaceAll("[_\\-.]+", " "));
            attempt(name)
                    .ifPresent(attempt -> findings.add(new Attempt(new Place(file.name(), 0, file.name()), attempt)));
            List<String> lines = file.lines();
            int previous = -1;
            for (int i = 0; i < lines.size(); i++) {
                String line = normalized(lines.get(i));
                java.util.Optional<String> alone = attempt(line);
                if (alone.isPresent()) {
                    findings.add(new Attempt(new Place(file.name(), i + 1, lines.get(i)), alone.get()));
                    previous = i;
                    continue;
                }
                if (i + 1 < lines.size() && previous != i) {
                    String next =
                            COMMENT_MARK.matcher(normalized(lines.get(i + 1))).replaceFirst("");
                    java.util.Optional<String> together = attempt(line.stripTrailing() + " " + next);
                    if (together.isPresent() && attempt(next).isEmpty()) {
                        findings.add(new Attempt(new Place(file.name(), i + 1, lines.get(i)), together.get()));
                        findings.add(new Attempt(new Place(file.name(), i + 2, lines.get(i + 1)), together.get()));
                        previous = i + 1;
                        i++;
                    }
                }
            }
        }
        return findings;
    }

    private static java.util.Optional<String> attempt(String text) {
        for (Sign sign : SIGNS) {
            if (sign.pattern().matcher(text).find()) {
                return java.util.Optional.of(sign.attempt());
            }
        }
        return java.util.Optional.empty();
    }

    /** The text as a reader sees it: compatibility forms folded (fullwidth letters), invisible characters gone. */
    private static String normalized(String text) {
        return INVISIBLE
                .matcher(java.text.Normalizer.normalize(text, java.text.Normalizer.Form.NFKC))
                .replaceAll("");
    }
}
