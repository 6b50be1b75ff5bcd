package com.chatreview.assistant;

/**
 * A complete reply.
 *
 * @param finishReason why generation ended as the provider said it ({@code stop}, {@code length}...)
 * @param usage token counts where the provider reports them
 */
public record AssistantReply(String content, String provider, String model, String finishReason, Usage usage) {

    /** Token counts; {@code null} where unknown. */
    public record Usage(Integer promptTokens, Integer completionTokens, Integer totalTokens) {
        public static final Usage UNKNOWN = new Usage(null, null, null);
    }
}
