/**
 * The text of a submitted file as the review reads it: plain text by its encoding, documents (PDF, Office,
 * OpenDocument, RTF) by Apache Tika's parsers in forked JVMs with a time limit, a tenant's parses taking turns.
 */
@org.jspecify.annotations.NullMarked
package com.chatreview.submission.extraction;
