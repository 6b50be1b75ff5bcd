package com.chatreview.moderation;

/**
 * Screens what a student wrote. Never throws for what the text holds, and answers within microseconds (the offline
 * screener) or its provider's timeout: a message is screened before it is answered.
 */
public interface SafetyScreener {

    Screening screen(String text);
}
