/**
 * What a text means, as a small sentence model running in the service's own JVM sees it: all-MiniLM-L6-v2
 * (quantized), on ONNX Runtime, shipped in the jar with the natives of the platform the jar was built for; nothing is
 * downloaded. Its API is {@link com.chatreview.meaning.SentenceModel}: the {@link com.chatreview.meaning.Meaning} of
 * texts, and how close two meanings are. The model loads once per node, on first use; where it cannot run (a platform
 * whose natives the jar lacks) it says so, and its callers grade as they do without it (docs/review-rubric.md).
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Meaning")
package com.chatreview.meaning;
