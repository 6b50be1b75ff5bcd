/**
 * Sealing: the operator's key ({@code SEALING_KEY}, or a key a single node makes itself under {@code DATA_DIR}) and
 * AES-GCM with it, for every secret the service keeps in its database (webhook signing secrets, the key that signs
 * the chat page's embed tokens), so that a dump of the database alone can neither sign a webhook nor mint a token.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Sealing")
package com.chatreview.sealing;
