package com.chatreview.grading.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.chatreview.grading.Place;
import com.chatreview.grading.source.RestrictionRules.AnyWord;
import com.chatreview.grading.source.RestrictionRules.Import;
import com.chatreview.grading.source.RestrictionRules.Outcome;
import com.chatreview.grading.source.RestrictionRules.Polarity;
import com.chatreview.grading.source.RestrictionRules.Recursion;
import com.chatreview.grading.source.RestrictionRules.Rule;
import com.chatreview.grading.source.RestrictionRules.Words;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** How the offline reviewer reads restriction files, and where it finds a rule broken. */
class RestrictionRulesTests {

    static final String READABLE = """
            Do not use `eval`.                          => FORBIDDEN => `eval`
            The built-in "sum" must not be used         => FORBIDDEN => `sum`
            Do not use the built-in sum function        => FORBIDDEN => `sum`
            Don't call 'exec'                           => FORBIDDEN => `exec`
            Never use goto                              => FORBIDDEN => `goto`
            Avoid lambda                                => FORBIDDEN => `lambda`
            Forbidden: eval, exec                       => FORBIDDEN => `eval`; `exec`
            Do not use `list.sort()`                    => FORBIDDEN => `list.sort()`
            No recursion allowed.                       => FORBIDDEN => recursion (a function that calls itself)
            Loops are not allowed.                      => FORBIDDEN => loops (`for`, `while`)
            Solve it without for loops                  => FORBIDDEN => `for`
            Do not import numpy                         => FORBIDDEN => an import of `numpy`
            Forbidden import: java.util.Collections     => FORBIDDEN => an import of `java.util.collections`
            No imports from numpy                       => FORBIDDEN => an import of `numpy`
            Do not use the math module                  => FORBIDDEN => an import of `math`
            No imports.                                 => FORBIDDEN => any import
            You must use recursion                      => REQUIRED => recursion (a function that calls itself)
            Required: `gcd`                             => REQUIRED => `gcd`
            The solution must contain a `main` function => REQUIRED => `main`
            Must import math                            => REQUIRED => an import of `math`
            `eval` is forbidden.                        => FORBIDDEN => `eval`
            `sorted` and `sort` are not allowed, use a loop => FORBIDDEN => `sorted`; `sort`
            Use `map` but never `filter`                => FORBIDDEN => `filter`
            Never `eval`!                               => FORBIDDEN => `eval`
            `solve` must use recursion                  => REQUIRED => recursion (a function that calls itself)
            """;

    static final String UNREADABLE = """
            Write readable code.
            Do not copy code from the internet
            No external libraries
            Use only while loops
            Comment every function
            Do not use list comprehensions
            `curve` must not change its input
            Do not read or write files outside `main`.
            """;

    static Stream<Arguments> readable() {
        return READABLE.lines().map(line -> line.split("\\s*=>\\s*")).map(cells -> Arguments.of((Object[]) cells));
    }

    static Stream<String> unreadable() {
        return UNREADABLE.lines();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readable")
    void readsWhatARuleForbidsOrRequires(String line, Polarity polarity, String checks) {
        RestrictionRules rules = parse(line);

        assertThat(rules.uncheckable()).isEmpty();
        assertThat(rules.rules()).singleElement().satisfies(rule -> {
            assertThat(rule.polarity()).isEqualTo(polarity);
            assertThat(rule.source()).isEqualTo(new Place("rules.txt", 1, line));
            assertThat(rule.checks().stream().map(RestrictionRules.Check::describe))
                    .containsExactly(checks.split("; "));
        });
    }

    @Test
    void aLineLongerThanAnyRuleIsListedUncheckedWithoutBeingParsed() {
        String line = "Do not use: a" + " ".repeat(200_000) + "b";

        RestrictionRules rules = parse(line);

        assertThat(rules.rules()).isEmpty();
        assertThat(rules.uncheckable())
                .singleElement()
                .satisfies(place ->
                        assertThat(place.text()).startsWith("Do not use: a").hasSizeLessThan(100));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadable")
    void listsWhatItCannotCheckInsteadOfGuessing(String line) {
        RestrictionRules rules = parse(line);

        assertThat(rules.rules()).isEmpty();
        assertThat(rules.uncheckable()).containsExactly(new Place("rules.txt", 1, line));
    }

    @Test
    void aHeadingGivesItsPolarityToTheLinesUnderItAndHeadingsAreNotRules() {
        RestrictionRules rules = parse("""
                # Restrictions

                Forbidden:
                - eval
                - exec
                Forbidden imports:
                - numpy
                Required:
                1. `gcd`
                """);

        assertThat(rules.uncheckable()).isEmpty();
        assertThat(rules.rules())
                .extracting(
                        Rule::polarity,
                        rule -> rule.checks().getFirst().describe(),
                        rule -> rule.source().line())
                .containsExactly(
                        tuple(Polarity.FORBIDDEN, "`eval`", 4),
                        tuple(Polarity.FORBIDDEN, "`exec`", 5),
                        tuple(Polarity.FORBIDDEN, "an import of `numpy`", 7),
                        tuple(Polarity.REQUIRED, "`gcd`", 9));
    }

    @Test
    void aLineOfSeveralSentencesIsOneRuleEach() {
        RestrictionRules rules = parse("Submit one file. Do not use `eval`; never call exec()");

        assertThat(rules.rules()).hasSize(2);
        assertThat(rules.rules().get(1).checks()).containsExactly(new Words(List.of("exec"), "exec"));
        assertThat(rules.uncheckable()).extracting(Place::text).containsExactly("Submit one file.");
    }

    @Test
    void findsForbiddenWordsAsWholeTokensOutsideCommentsAndStrings() {
        SourceFile code = SourceFile.read("solution.py", "text/x-python", """
                # eval is dangerous, so this file does not call it
                message = "never eval input"
                evaluate = 1
                result = eval(expression)
                """);

        List<Place> hits = new Words(List.of("eval"), "eval").find(code);

        assertThat(hits).containsExactly(new Place("solution.py", 4, "result = eval(expression)"));
    }

    @Test
    void matchesASequenceOfTokensWhateverTheSpacing() {
        SourceFile code = SourceFile.read("Main.java", "text/x-java-source", """
                // list.sort() would be shorter
                values . sort ( null );
                list.sort(null);
                """);

        assertThat(new Words(List.of("list", ".", "sort"), "list.sort").find(code))
                .extracting(Place::line)
                .containsExactly(3);
    }

    @Test
    void findsTheImportsOfCommonLanguages() {
        Import numpy = new Import("numpy");

        assertThat(numpy.find(python("import numpy as np\n"))).hasSize(1);
        assertThat(numpy.find(python("import os, numpy\n"))).hasSize(1);
        assertThat(numpy.find(python("from numpy.linalg import inv\n"))).hasSize(1);
        assertThat(numpy.find(python("# import numpy\nimport numbers\n"))).isEmpty();
        assertThat(new Import("sqrt").find(python("from math import sqrt, pi\n")))
                .hasSize(1);
        assertThat(new Import("java.util.collections").find(file("A.java", "import java.util.Collections;\n")))
                .hasSize(1);
        assertThat(new Import("collections").find(file("A.java", "import static java.util.Collections.sort;\n")))
                .hasSize(1);
        assertThat(new Import("stdlib.h").find(file("a.c", "#include <stdlib.h>\n")))
                .hasSize(1);
        assertThat(new Import("stdlib").find(file("a.c", "#include <stdlib.h>\n")))
                .hasSize(1);
        assertThat(new Import("fs").find(file("a.js", "const fs = require('fs');\n")))
                .hasSize(1);
        assertThat(new Import("lodash").find(file("a.js", "import { map } from \"lodash\";\n")))
                .hasSize(1);
        assertThat(new Import("system.linq").find(file("a.cs", "using System.Linq;\n")))
                .hasSize(1);
        assertThat(new Import("fmt").find(file("main.go", "import (\n    \"fmt\"\n    \"os\"\n)\n")))
                .extracting(Place::line)
                .containsExactly(2);
        assertThat(new Import(null).find(python("x = 1\nimport os\nfrom sys import argv\n")))
                .extracting(Place::line)
                .containsExactly(2, 3);
    }

    @Test
    void findsAFunctionThatCallsItselfInPythonAndInBraceLanguages() {
        SourceFile python = python("""
                def helper(n):
                    return n + 1

                def fact(n):
                    if n < 2:
                        return 1
                    return n * fact(n - 1)

                print(fact(5), helper(2))
                """);
        SourceFile java = file("Fact.java", """
                class Fact {
                    static int fact(int n) {
                        return n < 2 ? 1 : n * fact(n - 1);
                    }

                    public static void main(String[] args) {
                        System.out.println(fact(5));
                    }
                }
                """);
        SourceFile iterative = python("""
                def fact(n):
                    result = 1
                    for i in range(2, n + 1):
                        result *= i
                    return result

                print(fact(5))
                """);

        assertThat(new Recursion().find(python)).containsExactly(new Place("x.py", 7, "    return n * fact(n - 1)"));
        assertThat(new Recursion().find(java)).extracting(Place::line).containsExactly(3);
        assertThat(new Recursion().find(iterative)).isEmpty();
    }

    @Test
    void aForbiddingRuleIsBrokenWhereverItIsFoundAndARequiringOneWhereNothingHasIt() {
        RestrictionRules rules = parse("Do not use loops.\nMust use `gcd`.\nMust use `while`.");
        List<SourceFile> files = List.of(
                python("for x in range(3):\n    print(x)\nwhile True:\n    break\n"), file("b.py", "gcd = 1\n"));

        List<Outcome> outcomes = rules.check(files);

        assertThat(outcomes.get(0).hits()).extracting(Place::line).containsExactly(1, 3);
        assertThat(outcomes.get(0).rule().checks()).containsExactly(new AnyWord(List.of("for", "while"), "loops"));
        assertThat(outcomes.get(1).broken()).isFalse();
        assertThat(outcomes.get(2).broken()).isFalse();
        assertThat(rules.check(List.of(file("c.py", "print(1)\n"))))
                .extracting(Outcome::broken)
                .containsExactly(false, true, true);
    }

    private static RestrictionRules parse(String text) {
        return RestrictionParser.parse(List.of(SourceFile.read("rules.txt", "text/plain", text)));
    }

    private static SourceFile python(String text) {
        return file("x.py", text);
    }

    private static SourceFile file(String name, String text) {
        return SourceFile.read(name, null, text);
    }
}
