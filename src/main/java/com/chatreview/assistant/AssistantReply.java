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

        /** The counts of two requests together: a count one side does not know is the other's. */
        public Usage plus(Usage other) {
            return new Usage(
                    sum(promptTokens, other.promptTokens),
                    sum(completionTokens, other.completionTokens),
                    sum(totalTokens, other.totalTokens));
        }

        private static Integer sum(Integer a, Integer b) {
            return a == null ? b : b == null ? a : Integer.valueOf(a + b);
        }
    }
}
