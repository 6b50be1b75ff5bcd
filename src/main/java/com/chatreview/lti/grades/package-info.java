/** Grades back to the LMS: line items per link, scores written to an outbox in the transaction that decided
 * them, and delivered to the platform's Assignment and Grade Services by every node. */
@org.jspecify.annotations.NullMarked
package com.chatreview.lti.grades;
