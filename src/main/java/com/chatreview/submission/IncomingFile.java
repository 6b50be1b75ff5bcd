package com.chatreview.submission;

import org.jspecify.annotations.Nullable;
import org.springframework.core.io.InputStreamSource;

/**
 * A file as it arrived in the upload, before anything is checked.
 *
 * @param originalName the name the client gave, cleaned before it is stored
 * @param content the bytes; read more than once (hash, type detection, storage)
 */
public record IncomingFile(@Nullable String originalName, long size, InputStreamSource content) {}
