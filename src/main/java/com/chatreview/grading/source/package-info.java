/**
 * Reading a student's source as evidence: the file split into tokens and lines, the teacher's restriction rules
 * parsed and checked against it, its similarity to the reference solution, and the lines addressed to the grader.
 */
@org.jspecify.annotations.NullMarked
package com.chatreview.grading.source;
