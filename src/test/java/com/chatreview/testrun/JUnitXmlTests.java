package com.chatreview.testrun;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.testrun.TestRun.Outcome;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report is written where the student's code runs: it is read as hostile input. */
class JUnitXmlTests {

    @Test
    void readsEachCaseWithItsOutcomeMessageAndTrace() {
        List<JUnitXml.Case> cases = read("""
                <?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="3">
                <testcase classname="test_hw" name="test_a" time="0.012"/>
                <testcase classname="test_hw.TestB" name="test_b" time="1,250.5"><failure message="assert 1 == 2">trace
                line</failure></testcase>
                <testcase classname="test_hw" name="test_c" time="x"><skipped message="later"/></testcase>
                </testsuite></testsuites>""");

        assertThat(cases).hasSize(3);
        assertThat(cases.get(0)).isEqualTo(new JUnitXml.Case("test_hw", "test_a", 0.012, Outcome.PASSED, null, null));
        assertThat(cases.get(1).outcome()).isEqualTo(Outcome.FAILED);
        assertThat(cases.get(1).message()).isEqualTo("assert 1 == 2");
        assertThat(cases.get(1).detail()).isEqualTo("trace\nline");
        assertThat(cases.get(1).seconds()).isEqualTo(1250.5);
        assertThat(cases.get(2).outcome()).isEqualTo(Outcome.SKIPPED);
        assertThat(cases.get(2).seconds()).isZero();
    }

    @Test
    void aTestThatFailedAndThenErredInItsTeardownErred() {
        List<JUnitXml.Case> cases = read("""
                <testsuite><testcase classname="t" name="a"><failure message="first"/><error message="teardown"/>
                </testcase></testsuite>""");

        assertThat(cases).singleElement().satisfies(testCase -> {
            assertThat(testCase.outcome()).isEqualTo(Outcome.ERROR);
            assertThat(testCase.message()).isEqualTo("teardown");
        });
    }

    @Test
    void noEntityOfTheReportIsResolvedAndAReportWithADoctypeIsNotRead(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), "the service's secret");
        for (String hostile : List.of(
                "<?xml version=\"1.0\"?><!DOCTYPE t [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>"
                        + "<testsuite><testcase classname=\"c\" name=\"&x;\"/></testsuite>",
                "<?xml version=\"1.0\"?><!DOCTYPE t [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;\">]>"
                        + "<testsuite><testcase classname=\"c\" name=\"&b;&b;&b;\"/></testsuite>")) {
            String read = JUnitXml.read(hostile.getBytes(StandardCharsets.UTF_8))
                    .map(Object::toString)
                    .orElse("not read");
            assertThat(read).doesNotContain("secret", "aaaa");
        }
    }

    @Test
    void whatIsNotAReportIsNotRead() {
        for (String notAReport : List.of("", "not xml", "<html><body>hi</body></html>", "<testsuite><testcase")) {
            assertThat(JUnitXml.read(notAReport.getBytes(StandardCharsets.UTF_8)))
                    .as(notAReport)
                    .isEmpty();
        }
    }

    private static List<JUnitXml.Case> read(String report) {
        return JUnitXml.read(report.getBytes(StandardCharsets.UTF_8)).orElseThrow();
    }
}
