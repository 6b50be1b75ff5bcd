/**
 * Students' submissions: the upload (files stored durably before the 201), the review chat created for each,
 * the submission's state, the teacher's decision with its audit trail, and the text of each file as the review
 * reads it (the {@code extraction} sub-package). Publishes
 * {@link com.chatreview.submission.SubmissionReceived} for the review.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Submission")
package com.chatreview.submission;
