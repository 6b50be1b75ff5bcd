/** What the moderation module writes as JSON, for whoever reads it: a safety flag's REST body, the same shape in a user's data export and in the flag webhook's payload (one shape, three readers). */
@org.jspecify.annotations.NullMarked
package com.chatreview.moderation.json;
