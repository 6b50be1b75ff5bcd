package com.chatreview.homework;

import java.util.Locale;
import java.util.Optional;

/**
 * The language of a homework's tests, told by the test files' extension (docs/decisions.md, Homework tests): what
 * runs them and which of the student's files are its sources.
 */
public enum TestLanguage {
    PYTHON("Python", ".py"),
    JAVA("Java", ".java"),
    JAVASCRIPT("JavaScript", ".js", ".mjs");

    private final String displayName;
    private final String[] extensions;

    TestLanguage(String displayName, String... extensions) {
        this.displayName = displayName;
        this.extensions = extensions;
    }

    /** The language whose tests a file of this name holds, if any. */
    public static Optional<TestLanguage> ofFile(String fileName) {
        for (TestLanguage language : values()) {
            if (language.isSource(fileName)) {
                return Optional.of(language);
            }
        }
        return Optional.empty();
    }

    /** Whether a file of this name is a source file of the language. */
    public boolean isSource(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        for (String extension : extensions) {
            if (lower.endsWith(extension) && lower.length() > extension.length()) {
                return true;
            }
        }
        return false;
    }

    public String displayName() {
        return displayName;
    }
}
