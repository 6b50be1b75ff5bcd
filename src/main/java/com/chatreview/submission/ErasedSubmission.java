package com.chatreview.submission;

/**
 * What erasing a submission took with it.
 *
 * @param submission whether the submission was still there (false: an earlier run of the erasure took it)
 * @param chat whether its review chat was still there
 */
public record ErasedSubmission(boolean submission, int files, boolean chat, int messages) {}
