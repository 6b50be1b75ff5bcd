/**
 * Safety screening of what students write (docs/safety.md): every message a student sends, and the files they hand
 * in, screened for self-harm, violence or threats, sexual content involving minors, harassment or bullying, and
 * contact details shared. Its API is {@link com.chatreview.moderation.SafetyScreener}: a text's
 * {@link com.chatreview.moderation.Screening}. The offline screener runs in the service's own JVM on rules and phrase
 * lists in English, German, French and Spanish; it reads no data and calls nothing.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Moderation")
package com.chatreview.moderation;
