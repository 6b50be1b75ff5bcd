/**
 * The AI behind chats and reviews: one streaming interface, {@link com.chatreview.assistant.Assistant}, and the
 * providers behind it ({@code offline}, in-process and deterministic, whose reviews come from the {@code grading}
 * module; {@code openai}, any OpenAI-compatible endpoint). Knows no feature module: callers hand it a
 * {@link com.chatreview.assistant.Conversation} or a homework to review ({@code grading.ReviewRequest}).
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Assistant")
package com.chatreview.assistant;
