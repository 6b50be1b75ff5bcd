package com.chatreview.moderation;

/**
 * What the service answers a flagged message with (docs/safety.md, The reply): the category's policy text, in the
 * student's language, and whether the AI's own answer follows it (it does after a possible self-harm message or
 * contact details, so that a false flag costs nobody their answer; it does not after a request to hurt, to bully or
 * for sexual content).
 */
public record SafetyReply(String text, boolean answerFollows) {}
