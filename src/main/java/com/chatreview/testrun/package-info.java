/**
 * A homework's tests run against a submission (docs/decisions.md, Homework tests): the student's files and the
 * teacher's test files in a fresh sandbox, the language's runner (pytest, JUnit 5, {@code node --test}), and what it
 * came to read from its JUnit XML, each failed test with its message and the student's line its trace names.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Test runs")
package com.chatreview.testrun;
