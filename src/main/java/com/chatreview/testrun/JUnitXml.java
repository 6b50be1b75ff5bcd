package com.chatreview.testrun;

import com.chatreview.testrun.TestRun.Outcome;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.jspecify.annotations.Nullable;

/**
 * Reads the JUnit XML report every runner of homework tests writes (pytest, the JUnit console launcher,
 * {@code node --test}): its {@code testcase} elements, each with its {@code failure}, {@code error} or
 * {@code skipped}. The report is written inside the run, where the student's code runs too, so it is read as
 * untrusted input: no DTD, no entity of any kind.
 */
final class JUnitXml {

    private static final XMLInputFactory FACTORY = factory();

    private JUnitXml() {}

    /**
     * A test case as the report has it.
     *
     * @param message the failure's or skip's {@code message} attribute
     * @param detail the failure's text: its trace
     */
    record Case(
            String className,
            String name,
            double seconds,
            Outcome outcome,
            @Nullable String message,
            @Nullable String detail) {}

    /** The report's test cases, in its order; empty when it is not a JUnit XML report. */
    static Optional<List<Case>> read(byte[] report) {
        try {
            XMLStreamReader xml = FACTORY.createXMLStreamReader(new ByteArrayInputStream(report));
            try {
                return Optional.of(cases(xml));
            } finally {
                xml.close();
            }
        } catch (XMLStreamException | RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    private static List<Case> cases(XMLStreamReader xml) throws XMLStreamException {
        List<Case> cases = new ArrayList<>();
        boolean sawRoot = false;
        String className = "";
        String name = "";
        double seconds = 0;
        Outcome outcome = Outcome.PASSED;
        String message = null;
        StringBuilder detail = null;
        boolean inCase = false;
        boolean inResult = false;
        while (xml.hasNext()) {
            int event = xml.next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                String element = xml.getLocalName();
                if (!sawRoot && !element.equals("testsuites") && !element.equals("testsuite")) {
                    throw new XMLStreamException("not a JUnit XML report: " + element);
                }
                sawRoot = true;
                if (element.equals("testcase")) {
                    inCase = true;
                    className = attribute(xml, "classname", "");
                    name = attribute(xml, "name", "");
                    seconds = seconds(attribute(xml, "time", "0"));
                    outcome = Outcome.PASSED;
                    message = null;
                    detail = null;
                } else if (inCase && isResult(element)) {
                    Outcome found = switch (element) {
                        case "failure" -> Outcome.FAILED;
                        case "error" -> Outcome.ERROR;
                        default -> Outcome.SKIPPED;
                    };
                    // a test can fail and then err in its teardown: the worse outcome, and its message, stand
                    if (rank(found) > rank(outcome)) {
                        outcome = found;
                        message = xml.getAttributeValue(null, "message");
                        detail = new StringBuilder();
                        inResult = true;
                    }
                }
            } else if (event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA) {
                if (inResult && detail != null && detail.length() < 64 * 1024) {
                    detail.append(xml.getText());
                }
            } else if (event == XMLStreamConstants.END_ELEMENT) {
                String element = xml.getLocalName();
                if (isResult(element)) {
                    inResult = false;
                } else if (element.equals("testcase") && inCase) {
                    inCase = false;
                    cases.add(new Case(
                            className, name, seconds, outcome, message, detail == null ? null : detail.toString()));
                }
            }
        }
        if (!sawRoot) {
            throw new XMLStreamException("empty report");
        }
        return cases;
    }

    private static boolean isResult(String element) {
        return element.equals("failure") || element.equals("error") || element.equals("skipped");
    }

    private static int rank(Outcome outcome) {
        return switch (outcome) {
            case PASSED -> 0;
            case SKIPPED -> 1;
            case FAILED -> 2;
            case ERROR -> 3;
        };
    }

    private static String attribute(XMLStreamReader xml, String name, String otherwise) {
        String value = xml.getAttributeValue(null, name);
        return value == null ? otherwise : value;
    }

    private static double seconds(String time) {
        try {
            double seconds = Double.parseDouble(time.replace(",", ""));
            return Double.isFinite(seconds) && seconds >= 0 ? seconds : 0;
        } catch (NumberFormatException notANumber) {
            return 0;
        }
    }

    private static XMLInputFactory factory() {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
        return factory;
    }
}
