/**
 * The homework review: a durable job per submission (db-scheduler, in PostgreSQL) that reads the student's files,
 * has the assistant review them against the homework, streams the review into the submission's chat and stores
 * analysis and grade; and the material the assistant answers the student's later questions in that chat with.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Review")
package com.chatreview.review;
