package com.chatreview.assistant;

/**
 * A complete reply.
 *
 * @param finishReason why generation ended as the provider said it ({@code stop}, {@code length}...)
 * @param usage the token counts: the provider's, or estimated where it reports none
 */
public record AssistantReply(String content, String provider, String model, String finishReason, Usage usage) {

    /**
     * Token counts: the provider's own where it reports them, otherwise estimated from the text sent and received
     * ({@code estimated}), so that every reply counts, whatever the provider tells.
     */
    public record Usage(int promptTokens, int completionTokens, int totalTokens, boolean estimated) {

        /** About four characters a token: the rule of thumb OpenAI gives for English text. */
        static final int CHARS_PER_TOKEN = 4;

        /** The counts the provider reported. */
        public static Usage reported(int promptTokens, int completionTokens, int totalTokens) {
            return new Usage(promptTokens, completionTokens, totalTokens, false);
        }

        /** Counts estimated from the characters sent and received, rounded up. */
        public static Usage estimated(long promptChars, long completionChars) {
            int prompt = tokens(promptChars);
            int completion = tokens(completionChars);
            return new Usage(prompt, completion, prompt + completion, true);
        }

        /** The counts of two requests together; estimated when either is. */
        public Usage plus(Usage other) {
            return new Usage(
                    promptTokens + other.promptTokens,
                    completionTokens + other.completionTokens,
                    totalTokens + other.totalTokens,
                    estimated || other.estimated);
        }

        private static int tokens(long chars) {
            return (int) Math.min(Integer.MAX_VALUE, (chars + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN);
        }
    }
}
