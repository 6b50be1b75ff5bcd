package com.chatreview.submission;

import java.util.UUID;

/**
 * A file of a submission, without its bytes.
 *
 * @param contentType what the bytes are, as the service detected it (the client's claim is not trusted)
 */
public record SubmittedFile(UUID id, int position, String fileName, String contentType, long size, String sha256) {}
